import pg from 'pg';
import type { Db, DbExecutor } from './types';

/** A real PostgreSQL server through a connection pool. */
export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // Fail at start-up with a clear error rather than on the first request.
  const probe = await pool.connect();
  probe.release();

  const executor = (client: pg.Pool | pg.PoolClient): DbExecutor => ({
    async query<T>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params);
      return { rows: result.rows as T[] };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });

  return {
    ...executor(pool),
    async transaction<T>(fn: (tx: DbExecutor) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
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
        const next = new pg.Client({ connectionString });
        next.on('notification', (message) => {
          if (message.channel === channel) onMessage(message.payload ?? '');
        });
        next.on('error', () => {
          // Notifications are missed until a new connection listens again.
          onState(false);
          next.end().catch(() => undefined);
          retry();
        });
        await next.connect();
        await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = next;
        onState(true);
      };
      await connect();
      return async () => {
        stopped = true;
        onState(false);
        await client?.end().catch(() => undefined);
      };
    },
    async close() {
      await pool.end();
    },
  };
}
