import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db, DbExecutor } from './types';

/** Embedded Postgres (WASM). dataDir undefined = in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const pg = dataDir === undefined ? await PGlite.create() : await PGlite.create(dataDir);
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
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}
