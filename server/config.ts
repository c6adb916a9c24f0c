import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

/** The repository root (this file lives in <root>/server). */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type AppEnv = 'dev' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  /** Holds the embedded database (dataDir/db), the generated JWT secret and, later, stored files. */
  dataDir: string;
  /** When set, a real Postgres is used instead of the embedded PGlite database. */
  databaseUrl?: string;
  appEnv: AppEnv;
  signupEnabled: boolean;
  /** HS256 signing key for access tokens. */
  jwtSecret: Uint8Array;
  tokenTtlSeconds: number;
  loginMaxAttempts: number;
  loginWindowSeconds: number;
  logLevel: LogLevel;
  /** The built SPA (served with a client-side route fallback); undefined = API only. */
  staticDir?: string;
  openaiApiKey?: string;
  elevenlabsApiKey?: string;
  /** Conversion engine (server/jobs): see the matching entries of CONFIG_VARIABLES. */
  workers: 'in-process' | 'none';
  workerConcurrency: number;
  chapterConcurrency: number;
  jobStepTimeoutSeconds: number;
  /** Seconds a worker's claim on a job lasts without renewal. */
  jobLeaseSeconds: number;
  /** Root of stored files (uploads, sources, audio); default DATA_DIR/files. */
  storageDir: string;
  /** TESTS ONLY: lets web-page jobs fetch loopback addresses (127.0.0.0/8, ::1). */
  allowPrivateFetchForTests: boolean;
  openaiBaseUrl?: string;
  elevenlabsBaseUrl?: string;
  /** MP3 encoder worker threads; 0 encodes on the main thread. */
  encoderThreads: number;
  /** 'auto': a native `lame` on PATH when there is one, else LAME WebAssembly. */
  mp3Encoder: 'auto' | 'native' | 'wasm';
  /** Lifetime of a signed media (audio) URL in seconds. */
  mediaUrlTtlSeconds: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Every environment variable the server reads, for the README and `--help`-style output. */
export const CONFIG_VARIABLES = [
  { name: 'PORT', default: '8080', description: 'TCP port the server listens on (1-65535).' },
  { name: 'HOST', default: 'localhost', description: "Interface to bind; set 0.0.0.0 to accept connections from other machines." },
  { name: 'DATA_DIR', default: './data', description: 'Directory for the embedded database (DATA_DIR/db), the generated JWT secret and stored files.' },
  { name: 'DATABASE_URL', default: '(unset)', description: 'postgres:// URL of a real PostgreSQL server; when unset the embedded PGlite database in DATA_DIR/db is used.' },
  { name: 'APP_ENV', default: 'dev', description: "'dev' or 'production'. Production turns off debug mode and, unless SIGNUP_ENABLED says otherwise, sign-up." },
  { name: 'SIGNUP_ENABLED', default: '(true outside production)', description: "'true' or 'false': whether new accounts can register." },
  { name: 'JWT_SECRET', default: '(generated)', description: 'Secret (at least 32 characters) that signs access tokens. When unset, 48 random bytes are generated once and kept in DATA_DIR/jwt-secret (mode 0600).' },
  { name: 'TOKEN_TTL_SECONDS', default: '28800', description: 'Lifetime of an access token in seconds (60-604800; default 8 hours).' },
  { name: 'LOGIN_MAX_ATTEMPTS', default: '5', description: 'Failed sign-ins allowed per email within the window before further attempts get 429 (a client IP may fail 4 times as often, across emails).' },
  { name: 'LOGIN_WINDOW_SECONDS', default: '900', description: 'Length of the sign-in throttling window in seconds.' },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent.' },
  { name: 'STATIC_DIR', default: '<repo>/dist when it exists', description: 'Directory of the built SPA to serve; unset and no dist/ means API only.' },
  { name: 'OPENAI_API_KEY', default: '(unset)', description: 'OpenAI key for cloud voices. Without it (and without ELEVENLABS_API_KEY) the server runs in demo mode.' },
  { name: 'ELEVENLABS_API_KEY', default: '(unset)', description: 'ElevenLabs key for cloud voices.' },
  { name: 'OPENAI_BASE_URL', default: '(OpenAI)', description: 'Base URL of an OpenAI-compatible speech API (for a proxy or a local server).' },
  { name: 'ELEVENLABS_BASE_URL', default: '(ElevenLabs)', description: 'Base URL of the ElevenLabs API (for a proxy).' },
  { name: 'WORKERS', default: 'in-process', description: "'in-process': this server also converts jobs. 'none': it only queues them, for separate `npm run worker` processes (which need DATABASE_URL: the embedded database has one owner)." },
  { name: 'WORKER_CONCURRENCY', default: '2', description: 'Jobs (or chapters) one process converts at once (1-32).' },
  { name: 'CHAPTER_CONCURRENCY', default: '2', description: 'Chapters of one book converted at the same time (1-32).' },
  { name: 'JOB_LEASE_SECONDS', default: '60', description: "How long a worker's claim on a job lasts without renewal (3-3600). Workers renew it every third of that; when a worker dies, another takes its job over once the claim lapses." },
  { name: 'JOB_STEP_TIMEOUT_SECONDS', default: '1800', description: "Longest a conversion step may run (30-86400). A worker stops a step at this limit; the queue hands a dead worker's job to another worker after it." },
  { name: 'STORAGE_DIR', default: 'DATA_DIR/files', description: 'Directory for uploaded files, job sources and generated audio.' },
  { name: 'ENCODER_THREADS', default: '(CPU count - 1, at least 1)', description: 'Worker threads that encode MP3 (0-64); 0 encodes on the main thread. The default leaves one core to the main thread, which synthesises the offline voice and answers the API; each thread costs about 25 MB.' },
  { name: 'MP3_ENCODER', default: 'auto', description: "'auto': a native `lame` binary on PATH encodes MP3 (a process per stream, about 2.5x faster than WebAssembly) when there is one, else LAME WebAssembly in the ENCODER_THREADS worker threads. 'native' requires the binary; 'wasm' never uses it." },
  { name: 'ALLOW_PRIVATE_FETCH_FOR_TESTS', default: 'false', description: "TESTS ONLY. 'true' lets web-page jobs fetch loopback addresses (127.0.0.1, ::1). Never set it on a server: it weakens the protection against requests to internal networks." },
  { name: 'MEDIA_URL_TTL_SECONDS', default: '3600', description: 'How long a signed audio streaming URL stays valid, in seconds (60-86400).' },
] as const satisfies readonly { name: string; default: string; description: string }[];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An optional integer variable with bounds, and a message that says what is allowed. */
function intVar(name: string, min: number, max: number, fallback: number) {
  const allowed = `${name} must be an integer from ${min} to ${max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback;
      const value = Number(raw.trim());
      if (!/^-?\d+$/.test(raw.trim()) || value < min || value > max) {
        ctx.addIssue({ code: 'custom', message: `${allowed} (got ${JSON.stringify(raw)})` });
        return z.NEVER;
      }
      return value;
    });
}

function enumVar<const T extends readonly string[]>(name: string, values: T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T[number] | undefined => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const value = raw.trim().toLowerCase();
      if (!values.includes(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be one of ${values.map((v) => `'${v}'`).join(', ')} (got ${JSON.stringify(raw)})`,
        });
        return z.NEVER;
      }
      return value as T[number];
    });
}

const optionalString = z
  .string()
  .optional()
  .transform((raw) => (raw === undefined || raw.trim() === '' ? undefined : raw.trim()));

/** An optional string that must pass a check; the message never needs to echo secrets. */
function checkedString(isValid: (value: string) => boolean, describe: (value: string) => string) {
  return optionalString.transform((value, ctx) => {
    if (value === undefined || isValid(value)) return value;
    ctx.addIssue({ code: 'custom', message: describe(value) });
    return z.NEVER;
  });
}

const envSchema = z.object({
  PORT: intVar('PORT', 1, 65535, 8080),
  HOST: optionalString,
  DATA_DIR: optionalString,
  DATABASE_URL: checkedString(
    (url) => /^postgres(ql)?:\/\/./.test(url),
    (url) => `DATABASE_URL must be a postgres:// or postgresql:// URL (got one starting with ${JSON.stringify(url.split(":")[0] + ":")})`,
  ),
  APP_ENV: enumVar('APP_ENV', ['dev', 'production'] as const),
  SIGNUP_ENABLED: enumVar('SIGNUP_ENABLED', ['true', 'false'] as const),
  JWT_SECRET: checkedString(
    (secret) => secret.length >= 32,
    (secret) => `JWT_SECRET must be at least 32 characters (got ${secret.length}); unset it to have one generated`,
  ),
  TOKEN_TTL_SECONDS: intVar('TOKEN_TTL_SECONDS', 60, 604_800, 28_800),
  LOGIN_MAX_ATTEMPTS: intVar('LOGIN_MAX_ATTEMPTS', 1, 1000, 5),
  LOGIN_WINDOW_SECONDS: intVar('LOGIN_WINDOW_SECONDS', 1, 86_400, 900),
  LOG_LEVEL: enumVar('LOG_LEVEL', LOG_LEVELS),
  STATIC_DIR: optionalString,
  OPENAI_API_KEY: optionalString,
  ELEVENLABS_API_KEY: optionalString,
  OPENAI_BASE_URL: checkedString((url) => /^https?:\/\/./.test(url), () => 'OPENAI_BASE_URL must be an http:// or https:// URL'),
  ELEVENLABS_BASE_URL: checkedString((url) => /^https?:\/\/./.test(url), () => 'ELEVENLABS_BASE_URL must be an http:// or https:// URL'),
  WORKERS: enumVar('WORKERS', ['in-process', 'none'] as const),
  WORKER_CONCURRENCY: intVar('WORKER_CONCURRENCY', 1, 32, 2),
  CHAPTER_CONCURRENCY: intVar('CHAPTER_CONCURRENCY', 1, 32, 2),
  JOB_STEP_TIMEOUT_SECONDS: intVar('JOB_STEP_TIMEOUT_SECONDS', 30, 86_400, 1800),
  JOB_LEASE_SECONDS: intVar('JOB_LEASE_SECONDS', 3, 3600, 60),
  STORAGE_DIR: optionalString,
  ENCODER_THREADS: intVar('ENCODER_THREADS', 0, 64, Math.max(1, os.availableParallelism() - 1)),
  MP3_ENCODER: enumVar('MP3_ENCODER', ['auto', 'native', 'wasm'] as const),
  ALLOW_PRIVATE_FETCH_FOR_TESTS: enumVar('ALLOW_PRIVATE_FETCH_FOR_TESTS', ['true', 'false'] as const),
  MEDIA_URL_TTL_SECONDS: intVar('MEDIA_URL_TTL_SECONDS', 60, 86_400, 3600),
});

/**
 * Reads and validates the environment. Throws ConfigError naming the variable, the bad value
 * and what is allowed. Side effect: without JWT_SECRET, creates DATA_DIR/jwt-secret once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  }
  const vars = parsed.data;
  const appEnv: AppEnv = vars.APP_ENV ?? 'dev';
  const dataDir = path.resolve(vars.DATA_DIR ?? './data');
  const defaultStatic = path.join(repoRoot, 'dist');
  const staticDir = vars.STATIC_DIR
    ? path.resolve(vars.STATIC_DIR)
    : existsSync(path.join(defaultStatic, 'index.html'))
      ? defaultStatic
      : undefined;
  if (staticDir !== undefined && !existsSync(path.join(staticDir, 'index.html'))) {
    throw new ConfigError(`STATIC_DIR must be a directory containing index.html (got ${JSON.stringify(vars.STATIC_DIR)})`);
  }

  return {
    port: vars.PORT,
    host: vars.HOST ?? 'localhost',
    dataDir,
    ...(vars.DATABASE_URL !== undefined && { databaseUrl: vars.DATABASE_URL }),
    appEnv,
    signupEnabled: vars.SIGNUP_ENABLED !== undefined ? vars.SIGNUP_ENABLED === 'true' : appEnv !== 'production',
    jwtSecret:
      vars.JWT_SECRET !== undefined ? new TextEncoder().encode(vars.JWT_SECRET) : loadOrCreateJwtSecret(dataDir),
    tokenTtlSeconds: vars.TOKEN_TTL_SECONDS,
    loginMaxAttempts: vars.LOGIN_MAX_ATTEMPTS,
    loginWindowSeconds: vars.LOGIN_WINDOW_SECONDS,
    logLevel: vars.LOG_LEVEL ?? 'info',
    ...(staticDir !== undefined && { staticDir }),
    ...(vars.OPENAI_API_KEY !== undefined && { openaiApiKey: vars.OPENAI_API_KEY }),
    ...(vars.ELEVENLABS_API_KEY !== undefined && { elevenlabsApiKey: vars.ELEVENLABS_API_KEY }),
    ...(vars.OPENAI_BASE_URL !== undefined && { openaiBaseUrl: vars.OPENAI_BASE_URL }),
    ...(vars.ELEVENLABS_BASE_URL !== undefined && { elevenlabsBaseUrl: vars.ELEVENLABS_BASE_URL }),
    workers: vars.WORKERS ?? 'in-process',
    workerConcurrency: vars.WORKER_CONCURRENCY,
    chapterConcurrency: vars.CHAPTER_CONCURRENCY,
    jobStepTimeoutSeconds: vars.JOB_STEP_TIMEOUT_SECONDS,
    jobLeaseSeconds: vars.JOB_LEASE_SECONDS,
    storageDir: vars.STORAGE_DIR !== undefined ? path.resolve(vars.STORAGE_DIR) : path.join(dataDir, 'files'),
    allowPrivateFetchForTests: vars.ALLOW_PRIVATE_FETCH_FOR_TESTS === 'true',
    encoderThreads: vars.ENCODER_THREADS,
    mp3Encoder: vars.MP3_ENCODER ?? 'auto',
    mediaUrlTtlSeconds: vars.MEDIA_URL_TTL_SECONDS,
  };
}

/** Path of the generated signing key inside the data directory. */
export function jwtSecretPath(dataDir: string): string {
  return path.join(dataDir, 'jwt-secret');
}

/** Generates 48 random bytes on first start and reuses them afterwards, so tokens survive restarts. */
function loadOrCreateJwtSecret(dataDir: string): Uint8Array {
  const file = jwtSecretPath(dataDir);
  try {
    if (existsSync(file)) {
      const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
      if (secret.length < 32) {
        throw new ConfigError(`${file} must hold at least 32 bytes of base64url text; delete it to generate a new one`);
      }
      return new Uint8Array(secret);
    }
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48);
    writeFileSync(file, `${secret.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return new Uint8Array(secret);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      `JWT_SECRET is unset and ${file} could not be read or created (${(error as Error).message}); set JWT_SECRET or make DATA_DIR writable`,
    );
  }
}
