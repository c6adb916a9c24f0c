/**
 * Backup and restore of one instance: its database (embedded or PostgreSQL) and its stored files
 * (STORAGE_DIR), into and out of a directory. `npm run backup -- DIR`, `npm run restore -- DIR`
 * (server/backup.ts); docs/operations.md says how to run it nightly.
 *
 * Layout of DIR: `manifest.json` (when, which engine, the migrations applied, each table's row
 * count, each file's size and SHA-256), `database/<table>.jsonl` (one row per line, as the
 * database writes it as JSON) and `files/<key>` (the stored files under their keys).
 *
 * - The database is read in one REPEATABLE READ transaction: every table as of one instant, while
 *   a PostgreSQL server keeps serving. The embedded database belongs to the one server process
 *   that opened it: back it up (and restore it) with that server stopped.
 * - Restore goes into an empty instance (a new DATA_DIR, an empty database): its migrations are
 *   applied, then the rows are inserted in one transaction, parents before children, and every
 *   file is copied and checked against its SHA-256. Leases are cleared, so the jobs that were
 *   running resume when the restored server starts. The queue's own messages are not kept: the
 *   server queues every job that should run when it starts.
 * - Files in an object store (STORAGE_URL) are not copied: the store's own versioning or
 *   replication keeps them; the database is still backed up.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';
import { appliedMigrations, migrate } from '../db/migrate';
import { openDatabase } from '../db/open';
import { createJobRepository } from '../jobs/repository';
import type { Db, DbExecutor } from '../db/types';
import { TEMP_DIR_NAME } from '../storage/types';

const FORMAT = 'lectio-backup-1';
const PAGE_ROWS = 500;
/** Written by readiness probes; never worth keeping. */
const SKIPPED_PREFIXES = [`${TEMP_DIR_NAME}/`, 'ops/'];

export interface BackupManifest {
  format: typeof FORMAT;
  createdAt: string;
  database: 'embedded' | 'postgresql';
  migrations: string[];
  tables: Record<string, number>;
  /** Stored files by key; absent when the files live in an object store. */
  files: Record<string, { size: number; sha256: string }> | null;
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** The embedded database is open in a running server (PGlite keeps Postgres' lock file while open). */
function assertEmbeddedStopped(config: Pick<Config, 'databaseUrl' | 'dataDir'>): void {
  if (config.databaseUrl !== undefined) return;
  if (existsSync(path.join(config.dataDir, 'db', 'postmaster.pid'))) {
    throw new BackupError(
      `The embedded database in ${path.join(config.dataDir, 'db')} is open in a running server: stop the server first (or use PostgreSQL, which is backed up while it serves)`,
    );
  }
}

/** The application's tables, parents before children (a table's foreign keys point to tables before it). */
async function tablesInOrder(db: DbExecutor): Promise<string[]> {
  const { rows: tables } = await db.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' ORDER BY tablename",
  );
  const { rows: refs } = await db.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  );
  const pending = new Set(tables.map((t) => t.name));
  const ordered: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter((t) =>
      refs.every((r) => r.child !== t || r.parent === t || !pending.has(r.parent)),
    );
    if (ready.length === 0) throw new BackupError(`Circular foreign keys between ${[...pending].join(', ')}`);
    for (const t of ready) {
      ordered.push(t);
      pending.delete(t);
    }
  }
  return ordered;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every file below `root` as [key, absolute path], skipping temporary writes and probes. */
async function storedFiles(root: string): Promise<[string, string][]> {
  if (!existsSync(root)) return [];
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      return [path.relative(root, full).split(path.sep).join('/'), full] as [string, string];
    })
    .filter(([key]) => !SKIPPED_PREFIXES.some((p) => key.startsWith(p)))
    .sort(([a], [b]) => a.localeCompare(b));
}

async function copyChecked(from: string, to: string): Promise<{ size: number; sha256: string }> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    createReadStream(from),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(to, { flags: 'wx' }),
  );
  return { size, sha256: hash.digest('hex') };
}

async function isEmptyDir(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await fs.readdir(dir)).length === 0;
}

/** Writes a backup of the configured instance into `dir` (which must be empty or missing). */
export async function backupInstance(config: Config, dir: string, log: (line: string) => void = () => undefined) {
  if (!(await isEmptyDir(dir))) throw new BackupError(`${dir} is not empty: give each backup a new directory`);
  assertEmbeddedStopped(config);
  await fs.mkdir(path.join(dir, 'database'), { recursive: true });
  const db = await openDatabase(config);
  const manifest: BackupManifest = {
    format: FORMAT,
    createdAt: new Date().toISOString(),
    database: config.databaseUrl === undefined ? 'embedded' : 'postgresql',
    migrations: [],
    tables: {},
    files: null,
  };
  try {
    await db.transaction(async (tx) => {
      await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      manifest.migrations = await appliedMigrations(tx);
      for (const table of await tablesInOrder(tx)) {
        const out = createWriteStream(path.join(dir, 'database', `${table}.jsonl`), { flags: 'wx' });
        let count = 0;
        for (let offset = 0; ; offset += PAGE_ROWS) {
          const page = await tx.query<{ r: string }>(
            `SELECT row_to_json(t)::text AS r FROM ${quoteIdent(table)} t ORDER BY ctid LIMIT ${PAGE_ROWS} OFFSET ${offset}`,
          );
          for (const { r } of page.rows) {
            if (!out.write(`${r}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
          }
          count += page.rows.length;
          if (page.rows.length < PAGE_ROWS) break;
        }
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        manifest.tables[table] = count;
        log(`${table}: ${count} rows`);
      }
    });
  } finally {
    await db.close();
  }
  if (config.s3 === undefined) {
    manifest.files = {};
    for (const [key, file] of await storedFiles(config.storageDir)) {
      manifest.files[key] = await copyChecked(file, path.join(dir, 'files', ...key.split('/')));
    }
    log(`files: ${Object.keys(manifest.files).length}`);
  } else {
    log('files: kept in the object store (STORAGE_URL), not copied');
  }
  // The manifest last: a directory without one is an unfinished backup.
  await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

async function insertRows(tx: DbExecutor, table: string, file: string): Promise<number> {
  const lines = (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
  for (let i = 0; i < lines.length; i += PAGE_ROWS) {
    const batch = `[${lines.slice(i, i + PAGE_ROWS).join(',')}]`;
    await tx.query(
      `INSERT INTO ${quoteIdent(table)} SELECT * FROM json_populate_recordset(NULL::${quoteIdent(table)}, $1::json)`,
      [batch],
    );
  }
  return lines.length;
}

/** Restores the backup in `dir` into the configured instance, whose database and storage must be empty. */
/** Moves each serial column's sequence past the restored rows, so the next insert gets a fresh id. */
async function resetSequences(tx: DbExecutor): Promise<void> {
  const { rows } = await tx.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'",
  );
  for (const { table_name: table, column_name: column } of rows) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${quoteIdent(column)}) FROM ${quoteIdent(table)}), 0) + 1, false)`,
      [quoteIdent(table), column],
    );
  }
}

export async function restoreInstance(config: Config, dir: string, log: (line: string) => void = () => undefined) {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) {
    throw new BackupError(`${dir} holds no finished backup (no manifest.json)`);
  }
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== FORMAT) throw new BackupError(`${dir} is not a backup this version can read`);
  assertEmbeddedStopped(config);
  if (manifest.files !== null && config.s3 === undefined && !(await isEmptyDir(config.storageDir))) {
    throw new BackupError(`The storage directory ${config.storageDir} is not empty: restore into a new instance`);
  }
  const db: Db = await openDatabase(config);
  try {
    await migrate(db);
    await db.transaction(async (tx) => {
      const applied = await appliedMigrations(tx);
      const unknown = manifest.migrations.filter((id) => !applied.includes(id));
      if (unknown.length > 0) {
        throw new BackupError(
          `The backup was made by a newer version (migrations ${unknown.join(', ')}); update first`,
        );
      }
      const tables = await tablesInOrder(tx);
      for (const table of tables) {
        const { rows: any } = await tx.query(`SELECT 1 FROM ${quoteIdent(table)} LIMIT 1`);
        if (any.length > 0)
          throw new BackupError(`The database already holds data (${table}): restore into an empty one`);
      }
      for (const table of tables) {
        const file = path.join(dir, 'database', `${table}.jsonl`);
        if (!existsSync(file)) continue; // a table added after the backup was made
        const count = await insertRows(tx, table, file);
        if (count !== manifest.tables[table]) {
          throw new BackupError(`${table}.jsonl holds ${count} rows, the manifest says ${manifest.tables[table]}`);
        }
        log(`${table}: ${count} rows`);
      }
      // Rows came with their ids: a serial column's sequence continues after the highest one.
      await resetSequences(tx);
    });
    // The workers that held them are gone: the restored server resumes every unfinished job.
    await createJobRepository(db).clearAllLeases();
  } finally {
    await db.close();
  }
  if (manifest.files !== null && config.s3 === undefined) {
    for (const [key, expected] of Object.entries(manifest.files)) {
      const copied = await copyChecked(
        path.join(dir, 'files', ...key.split('/')),
        path.join(config.storageDir, ...key.split('/')),
      );
      if (copied.sha256 !== expected.sha256) throw new BackupError(`The backup's copy of ${key} is damaged (checksum)`);
    }
    log(`files: ${Object.keys(manifest.files).length}`);
  }
  return manifest;
}
