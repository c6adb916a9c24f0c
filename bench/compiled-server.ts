/**
 * The compiled server as the benches start it: dist-server/ is built by scripts/bench.mjs before a
 * bench runs, and started with the same Node flags `npm start` uses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { freePort } from '../tests/support/ports';

/** Servers started by this bench and still running. */
const running = new Set<ChildProcess>();
let stopsWithBench = false;

/**
 * A bench interrupted (Ctrl-C, SIGTERM) takes its servers with it: a soak server left behind keeps
 * converting on both cores for hours.
 */
function stopServersWithBench(): void {
  if (stopsWithBench) return;
  stopsWithBench = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const server of running) server.kill('SIGTERM');
      process.exit(130);
    });
  }
}

/** Starts dist-server/main.mjs with the given environment on top of this process's. */
export function startCompiledServer(env: Record<string, string>): ChildProcess {
  stopServersWithBench();
  const flags = (process.env.LECTIO_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...flags, 'dist-server/main.mjs'], {
    env: { ...process.env, STATIC_DIR: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(server);
  server.once('exit', () => running.delete(server));
  return server;
}

/** Resolves once the API at `base` answers, or throws after `timeoutMs`. */
export async function untilServing(base: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (
      await fetch(`${base}/api/v1/environment`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`The server did not start within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Peak resident memory of a process, from Linux's /proc (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

/** Stops a server started here: SIGTERM (it hands its jobs back and ends its children), SIGKILL after `graceMs`. */
export async function stopServer(server: ChildProcess, graceMs = 15_000): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

const TICKS_PER_SECOND = 100; // Linux's USER_HZ, what /proc/<pid>/stat counts in

/** utime + stime + cutime + cstime of one process (its threads, and its children it has waited for), in seconds. */
function processCpuSeconds(stat: string): number {
  // The command name (field 2) may hold spaces: the fields after it start past the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds used so far by a process and everything below it (Linux /proc): each live process's
 * own time plus that of the children it has waited for, so short-lived children (the reference
 * pipeline's `espeak-ng` and `lame`, a compiler) count once reaped. A load-independent figure: what a piece of
 * work costs, whatever else the machine runs.
 */
export function treeCpuSeconds(root: number): number {
  const parents = new Map<number, number>();
  const stats = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
      stats.set(Number(entry), stat);
    } catch {
      /* gone meanwhile */
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) total += processCpuSeconds(stat);
  return total;
}

/** CPU seconds of the children this process has waited for (the reference pipelines), from /proc/self/stat. */
export function reapedChildrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** A JSON answer of the bench's server: its status and body (null when it has none). */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The bench's client of a server at `url`: `call` sends JSON (with a bearer token when given),
 * `signUp` registers a reader and signs in, resolving with the token.
 */
export function apiClient(url: string) {
  const call = async (method: string, path: string, body?: object, token?: string): Promise<ApiAnswer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      ...(body && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };
  const signIn = async (email: string, password: string): Promise<string> =>
    String((await call('POST', '/api/v1/auth/login', { email, password })).body.access_token);
  const signUp = async (email: string, password: string): Promise<string> => {
    await call('POST', '/api/v1/auth/register', { email, password });
    return signIn(email, password);
  };
  return { call, signIn, signUp };
}

/** Room in the storage quota for the benches' long books (their audio and downloads count in it). */
export const BENCH_STORAGE_QUOTA = String(50 * 1024 ** 3);

/** Starts the compiled server on a free port of 127.0.0.1 (with `env`): the process and its address. */
export async function startOnFreePort(env: Record<string, string>): Promise<{ server: ChildProcess; url: string }> {
  const port = await freePort();
  const server = startCompiledServer({ ...env, PORT: String(port), HOST: '127.0.0.1' });
  return { server, url: `http://127.0.0.1:${port}` };
}
