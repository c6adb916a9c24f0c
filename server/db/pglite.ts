import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db, DbExecutor } from './types';

/**
 * The embedded database serves one app with a few connections' worth of work: modest buffers keep
 * the server's memory small (PGlite's defaults cost ~110 MB more resident memory).
 */
const EMBEDDED_SETTINGS = ['shared_buffers=8MB', 'work_mem=2MB', 'maintenance_work_mem=16MB', 'wal_buffers=256kB'];

/** Embedded Postgres (WASM). dataDir undefined = in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const options = { postgresqlconf: EMBEDDED_SETTINGS };
  const pg = dataDir === undefined ? await PGlite.create(options) : await PGlite.create(dataDir, options);
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await pg.query<T>(sql, params as unknown[] | undefined);
      return { rows: result.rows };
    },
    async exec(sql: string) {
      await pg.exec(sql);
    },
    transaction<T>(fn: (tx: DbExecutor) => Promise<T>) {
      return pg.transaction((tx) =>
        fn({
          async query<R>(sql: string, params?: unknown[]) {
            const result = await tx.query<R>(sql, params as unknown[] | undefined);
            return { rows: result.rows };
          },
          async exec(sql: string) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async listen(channel: string, onMessage: (payload: string) => void, onState: (listening: boolean) => void) {
      // One process owns the embedded database: every notification reaches it.
      const unlisten = await pg.listen(channel, onMessage);
      onState(true);
      return async () => {
        onState(false);
        if (!pg.closed) await unlisten();
      };
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}
