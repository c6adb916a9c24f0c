import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { x as extractTar } from 'tar';
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
 * and peaks near 800 MB of memory. The template is unpacked straight onto disk as a stream (a few MB
 * of memory, under a second) and then opened like any existing database, so the first start costs
 * no more memory than every later one. The template is only used with the PGlite version it was
 * made with (its stamp says which); with any other, or when it is missing or cannot be opened, the
 * database is initialised from scratch as before.
 * (In the compiled server the two files sit beside the bundle, see scripts/build-server.mjs.)
 */
const fromSource = import.meta.url.endsWith('.ts');
export const DB_TEMPLATE_FILE = fileURLToPath(
  new URL(fromSource ? './template/pglite-data.tar.gz' : './pglite-data.tar.gz', import.meta.url),
);
export const DB_TEMPLATE_STAMP = fileURLToPath(
  new URL(fromSource ? './template/pglite-data.json' : './pglite-data.json', import.meta.url),
);

/** The installed PGlite's version (its package.json), which a template must have been made with. */
export function installedPgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Whether the template exists and was made with the installed PGlite. */
function isUsableTemplate(templateFile: string | null): templateFile is string {
  if (templateFile === null || !existsSync(templateFile)) return false;
  const stampFile = templateFile === DB_TEMPLATE_FILE ? DB_TEMPLATE_STAMP : templateFile.replace(/\.tar\.gz$/, '.json');
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { pglite?: unknown };
    return stamp.pglite === installedPgliteVersion();
  } catch {
    return false;
  }
}

/** A directory that holds no database yet (missing or empty). */
function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Unpacks the template into `dataDir` (missing or empty): into a sibling directory first, renamed
 * into place once complete, so a start interrupted half-way never leaves a half database behind
 * that the next start would take for a real one. The lock file a running Postgres leaves in its
 * directory is not unpacked.
 */
async function unpackTemplate(templateFile: string, dataDir: string): Promise<void> {
  const unpacking = `${dataDir}.unpacking-${process.pid}`;
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(unpacking, { recursive: true });
  try {
    // The archive's paths start at the data directory's root ("/base/..."); the leading "/" is
    // dropped (TAR_ENTRY_INFO says so). Any other warning means a damaged archive.
    const problems: string[] = [];
    await extractTar({
      file: templateFile,
      cwd: unpacking,
      filter: (entry) => path.basename(entry) !== 'postmaster.pid',
      onwarn: (code, message) => {
        if (code !== 'TAR_ENTRY_INFO') problems.push(`${code}: ${String(message)}`);
      },
    });
    if (problems.length > 0) throw new Error(problems[0]);
    if (!existsSync(path.join(unpacking, 'PG_VERSION'))) throw new Error('the template holds no PG_VERSION');
    rmSync(dataDir, { recursive: true, force: true });
    renameSync(unpacking, dataDir);
  } finally {
    rmSync(unpacking, { recursive: true, force: true });
  }
}

export interface OpenPgliteOptions {
  /** The template to start a new database from; null = always initialise from scratch. */
  template?: string | null;
  /**
   * Compile the database with V8's baseline compiler only (smaller; see withBaselineWasmCompiler).
   * Only for a process that compiles no other WebAssembly whose speed matters. Default false.
   */
  baselineCompiler?: boolean;
}

/**
 * Compiles the database's WebAssembly with V8's baseline compiler (Liftoff) only. By default V8
 * recompiles every function that runs often with its optimising compiler (TurboFan): Postgres
 * starting up and answering its first queries runs enough of its code to keep 30 to 45 MB more
 * resident. Postgres' work here is small queries, for which the baseline code is as fast
 * (docs/adr/0021-embedded-database-on-the-baseline-compiler.md). V8's flag is process-wide,
 * and switching it back after the database's module has compiled does not give WebAssembly
 * compiled later its optimising compiler again (the offline voice and LAME in WebAssembly then ran
 * at half their speed): so this is only done when the process runs no such WebAssembly.
 */
async function withBaselineWasmCompiler<T>(open: () => Promise<T>): Promise<T> {
  const chosenByOperator = process.execArgv.some((flag) => flag.replace(/_/g, '-') === '--liftoff-only');
  if (chosenByOperator) return open();
  v8.setFlagsFromString('--liftoff-only');
  try {
    return await open();
  } finally {
    v8.setFlagsFromString('--no-liftoff-only');
  }
}

/** Creates (or opens) the PGlite instance, from the template when the database is new. */
function createPglite(
  dataDir: string | undefined,
  templateFile: string | null,
  baselineCompiler: boolean,
): Promise<PGlite> {
  const create = () => createPgliteInstance(dataDir, templateFile);
  return baselineCompiler ? withBaselineWasmCompiler(create) : create();
}

async function createPgliteInstance(dataDir: string | undefined, templateFile: string | null): Promise<PGlite> {
  const options: PGliteOptions = { postgresqlconf: EMBEDDED_SETTINGS };
  const isNew = dataDir === undefined || isEmptyDir(dataDir);
  const fromTemplate = isNew && isUsableTemplate(templateFile);
  if (!fromTemplate) {
    if (dataDir === undefined) return PGlite.create(options);
    mkdirSync(dataDir, { recursive: true });
    return PGlite.create(dataDir, options);
  }
  try {
    // In memory (tests) PGlite loads the archive itself; on disk it is unpacked first.
    if (dataDir === undefined)
      return await PGlite.create({ ...options, loadDataDir: new Blob([readFileSync(templateFile)]) });
    await unpackTemplate(templateFile, dataDir);
    return await PGlite.create(dataDir, options);
  } catch (error) {
    // A template this PGlite cannot start from: forget what it unpacked and initialise instead.
    console.warn(
      `The embedded database template could not be used (${error instanceof Error ? error.message : String(error)}); initialising a new database.`,
    );
    if (dataDir === undefined) return PGlite.create(options);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    return PGlite.create(dataDir, options);
  }
}

/** The embedded database, which can also be written out whole as a template (a gzipped tarball). */
export interface PgliteDb extends Db {
  dumpDataDir(): Promise<Blob>;
}

/** Embedded Postgres (WASM). dataDir undefined = in memory (tests). */
export async function openPglite(
  dataDir?: string,
  { template = DB_TEMPLATE_FILE, baselineCompiler = false }: OpenPgliteOptions = {},
): Promise<PgliteDb> {
  const pg = await createPglite(dataDir, template, baselineCompiler);
  return {
    dumpDataDir: () => pg.dumpDataDir('gzip'),
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
