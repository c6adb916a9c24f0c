import path from 'node:path';
import type { Config } from '../config';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Db } from './types';

/**
 * Chooses the engine: Postgres when DATABASE_URL is set (a pool of DATABASE_POOL_SIZE connections),
 * else PGlite in DATA_DIR/db.
 * `baselineCompiler`: see OpenPgliteOptions (only when no other WebAssembly runs in the process).
 */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>,
  log?: (message: string, error: unknown) => void,
  { baselineCompiler = false }: { baselineCompiler?: boolean } = {},
): Promise<Db> {
  return config.databaseUrl !== undefined
    ? openPostgres(config.databaseUrl, log, { poolSize: config.databasePoolSize })
    : openPglite(path.join(config.dataDir, 'db'), { baselineCompiler });
}
