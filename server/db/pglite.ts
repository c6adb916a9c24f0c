import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { Db, DbExecutor } from './types';

/**
 * The embedded database serves one app with a few connections' worth of work: modest buffers keep
 * the server's memory small (PGlite's defaults cost ~110 MB more resident memory).
 */
const EMBEDDED_SETTINGS = ['shared_buffers=8MB', 'work_mem=2MB', 'maintenance_work_mem=16MB', 'wal_buffers=256kB'];

/**
 * A new embedded database starts from a template: an empty, freshly initialised data directory
 * made once by `npm run generate:db-template` (scripts/gen-db-template.mjs) and committed beside
 * this file. Creating one from scratch runs Postgres' initdb inside WASM, which takes about 12 s
 * and peaks near 800 MB of memory; unpacking the template takes under 2 s and about 300 MB. The
 * template is only used with the PGlite version it was made with (its stamp says which); with any
 * other, or when it is missing, the database is initialised from scratch as before.
 * (In the compiled server the two files sit beside the bundle, see scripts/build-server.mjs.)
 */
const fromSource = import.meta.url.endsWith('.ts');
export const DB_TEMPLATE_FILE = fileURLToPath(new URL(fromSource ? './template/pglite-data.tar.gz' : './pglite-data.tar.gz', import.meta.url));
export const DB_TEMPLATE_STAMP = fileURLToPath(new URL(fromSource ? './template/pglite-data.json' : './pglite-data.json', import.meta.url));

/** The installed PGlite's version (its package.json), which a template must have been made with. */
export function installedPgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The template's bytes when it fits the installed PGlite, else undefined. */
function usableTemplate(templateFile: string | null): Blob | undefined {
  if (templateFile === null || !existsSync(templateFile)) return undefined;
  const stampFile = templateFile === DB_TEMPLATE_FILE ? DB_TEMPLATE_STAMP : templateFile.replace(/\.tar\.gz$/, '.json');
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { pglite?: unknown };
    if (stamp.pglite !== installedPgliteVersion()) return undefined;
  } catch {
    return undefined;
  }
  return new Blob([readFileSync(templateFile)]);
}

/** A directory that holds no database yet (missing or empty). */
function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

export interface OpenPgliteOptions {
  /** The template to start a new database from; null = always initialise from scratch. */
  template?: string | null;
}

/** Creates (or opens) the PGlite instance, from the template when the database is new. */
async function createPglite(dataDir: string | undefined, templateFile: string | null): Promise<PGlite> {
  const options: PGliteOptions = { postgresqlconf: EMBEDDED_SETTINGS };
  const isNew = dataDir === undefined || isEmptyDir(dataDir);
  const template = isNew ? usableTemplate(templateFile) : undefined;
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  if (template === undefined) return dataDir === undefined ? PGlite.create(options) : PGlite.create(dataDir, options);
  try {
    return dataDir === undefined
      ? await PGlite.create({ ...options, loadDataDir: template })
      : await PGlite.create(dataDir, { ...options, loadDataDir: template });
  } catch (error) {
    // A template this PGlite cannot start from: forget what it unpacked and initialise instead.
    console.warn(`The embedded database template could not be used (${error instanceof Error ? error.message : String(error)}); initialising a new database.`);
    if (dataDir === undefined) return PGlite.create(options);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    return PGlite.create(dataDir, options);
  }
}

/** Embedded Postgres (WASM). dataDir undefined = in memory (tests). */
export async function openPglite(dataDir?: string, { template = DB_TEMPLATE_FILE }: OpenPgliteOptions = {}): Promise<Db> {
  const pg = await createPglite(dataDir, template);
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
