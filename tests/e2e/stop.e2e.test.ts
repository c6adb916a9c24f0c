import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';

// An operator stops `npm start` the way a service manager or a container runtime does: one SIGTERM
// to npm's own process. npm does not pass it on to the start script, whose server must still stop
// (gracefully: jobs handed back, children ended) instead of running on under init.
let npm: ChildProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'lectio-e2e-stop-'));

afterAll(() => {
  // Whatever is left of the group if the test failed.
  if (npm?.pid) {
    try {
      process.kill(-npm.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function answers(url: string): Promise<boolean> {
  return fetch(`${url}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
}

async function until(what: string, condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('npm start, stopped through npm', () => {
  it('stops the server when npm alone is sent SIGTERM', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    npm = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
      detached: true,
    });
    await until('the app to answer', () => answers(url), 180_000);

    process.kill(npm.pid!, 'SIGTERM');

    await until('the server to stop', async () => !(await answers(url)), 60_000);
    expect(await answers(url)).toBe(false);
  }, 300_000);
});
