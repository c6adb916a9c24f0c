/**
 * Schema changes, applied in order and recorded in schema_migrations. Never edit a shipped
 * migration: add a new one. The SQL must run unchanged on PGlite and on PostgreSQL.
 */
export interface Migration {
  id: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    id: '0001_users',
    sql: `
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];
