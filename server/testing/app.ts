import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createApp, type AppDeps } from '../app';
import { createPasswordChecker, type PasswordChecker } from '../auth/password-check';
import { loadConfig, type Config } from '../config';
import { migrate } from '../db/migrate';
import { migrations } from '../db/migrations/index';
import { installedPgliteVersion, openPglite } from '../db/pglite';
import type { Db } from '../db/types';

/** A cheap scrypt cost so tests do not spend 0.3 s per hash. Never used outside tests. */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 } as const;

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

/** A Config as loadConfig builds it from `env`, with a fixed JWT secret, a temp DATA_DIR, no SPA and no logs. */
export function testConfig(env: Record<string, string> = {}): Config {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lectio-test-')),
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    STATIC_DIR: '',
    // Every injected request comes from 127.0.0.1, and suites register and sign in many accounts;
    // the tests of these limits set them explicitly.
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    SIGNUP_RATE_LIMIT_PER_HOUR: '100000',
    ...env,
  });
  // loadConfig picks <repo>/dist when it exists; tests ask for a static dir explicitly.
  if (env.STATIC_DIR === undefined) delete config.staticDir;
  return config;
}

/**
 * One password-strength checker for every test app of this process: its thread (the estimator's
 * dictionaries, half a second of CPU to start from source) starts once, not with each app's first
 * sign-up. It ends after a minute without a check, and never holds the process open.
 */
const sharedPasswordChecker: PasswordChecker = createPasswordChecker({ idleMs: 60_000 });

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Closes the app, and gives its in-memory database back emptied (unless it was given one). */
  close(): Promise<void>;
}

/**
 * Databases of closed test apps, emptied, for the next test app of this process: opening one costs
 * a test app about 0.9 s of CPU, emptying it a few milliseconds. At most one is kept.
 */
const spareDatabases: Db[] = [];

/** A migrated, empty in-memory database: a spare one, else a new one. */
async function takeDatabase(): Promise<Db> {
  return spareDatabases.pop() ?? (await openMigratedPglite());
}

/**
 * Gives a closed app's database back as the next app would find a new one: every table empty but
 * schema_migrations, and no queue (pg-boss installs its schema again as the app starts, with that
 * app's settings). One that cannot be emptied (closed by its test, say) is closed instead.
 */
async function giveBack(db: Db): Promise<void> {
  if (spareDatabases.length === 0) {
    try {
      await db.exec('DROP SCHEMA IF EXISTS pgboss CASCADE');
      await truncateAll(db);
      spareDatabases.push(db);
      return;
    } catch {
      // closed instead
    }
  }
  await db.close().catch(() => undefined);
}

/**
 * An app for app.inject() tests and Pact provider states. Without `db` it gets an empty in-memory
 * PGlite database that close() gives back for the next test app (emptied); pass a `db` to share
 * one between apps with different settings (close() then leaves it open).
 */
export async function createTestApp(options: { env?: Record<string, string> } & AppDeps = {}): Promise<TestApp> {
  const { env, db: given, ...deps } = options;
  const config = testConfig(env);
  const db = given ?? (await takeDatabase());
  const app = await createApp(config, {
    passwordCost: TEST_PASSWORD_COST,
    passwordChecker: sharedPasswordChecker,
    ...deps,
    db,
  });
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      if (given === undefined) await giveBack(db);
    },
  };
}

/**
 * Where the tests keep a database with every migration applied, for this PGlite and these
 * migrations (their hash names the file): git-ignored, outside the work tree's sources, shared by
 * every test file and run until a migration or PGlite changes.
 */
function migratedTemplateFile(): string {
  const hash = createHash('sha256')
    .update(installedPgliteVersion())
    .update(JSON.stringify(migrations.map((m) => [m.id, m.sql])))
    .digest('hex')
    .slice(0, 16);
  const cache = fileURLToPath(new URL('../../node_modules/.cache/lectio-test-db/', import.meta.url));
  return path.join(cache, `migrated-${hash}.tar.gz`);
}

/**
 * A new in-memory database with every migration applied: loaded from the migrated template (the
 * app's own migrate() then finds nothing to do), or, the first time, migrated here and written out
 * as that template. Opening a database and migrating it cost a test app about 2 to 3 s of CPU.
 */
async function openMigratedPglite(): Promise<Db> {
  const file = migratedTemplateFile();
  if (existsSync(file)) return openPglite(undefined, { template: file });
  const db = await openPglite();
  await migrate(db);
  const bytes = Buffer.from(await (await db.dumpDataDir()).arrayBuffer());
  mkdirSync(path.dirname(file), { recursive: true });
  // Written beside and renamed: a test file running at the same time reads a whole template or none.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(file.replace(/\.tar\.gz$/, '.json'), `${JSON.stringify({ pglite: installedPgliteVersion() })}\n`);
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return db;
}

/** Empties every table but schema_migrations, so one database can serve many independent tests. */
export async function truncateAll(db: Db): Promise<void> {
  const { rows } = await db.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'",
  );
  if (rows.length === 0) return;
  await db.exec(`TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(', ')} CASCADE`);
}

/** A clock tests can move forward, for token expiry, signed-URL expiry and throttling windows. */
export function manualClock(start = new Date('2030-01-01T12:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(seconds: number) {
      current += seconds * 1000;
    },
  };
}
