import { migrations as defaultMigrations, type Migration } from './migrations/index';
import type { Db, DbExecutor } from './types';

/** Any constant works; it keeps two servers on one database from migrating at the same time. */
const MIGRATION_LOCK_KEY = 740_215_001;

/** Applies the migrations not yet recorded, each in its own transaction. Returns the ids applied. */
export async function migrate(db: Db, migrations: readonly Migration[] = defaultMigrations): Promise<string[]> {
  await db.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      id text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
  `);
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const { rows } = await tx.query<{ id: string }>('SELECT id FROM schema_migrations WHERE id = $1', [migration.id]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

/** The ids of the migrations applied to this database, in order. */
export async function appliedMigrations(x: DbExecutor): Promise<string[]> {
  const { rows } = await x.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
  return rows.map((r) => r.id);
}
