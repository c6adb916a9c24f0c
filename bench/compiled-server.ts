/**
 * The compiled server as the benches start it: dist-server/ is built by scripts/bench.mjs before a
 * bench runs, and started with the same Node flags `npm start` uses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Starts dist-server/main.mjs with the given environment on top of this process's. */
export function startCompiledServer(env: Record<string, string>): ChildProcess {
  const flags = (process.env.LECTIO_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...flags, 'dist-server/main.mjs'], {
    env: { ...process.env, STATIC_DIR: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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
