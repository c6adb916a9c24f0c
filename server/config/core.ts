import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, integer, list, oneOf, originOf, section, text, textOr } from './declare';

/**
 * The repository root: this file lives in <root>/server/config, and its compiled form in a module
 * of <root>/dist-server (scripts/build-server.mjs).
 */
const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  import.meta.url.endsWith('.ts') ? '../..' : '..',
);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type AppEnv = 'dev' | 'production';

/** The process: where it listens, where its data lives, which database, who may call it. */
export const coreSection = section({
  title: 'The server',
  variables: {
    port: integer('PORT', { min: 1, max: 65535, default: 8080 }, 'TCP port the server listens on (1-65535).'),
    host: textOr(
      'HOST',
      { default: 'localhost' },
      'Interface to bind; set 0.0.0.0 to accept connections from other machines.',
    ),
    dataDir: text(
      'DATA_DIR',
      { shown: './data' },
      'Directory for the embedded database (DATA_DIR/db), the generated JWT secret and stored files.',
    ),
    databaseUrl: text(
      'DATABASE_URL',
      {
        check: (url) =>
          /^postgres(ql)?:\/\/./.test(url)
            ? undefined
            : `DATABASE_URL must be a postgres:// or postgresql:// URL (got one starting with ${JSON.stringify(url.split(':')[0] + ':')})`,
      },
      'postgres:// URL of a real PostgreSQL server; when unset the embedded PGlite database in DATA_DIR/db is used.',
    ),
    databasePoolSize: integer(
      'DATABASE_POOL_SIZE',
      { min: 1, max: 500, default: 20 },
      "Connections one process opens to DATABASE_URL at most for its requests and jobs (1-500); a request waits for a free one, and gets 503 after 5 s. The job queue keeps 4 more of its own. Every process's connections count against the server's max_connections (PostgreSQL's default is 100): see docs/deploy.md#sizing.",
    ),
    appEnv: oneOf(
      'APP_ENV',
      ['dev', 'production'] as const,
      { default: 'dev' },
      "'dev' or 'production'. Production turns off debug mode and, unless SIGNUP_ENABLED says otherwise, sign-up.",
    ),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, { default: 'info' }, 'fatal, error, warn, info, debug, trace or silent.'),
    staticDir: text(
      'STATIC_DIR',
      { shown: '<repo>/dist when it exists' },
      'Directory of the built SPA to serve; unset and no dist/ means API only.',
    ),
    publicUrl: text(
      'PUBLIC_URL',
      {
        shown: "(the request's own)",
        check: (url) =>
          originOf(url) === null
            ? `PUBLIC_URL must be an http:// or https:// address with no path, query or fragment (got ${JSON.stringify(url)})`
            : undefined,
        transform: (url: string) => originOf(url)!,
      },
      'The address browsers reach this server at, e.g. https://listen.example.org (http or https, no path). Streaming and websocket URLs in answers are built from it; when unset, from the scheme and Host of each request.',
    ),
    corsOrigins: list(
      'CORS_ORIGINS',
      {
        shown: '(none: same origin only)',
        bad: (origin) => origin !== '*' && originOf(origin) !== origin.replace(/\/$/, ''),
        problem: (bad) =>
          `CORS_ORIGINS must list exact origins such as https://app.example.org, separated by commas, or '*' (not valid: ${bad})`,
      },
      "Comma-separated exact origins (e.g. https://app.example.org) whose pages may call the API and open the voice websocket from another origin. '*' allows any origin and is refused when APP_ENV=production.",
    ),
    shutdownGraceSeconds: integer(
      'SHUTDOWN_GRACE_SECONDS',
      { min: 1, max: 300, default: 10 },
      'On SIGTERM/SIGINT, how long (1-300 s) in-flight requests and running steps get to finish; running jobs are then handed back to the queue for another worker and the process exits.',
    ),
  },
  rawOnly: ['dataDir', 'staticDir', 'corsOrigins'],
  derive: (vars) => {
    if (vars.appEnv === 'production' && vars.corsOrigins.includes('*')) {
      throw new ConfigError(
        "CORS_ORIGINS may not be '*' when APP_ENV=production: list the origins of the sites that use this API",
      );
    }
    return {
      dataDir: dataDirOf(vars.dataDir),
      staticDir: staticDirOf(vars.staticDir),
      corsOrigins: vars.corsOrigins.map((origin) => (origin === '*' ? origin : originOf(origin)!)),
    };
  },
});

/** DATA_DIR as an absolute path (./data by default). */
export function dataDirOf(raw: string | undefined): string {
  return path.resolve(raw ?? './data');
}

/** The built SPA to serve: STATIC_DIR, else the repository's dist/ when it was built; undefined = API only. */
function staticDirOf(raw: string | undefined): string | undefined {
  const builtIn = path.join(repoRoot, 'dist');
  const dir = raw ? path.resolve(raw) : existsSync(path.join(builtIn, 'index.html')) ? builtIn : undefined;
  if (dir !== undefined && !existsSync(path.join(dir, 'index.html'))) {
    throw new ConfigError(`STATIC_DIR must be a directory containing index.html (got ${JSON.stringify(raw)})`);
  }
  return dir;
}
