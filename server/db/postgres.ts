import pg from 'pg';
import { DatabaseUnavailableError, isConnectionFailure } from './errors';
import type { Db, DbExecutor } from './types';

/** How long a request waits for a connection before the database counts as unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Connections one process opens at most when the caller does not say (DATABASE_POOL_SIZE's default). */
export const DEFAULT_POOL_SIZE = 20;

/** A connection failure becomes DatabaseUnavailableError (503, or a job that waits); anything else is thrown as is. */
function translated(error: unknown): unknown {
  return isConnectionFailure(error) ? new DatabaseUnavailableError(error) : error;
}

/**
 * A real PostgreSQL server through a connection pool. It survives the server restarting or the
 * network failing: an idle connection that breaks is dropped (the pool's 'error' event, which
 * would otherwise end the process), a statement that fails for want of a connection throws
 * DatabaseUnavailableError, and the next statement opens a fresh connection.
 */
export async function openPostgres(
  connectionString: string,
  log?: (message: string, error: unknown) => void,
  { poolSize = DEFAULT_POOL_SIZE }: { poolSize?: number | undefined } = {},
): Promise<Db> {
  // Statements beyond `poolSize` at once wait for a connection (CONNECT_TIMEOUT_MS at most).
  const pool = new pg.Pool({ connectionString, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', (error) => log?.('a database connection failed while idle; it is replaced on next use', error));
  // Fail at start-up with a clear error rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const executor = (client: pg.Pool | pg.PoolClient): DbExecutor => ({
    async query<T>(sql: string, params?: unknown[]) {
      try {
        const result = await client.query(sql, params);
        return { rows: result.rows as T[] };
      } catch (error) {
        throw translated(error);
      }
    },
    async exec(sql: string) {
      try {
        await client.query(sql);
      } catch (error) {
        throw translated(error);
      }
    },
  });
  return {
    ...executor(pool),
    async transaction<T>(fn: (tx: DbExecutor) => Promise<T>) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translated(error);
      }
      // A client whose connection broke is destroyed rather than handed to the next query.
      let broken: Error | undefined;
      const onError = (error: Error) => (broken = error);
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (isConnectionFailure(error) || error instanceof DatabaseUnavailableError) broken ??= error as Error;
        else await client.query('ROLLBACK').catch((e: unknown) => (broken = e as Error));
        throw translated(error);
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    async listen(channel: string, onMessage: (payload: string) => void, onState: (listening: boolean) => void) {
      // A connection of its own: a pooled one would be handed to other queries.
      let client: pg.Client | null = null;
      let stopped = false;
      const retry = () => {
        if (!stopped) setTimeout(() => void connect().catch(retry), 1000).unref();
      };
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
        next.on('notification', (message) => {
          if (message.channel === channel) onMessage(message.payload ?? '');
        });
        let failed = false;
        const fail = () => {
          // Notifications are missed until a new connection listens again.
          if (failed) return;
          failed = true;
          onState(false);
          next.end().catch(() => undefined);
          retry();
        };
        next.on('error', fail);
        next.on('end', () => {
          if (client === next) fail();
        });
        try {
          await next.connect();
          await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        } catch (error) {
          failed = true;
          next.end().catch(() => undefined);
          throw error;
        }
        client = next;
        onState(true);
      };
      await connect();
      return async () => {
        stopped = true;
        onState(false);
        const last = client;
        client = null;
        await last?.end().catch(() => undefined);
      };
    },
    async close() {
      await pool.end();
    },
  };
}
