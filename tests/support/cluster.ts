import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../../scripts/build-server.mjs';

/**
 * Real processes for scale-out tests and benches: the API (`server/main.ts`) and workers, either
 * from source through tsx or as `npm run worker` runs them (scripts/worker.mjs, compiled).
 */
export interface Proc {
  child: ChildProcess;
  log: () => string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

export type Entry = 'api' | 'compiled-api' | 'worker' | 'compiled-worker' | 'npm-worker';

/** An entry's arguments, read when a process starts (a bench may add Node flags, a profiler's). */
const argsOf = (entry: Entry): string[] =>
  ({
    api: ['--import', 'tsx', 'server/main.ts'],
    // As `npm start` runs it, once dist-server/ is built: with its Node flags (scripts/bench.mjs passes
    // them on in LECTIO_SERVER_NODE_FLAGS; its environment is inherited).
    'compiled-api': [
      ...(process.env.LECTIO_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? SERVER_NODE_FLAGS),
      'dist-server/main.mjs',
    ],
    worker: ['--import', 'tsx', 'server/worker.ts'],
    'compiled-worker': ['scripts/worker.mjs'],
    // Exactly as an operator types it: npm, which runs scripts/worker.mjs, which runs the worker.
    'npm-worker': ['run', '-s', 'worker'],
  })[entry];

/**
 * Starts the process; with `group`, in a process group of its own (as a shell's job is), so
 * `process.kill(-child.pid, signal)` signals every process of it, like `kill -TERM %1`.
 */
export function startProcess(entry: Entry, env: Record<string, string>, options: { group?: boolean } = {}): Proc {
  let log = '';
  const child = spawn(entry === 'npm-worker' ? 'npm' : process.execPath, argsOf(entry), {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true,
  });
  child.stdout?.on('data', (c) => (log += c));
  child.stderr?.on('data', (c) => (log += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, log: () => log, exited };
}

/** SIGTERM, then up to `ms` for the process to finish on its own (whoever started it kills it after). */
export async function stopGracefully(proc: Proc, ms: number): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  await Promise.race([proc.exited, new Promise((r) => setTimeout(r, ms))]);
}

/** Polls `probe` until it returns a value (not undefined); errors count as "not yet". */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  describe: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.\n${describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The worker id a worker logs when it is ready ("Lectio worker is running"). */
export async function workerIdOf(proc: Proc, timeoutMs = 60_000): Promise<string> {
  return until(
    'the worker to start',
    async () => {
      const match = /"workerId":"([0-9a-f-]{36})"[^\n]*Lectio worker is running/.exec(proc.log());
      return match?.[1];
    },
    timeoutMs,
    proc.log,
  );
}

/** A small HTTP client for the API with a bearer token. */
export function apiClient(baseUrl: string) {
  let headers: Record<string, string> = {};
  async function call(method: string, path: string, body?: object) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body && { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      retryAfter: Number(res.headers.get('retry-after') ?? 1),
      retryAfterHeader: res.headers.get('retry-after'),
    };
  }
  /** As a reader's browser does: a 429 ("busy with other sign-ins") is retried after Retry-After. */
  async function callPatiently(method: string, path: string, body?: object) {
    for (let attempt = 1; ; attempt += 1) {
      const res = await call(method, path, body);
      if (res.status !== 429 || attempt === 20) return res;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0.2, res.retryAfter || 1) * 1000));
    }
  }
  return {
    call,
    async signUp(email: string, password = 'correct-horse') {
      await callPatiently('POST', '/api/v1/auth/register', { email, password });
      const login = await callPatiently('POST', '/api/v1/auth/login', { email, password });
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
      headers = { authorization: `Bearer ${String(login.body.access_token)}` };
    },
    async createJob(title: string, content: string): Promise<string> {
      const { status, body } = await call('POST', '/api/v1/jobs', { title, content });
      if (status !== 201) throw new Error(`create job: ${status} ${JSON.stringify(body)}`);
      return String(body.id);
    },
    async status(id: string): Promise<string> {
      return String((await call('GET', `/api/v1/jobs/${id}`)).body.status);
    },
  };
}

export function sentences(n: number, topic: string): string {
  return Array.from(
    { length: n },
    (_, i) => `Sentence ${i + 1} tells of the ${topic} that ran past the old mill in the valley.`,
  ).join(' ');
}

/** A book of `chapters` chapters with `perChapter` sentences each (split into chapter jobs). */
export function book(chapters: number, perChapter: number): string {
  return Array.from(
    { length: chapters },
    (_, i) => `Chapter ${i + 1}\n\n${sentences(perChapter, `stream ${i + 1}`)}`,
  ).join('\n\n');
}
