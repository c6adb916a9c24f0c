/** What the domain's repositories need from a SQL database; PGlite and Postgres both provide it. */
export interface DbExecutor {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

export interface Db extends DbExecutor {
  /** Runs fn in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: DbExecutor) => Promise<T>): Promise<T>;
  /**
   * LISTEN on `channel` (NOTIFY payloads of every process on the database). `onState(false)` says
   * notifications may be missed from now on (the listening connection failed), `onState(true)`
   * that they arrive again. Answers unlisten.
   */
  listen?(
    channel: string,
    onMessage: (payload: string) => void,
    onState: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Postgres' SQLSTATE for a unique-constraint violation, reported by both engines. */
export const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
}

/** Postgres' SQLSTATE for a row that names a row no longer there (a job deleted as its place was saved). */
export const FOREIGN_KEY_VIOLATION = '23503';

export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION;
}
