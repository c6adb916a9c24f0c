import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
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
  /** Password hashes computed at once, and how many more may wait; past that sign-ins get 429. */
  passwordHashConcurrency: number;
  passwordHashQueue: number;
  /** Requests per minute one client address may send to the sign-in and sign-up routes. */
  authRateLimitPerMinute: number;
  /** Accounts one client address may create per hour. */
  signupRateLimitPerHour: number;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDRs); empty = the socket's peer is the client. */
  trustProxy: string[];
  /** HTTP timeouts in seconds: complete headers, complete request (with body), and silence on a connection. */
  httpHeadersTimeoutSeconds: number;
  httpRequestTimeoutSeconds: number;
  httpIdleTimeoutSeconds: number;
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
  /** The origin browsers reach this server at (no trailing slash); undefined = the request's own. */
  publicUrl?: string;
  /** Other origins whose pages may call the API and open the voice websocket ('*' = any, not in production). */
  corsOrigins: string[];
  /** How long a stopping process waits for in-flight requests and running steps before it hands over and exits. */
  shutdownGraceSeconds: number;
  /** Bearer token that unlocks GET /metrics; unset (and metricsPublic false) keeps it off. */
  metricsToken?: string;
  /** GET /metrics without a token (for a scraper on a private network). */
  metricsPublic: boolean;
  /** A worker's port for /healthz, /readyz and /metrics (the API uses PORT). */
  opsPort?: number;
  /** Object storage instead of STORAGE_DIR: `s3://bucket/prefix` and how to reach the store. */
  s3?: {
    bucket: string;
    prefix: string;
    endpoint?: string;
    region?: string;
    forcePathStyle: boolean;
    presign: boolean;
  };
  /** Per-user limits (server/jobs/quotas.ts). */
  quotaStorageBytes: number;
  quotaActiveJobs: number;
  quotaUploadsPerHour: number;
  /** Web-page downloads one process runs at once, and how long one may take. */
  urlFetchConcurrency: number;
  urlFetchTimeoutSeconds: number;
  /** Keep job-list pages until their owner's jobs change (needs LISTEN/NOTIFY). */
  jobListCache: boolean;
  /** An OpenAI-compatible chat model that answers in the voice assistant (offline brain when unset or failing). */
  assistantModel?: { url: string; model: string; key?: string; timeoutSeconds: number };
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
  {
    name: 'HOST',
    default: 'localhost',
    description: 'Interface to bind; set 0.0.0.0 to accept connections from other machines.',
  },
  {
    name: 'DATA_DIR',
    default: './data',
    description: 'Directory for the embedded database (DATA_DIR/db), the generated JWT secret and stored files.',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset)',
    description:
      'postgres:// URL of a real PostgreSQL server; when unset the embedded PGlite database in DATA_DIR/db is used.',
  },
  {
    name: 'APP_ENV',
    default: 'dev',
    description:
      "'dev' or 'production'. Production turns off debug mode and, unless SIGNUP_ENABLED says otherwise, sign-up.",
  },
  {
    name: 'SIGNUP_ENABLED',
    default: '(true outside production)',
    description: "'true' or 'false': whether new accounts can register.",
  },
  {
    name: 'JWT_SECRET',
    default: '(generated)',
    description:
      'Secret (at least 32 characters) that signs access tokens. When unset, 48 random bytes are generated once and kept in DATA_DIR/jwt-secret (mode 0600).',
  },
  {
    name: 'TOKEN_TTL_SECONDS',
    default: '28800',
    description: 'Lifetime of an access token in seconds (60-604800; default 8 hours).',
  },
  {
    name: 'LOGIN_MAX_ATTEMPTS',
    default: '5',
    description:
      'Sign-in attempts that may fail for one email from one client address within the window; the next attempt from that address gets 429. A client address may fail 4 times as often across emails. An account that fails twice this often, from any addresses, answers only after a delay that doubles with each further failure (1 s up to 60 s), so guessing from many addresses slows down without locking the owner out.',
  },
  { name: 'LOGIN_WINDOW_SECONDS', default: '900', description: 'Length of the sign-in throttling window in seconds.' },
  {
    name: 'PASSWORD_HASH_CONCURRENCY',
    default: '2',
    description:
      'Password hashes (sign-in, sign-up) computed at the same time (1-32). Each takes about 0.3 s of one core and 32 MB.',
  },
  {
    name: 'PASSWORD_HASH_QUEUE',
    default: '8',
    description:
      'Sign-ins and sign-ups that may wait for a hashing slot (0-1000); further ones get 429 with Retry-After. One client address holds at most 2 places.',
  },
  {
    name: 'AUTH_RATE_LIMIT_PER_MINUTE',
    default: '30',
    description:
      'Requests per minute one client address may send to the sign-in and the sign-up route each (1-100000); more get 429 with Retry-After.',
  },
  {
    name: 'SIGNUP_RATE_LIMIT_PER_HOUR',
    default: '10',
    description: 'Sign-up requests per hour one client address may send (1-100000).',
  },
  {
    name: 'TRUST_PROXY',
    default: '(off)',
    description:
      "Comma-separated addresses or CIDRs of reverse proxies (e.g. '127.0.0.1,10.0.0.0/8'). Requests from them are attributed to the client address in X-Forwarded-For, so throttles and rate limits apply per real client; anyone else's X-Forwarded-For is ignored.",
  },
  {
    name: 'HTTP_HEADERS_TIMEOUT_SECONDS',
    default: '20',
    description:
      'A client must send its complete request headers within this many seconds (1-600, at most HTTP_REQUEST_TIMEOUT_SECONDS).',
  },
  {
    name: 'HTTP_REQUEST_TIMEOUT_SECONDS',
    default: '120',
    description:
      'A client must send its whole request, body included, within this many seconds (1-3600); slower ones get 408 and are disconnected. Bounds slow uploads.',
  },
  {
    name: 'HTTP_IDLE_TIMEOUT_SECONDS',
    default: '20',
    description:
      'A connection on which nothing is sent or received for this many seconds is closed (1-3600): a stalled request body, or an idle keep-alive connection. Websockets are not affected.',
  },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent.' },
  {
    name: 'STATIC_DIR',
    default: '<repo>/dist when it exists',
    description: 'Directory of the built SPA to serve; unset and no dist/ means API only.',
  },
  {
    name: 'OPENAI_API_KEY',
    default: '(unset)',
    description:
      'OpenAI key for cloud voices. Without it (and without ELEVENLABS_API_KEY) the server runs in demo mode.',
  },
  { name: 'ELEVENLABS_API_KEY', default: '(unset)', description: 'ElevenLabs key for cloud voices.' },
  {
    name: 'OPENAI_BASE_URL',
    default: '(OpenAI)',
    description: 'Base URL of an OpenAI-compatible speech API (for a proxy or a local server).',
  },
  {
    name: 'ELEVENLABS_BASE_URL',
    default: '(ElevenLabs)',
    description: 'Base URL of the ElevenLabs API (for a proxy).',
  },
  {
    name: 'WORKERS',
    default: 'in-process',
    description:
      "'in-process': this server also converts jobs. 'none': it only queues them, for separate `npm run worker` processes (which need DATABASE_URL: the embedded database has one owner).",
  },
  { name: 'WORKER_CONCURRENCY', default: '2', description: 'Jobs (or chapters) one process converts at once (1-32).' },
  { name: 'CHAPTER_CONCURRENCY', default: '2', description: 'Chapters of one book converted at the same time (1-32).' },
  {
    name: 'JOB_LEASE_SECONDS',
    default: '60',
    description:
      "How long a worker's claim on a job lasts without renewal (3-3600). Workers renew it every third of that; when a worker dies, another takes its job over once the claim lapses.",
  },
  {
    name: 'JOB_STEP_TIMEOUT_SECONDS',
    default: '1800',
    description:
      "Longest a conversion step may run (30-86400). A worker stops a step at this limit; the queue hands a dead worker's job to another worker after it.",
  },
  {
    name: 'STORAGE_DIR',
    default: 'DATA_DIR/files',
    description: 'Directory for uploaded files, job sources and generated audio (when STORAGE_URL is unset).',
  },
  {
    name: 'STORAGE_URL',
    default: '(unset: STORAGE_DIR)',
    description:
      "s3://bucket/prefix: keep files in an S3-compatible object store (AWS S3, MinIO, R2, Garage) instead of STORAGE_DIR. Credentials come from the AWS SDK's standard chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, instance or task roles).",
  },
  {
    name: 'S3_ENDPOINT',
    default: '(AWS S3)',
    description: 'http(s) URL of an S3-compatible store (MinIO, R2, Garage); unset for AWS S3.',
  },
  {
    name: 'S3_REGION',
    default: '(SDK default, else us-east-1)',
    description: "The store's region (AWS_REGION also works; R2 uses 'auto').",
  },
  {
    name: 'S3_FORCE_PATH_STYLE',
    default: 'false',
    description:
      "'true' addresses objects as endpoint/bucket/key (MinIO and most self-hosted stores) instead of bucket.endpoint/key.",
  },
  {
    name: 'S3_PRESIGN',
    default: 'false',
    description:
      "'true' redirects signed media links to the store's presigned GET URLs (players then fetch, with Range, from the store directly, until the link's own expiry); 'false' streams the bytes through this server with Range passthrough.",
  },
  {
    name: 'ENCODER_THREADS',
    default: '(CPU count - 1, at least 1)',
    description:
      'Worker threads that encode MP3 (0-64); 0 encodes on the main thread. The default leaves one core to the main thread, which synthesises the offline voice and answers the API; each thread costs about 25 MB.',
  },
  {
    name: 'MP3_ENCODER',
    default: 'auto',
    description:
      "'auto': a native `lame` binary on PATH encodes MP3 (a process per stream, about 2.5x faster than WebAssembly) when there is one, else LAME WebAssembly in the ENCODER_THREADS worker threads. 'native' requires the binary; 'wasm' never uses it.",
  },
  {
    name: 'ALLOW_PRIVATE_FETCH_FOR_TESTS',
    default: 'false',
    description:
      "TESTS ONLY. 'true' lets web-page jobs fetch loopback addresses (127.0.0.1, ::1). Never set it on a server: it weakens the protection against requests to internal networks.",
  },
  {
    name: 'MEDIA_URL_TTL_SECONDS',
    default: '3600',
    description: 'How long a signed audio streaming URL stays valid, in seconds (60-86400).',
  },
  {
    name: 'PUBLIC_URL',
    default: "(the request's own)",
    description:
      'The address browsers reach this server at, e.g. https://listen.example.org (http or https, no path). Streaming and websocket URLs in answers are built from it; when unset, from the scheme and Host of each request.',
  },
  {
    name: 'CORS_ORIGINS',
    default: '(none: same origin only)',
    description:
      "Comma-separated exact origins (e.g. https://app.example.org) whose pages may call the API and open the voice websocket from another origin. '*' allows any origin and is refused when APP_ENV=production.",
  },
  {
    name: 'SHUTDOWN_GRACE_SECONDS',
    default: '10',
    description:
      'On SIGTERM/SIGINT, how long (1-300 s) in-flight requests and running steps get to finish; running jobs are then handed back to the queue for another worker and the process exits.',
  },
  {
    name: 'METRICS_TOKEN',
    default: '(unset)',
    description:
      'Bearer token (at least 16 characters) that GET /metrics requires. Without it (and without METRICS_PUBLIC=true) /metrics answers 404.',
  },
  {
    name: 'METRICS_PUBLIC',
    default: 'false',
    description: "'true' serves GET /metrics without a token (only for a scraper on a private network).",
  },
  {
    name: 'OPS_PORT',
    default: '(unset)',
    description:
      'Workers only: the port on which `npm run worker` serves /healthz, /readyz and /metrics (0-65535, 0 picks a free one; bound to HOST). Unset: a worker serves nothing.',
  },
  {
    name: 'QUOTA_STORAGE_BYTES',
    default: '524288000',
    description:
      'Storage one user may fill with uploads, texts and audio, in bytes (1048576-1099511627776; default 500 MB). An upload or a new job past it gets 413; deleting books or files frees space.',
  },
  {
    name: 'QUOTA_ACTIVE_JOBS',
    default: '3',
    description: 'Jobs one user may have PENDING or PROCESSING at once (1-1000); one more gets 429 until one finishes.',
  },
  {
    name: 'QUOTA_UPLOADS_PER_HOUR',
    default: '30',
    description: 'Files one user may upload within an hour (1-100000); one more gets 429 with Retry-After.',
  },
  {
    name: 'URL_FETCH_CONCURRENCY',
    default: '1',
    description:
      'Web pages one process downloads at once (1-32). A web-page job that finds every download slot busy gives its worker slot back and waits in the queue, so slow sites never hold all of WORKER_CONCURRENCY.',
  },
  {
    name: 'JOB_LIST_CACHE',
    default: 'on',
    description:
      "'on' or 'off'. On: pages of the job list are kept in memory until their owner's jobs change (each process LISTENs for the changes a database trigger announces), so unchanged polls read no database. Turn it off where LISTEN does not work, e.g. behind PgBouncer in transaction mode.",
  },
  {
    name: 'ASSISTANT_MODEL_URL',
    default: '(unset: offline answers)',
    description:
      "Base URL of an OpenAI-compatible chat-completions API for the voice assistant's answers, e.g. http://localhost:11434/v1 (Ollama), http://localhost:8080/v1 (llama.cpp server), a vLLM server or https://api.openai.com/v1. The model calls the assistant's tools, which only read what the listener has heard; when it fails or times out, the offline answers take over and the client is told. Needs ASSISTANT_MODEL.",
  },
  {
    name: 'ASSISTANT_MODEL',
    default: '(unset)',
    description:
      'The model name sent to ASSISTANT_MODEL_URL (e.g. llama3.1:8b, qwen2.5:7b-instruct, gpt-4o-mini); it must support tool calls. Required with ASSISTANT_MODEL_URL.',
  },
  {
    name: 'ASSISTANT_MODEL_KEY',
    default: '(unset)',
    description:
      'Bearer key for ASSISTANT_MODEL_URL, when the server needs one (OpenAI, a hosted vLLM); local servers usually do not.',
  },
  {
    name: 'ASSISTANT_MODEL_TIMEOUT_SECONDS',
    default: '20',
    description:
      'Longest the voice assistant waits for one reply of ASSISTANT_MODEL (1-300 s) before the offline answer is given instead.',
  },
  {
    name: 'URL_FETCH_TIMEOUT_SECONDS',
    default: '15',
    description:
      'Longest a web-page download may take, in seconds (1-300), from the request to the last byte; the job then fails with a message saying so.',
  },
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

/** An IPv4/IPv6 address, optionally with a /prefix length that fits it. */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const trustProxyVar = optionalString.transform((raw, ctx): string[] => {
  if (raw === undefined) return [];
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `TRUST_PROXY must be a comma-separated list of IP addresses or CIDRs such as 10.0.0.0/8 (not ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
    });
    return z.NEVER;
  }
  return entries;
});

const envSchema = z.object({
  PORT: intVar('PORT', 1, 65535, 8080),
  HOST: optionalString,
  DATA_DIR: optionalString,
  DATABASE_URL: checkedString(
    (url) => /^postgres(ql)?:\/\/./.test(url),
    (url) =>
      `DATABASE_URL must be a postgres:// or postgresql:// URL (got one starting with ${JSON.stringify(url.split(':')[0] + ':')})`,
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
  PASSWORD_HASH_CONCURRENCY: intVar('PASSWORD_HASH_CONCURRENCY', 1, 32, 2),
  PASSWORD_HASH_QUEUE: intVar('PASSWORD_HASH_QUEUE', 0, 1000, 8),
  AUTH_RATE_LIMIT_PER_MINUTE: intVar('AUTH_RATE_LIMIT_PER_MINUTE', 1, 100_000, 30),
  SIGNUP_RATE_LIMIT_PER_HOUR: intVar('SIGNUP_RATE_LIMIT_PER_HOUR', 1, 100_000, 10),
  TRUST_PROXY: trustProxyVar,
  HTTP_HEADERS_TIMEOUT_SECONDS: intVar('HTTP_HEADERS_TIMEOUT_SECONDS', 1, 600, 20),
  HTTP_REQUEST_TIMEOUT_SECONDS: intVar('HTTP_REQUEST_TIMEOUT_SECONDS', 1, 3600, 120),
  HTTP_IDLE_TIMEOUT_SECONDS: intVar('HTTP_IDLE_TIMEOUT_SECONDS', 1, 3600, 20),
  LOG_LEVEL: enumVar('LOG_LEVEL', LOG_LEVELS),
  STATIC_DIR: optionalString,
  OPENAI_API_KEY: optionalString,
  ELEVENLABS_API_KEY: optionalString,
  OPENAI_BASE_URL: checkedString(
    (url) => /^https?:\/\/./.test(url),
    () => 'OPENAI_BASE_URL must be an http:// or https:// URL',
  ),
  ELEVENLABS_BASE_URL: checkedString(
    (url) => /^https?:\/\/./.test(url),
    () => 'ELEVENLABS_BASE_URL must be an http:// or https:// URL',
  ),
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
  PUBLIC_URL: checkedString(
    (url) => originOf(url) !== null,
    (url) =>
      `PUBLIC_URL must be an http:// or https:// address with no path, query or fragment (got ${JSON.stringify(url)})`,
  ).transform((url) => (url === undefined ? undefined : originOf(url)!)),
  CORS_ORIGINS: optionalString.transform((raw, ctx) => {
    const origins = (raw ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== '');
    const bad = origins.filter((origin) => origin !== '*' && originOf(origin) !== origin.replace(/\/$/, ''));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `CORS_ORIGINS must list exact origins such as https://app.example.org, separated by commas, or '*' (not valid: ${bad.map((o) => JSON.stringify(o)).join(', ')})`,
      });
      return z.NEVER;
    }
    return origins.map((origin) => (origin === '*' ? origin : originOf(origin)!));
  }),
  SHUTDOWN_GRACE_SECONDS: intVar('SHUTDOWN_GRACE_SECONDS', 1, 300, 10),
  METRICS_TOKEN: checkedString(
    (token) => token.length >= 16,
    (token) => `METRICS_TOKEN must be at least 16 characters (got ${token.length})`,
  ),
  METRICS_PUBLIC: enumVar('METRICS_PUBLIC', ['true', 'false'] as const),
  OPS_PORT: intVar('OPS_PORT', 0, 65535, -1),
  STORAGE_URL: checkedString(
    (url) => /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9._/-]*)?$/.test(url) && !url.includes('..'),
    (url) =>
      `STORAGE_URL must look like s3://bucket or s3://bucket/prefix with a valid bucket name (got one starting with ${JSON.stringify(url.slice(0, 5))})`,
  ),
  S3_ENDPOINT: checkedString(
    (url) => /^https?:\/\/./.test(url),
    () => 'S3_ENDPOINT must be an http:// or https:// URL',
  ),
  S3_REGION: optionalString,
  S3_FORCE_PATH_STYLE: enumVar('S3_FORCE_PATH_STYLE', ['true', 'false'] as const),
  S3_PRESIGN: enumVar('S3_PRESIGN', ['true', 'false'] as const),
  QUOTA_STORAGE_BYTES: intVar('QUOTA_STORAGE_BYTES', 1_048_576, 1_099_511_627_776, 524_288_000),
  QUOTA_ACTIVE_JOBS: intVar('QUOTA_ACTIVE_JOBS', 1, 1000, 3),
  QUOTA_UPLOADS_PER_HOUR: intVar('QUOTA_UPLOADS_PER_HOUR', 1, 100_000, 30),
  URL_FETCH_CONCURRENCY: intVar('URL_FETCH_CONCURRENCY', 1, 32, 1),
  URL_FETCH_TIMEOUT_SECONDS: intVar('URL_FETCH_TIMEOUT_SECONDS', 1, 300, 15),
  JOB_LIST_CACHE: enumVar('JOB_LIST_CACHE', ['on', 'off'] as const),
  ASSISTANT_MODEL_URL: checkedString(
    (url) => /^https?:\/\/./.test(url),
    () => 'ASSISTANT_MODEL_URL must be an http:// or https:// URL',
  ),
  ASSISTANT_MODEL: optionalString,
  ASSISTANT_MODEL_KEY: optionalString,
  ASSISTANT_MODEL_TIMEOUT_SECONDS: intVar('ASSISTANT_MODEL_TIMEOUT_SECONDS', 1, 300, 20),
});

/** `scheme://host[:port]` of an http(s) address that has no path, query or fragment; else null. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (
      (url.pathname !== '/' && url.pathname !== '') ||
      url.search !== '' ||
      url.hash !== '' ||
      url.username !== '' ||
      url.password !== ''
    )
      return null;
    return url.origin;
  } catch {
    return null;
  }
}

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
  if (vars.HTTP_HEADERS_TIMEOUT_SECONDS > vars.HTTP_REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError(
      `HTTP_HEADERS_TIMEOUT_SECONDS (${vars.HTTP_HEADERS_TIMEOUT_SECONDS}) must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${vars.HTTP_REQUEST_TIMEOUT_SECONDS})`,
    );
  }
  if ((vars.ASSISTANT_MODEL_URL === undefined) !== (vars.ASSISTANT_MODEL === undefined)) {
    throw new ConfigError(
      vars.ASSISTANT_MODEL_URL === undefined
        ? 'ASSISTANT_MODEL is set but ASSISTANT_MODEL_URL is not: set both to use a chat model, or neither for offline answers'
        : 'ASSISTANT_MODEL_URL is set but ASSISTANT_MODEL is not: name the model to use (e.g. llama3.1:8b)',
    );
  }
  const appEnv: AppEnv = vars.APP_ENV ?? 'dev';
  if (appEnv === 'production' && vars.CORS_ORIGINS.includes('*')) {
    throw new ConfigError(
      "CORS_ORIGINS may not be '*' when APP_ENV=production: list the origins of the sites that use this API",
    );
  }
  const dataDir = path.resolve(vars.DATA_DIR ?? './data');
  const defaultStatic = path.join(repoRoot, 'dist');
  const staticDir = vars.STATIC_DIR
    ? path.resolve(vars.STATIC_DIR)
    : existsSync(path.join(defaultStatic, 'index.html'))
      ? defaultStatic
      : undefined;
  if (staticDir !== undefined && !existsSync(path.join(staticDir, 'index.html'))) {
    throw new ConfigError(
      `STATIC_DIR must be a directory containing index.html (got ${JSON.stringify(vars.STATIC_DIR)})`,
    );
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
    passwordHashConcurrency: vars.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueue: vars.PASSWORD_HASH_QUEUE,
    authRateLimitPerMinute: vars.AUTH_RATE_LIMIT_PER_MINUTE,
    signupRateLimitPerHour: vars.SIGNUP_RATE_LIMIT_PER_HOUR,
    trustProxy: vars.TRUST_PROXY,
    httpHeadersTimeoutSeconds: vars.HTTP_HEADERS_TIMEOUT_SECONDS,
    httpRequestTimeoutSeconds: vars.HTTP_REQUEST_TIMEOUT_SECONDS,
    httpIdleTimeoutSeconds: vars.HTTP_IDLE_TIMEOUT_SECONDS,
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
    ...(vars.PUBLIC_URL !== undefined && { publicUrl: vars.PUBLIC_URL }),
    corsOrigins: vars.CORS_ORIGINS,
    shutdownGraceSeconds: vars.SHUTDOWN_GRACE_SECONDS,
    ...(vars.METRICS_TOKEN !== undefined && { metricsToken: vars.METRICS_TOKEN }),
    metricsPublic: vars.METRICS_PUBLIC === 'true',
    ...(vars.OPS_PORT >= 0 && { opsPort: vars.OPS_PORT }),
    ...(vars.STORAGE_URL !== undefined && {
      s3: {
        bucket: vars.STORAGE_URL.slice(5).split('/')[0]!,
        prefix: vars.STORAGE_URL.slice(5)
          .split('/')
          .slice(1)
          .filter((s) => s !== '')
          .join('/'),
        ...(vars.S3_ENDPOINT !== undefined && { endpoint: vars.S3_ENDPOINT }),
        ...((vars.S3_REGION ?? env.AWS_REGION) !== undefined && { region: vars.S3_REGION ?? env.AWS_REGION }),
        forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
        presign: vars.S3_PRESIGN === 'true',
      },
    }),
    quotaStorageBytes: vars.QUOTA_STORAGE_BYTES,
    quotaActiveJobs: vars.QUOTA_ACTIVE_JOBS,
    quotaUploadsPerHour: vars.QUOTA_UPLOADS_PER_HOUR,
    urlFetchConcurrency: vars.URL_FETCH_CONCURRENCY,
    urlFetchTimeoutSeconds: vars.URL_FETCH_TIMEOUT_SECONDS,
    jobListCache: vars.JOB_LIST_CACHE !== 'off',
    ...(vars.ASSISTANT_MODEL_URL !== undefined &&
      vars.ASSISTANT_MODEL !== undefined && {
        assistantModel: {
          url: vars.ASSISTANT_MODEL_URL,
          model: vars.ASSISTANT_MODEL,
          ...(vars.ASSISTANT_MODEL_KEY !== undefined && { key: vars.ASSISTANT_MODEL_KEY }),
          timeoutSeconds: vars.ASSISTANT_MODEL_TIMEOUT_SECONDS,
        },
      }),
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
