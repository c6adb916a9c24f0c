import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitOnSignals, shutdownDeadlineMs } from './process';
import { openPglite } from './db/pglite';
import { createTestApp } from './testing/app';

/**
 * Signals as they arrive in practice: `kill -TERM` to a process group reaches node directly and
 * again through npm a few milliseconds later; Ctrl-C in a terminal does the same with SIGINT.
 * The process's own handlers are called (process.emit), with process.exit stubbed and a clock the
 * test moves.
 */
let clock = 0;
const exits: number[] = [];
const lines: string[] = [];
const log = {
  info: (_o: unknown, msg?: string) => lines.push(msg ?? String(_o)),
  warn: (_o: unknown, msg?: string) => lines.push(msg ?? String(_o)),
  error: (_o: unknown, msg?: string) => lines.push(msg ?? String(_o)),
} as unknown as FastifyBaseLogger;

/** What undoes each exitOnSignals a test installed: its handlers and its shutdown's deadline. */
const installed: (() => void)[] = [];

/** Undoes every exitOnSignals the test installed so far. */
function uninstall() {
  for (const undo of installed.splice(0)) undo();
}

function install(close: () => Promise<unknown>) {
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    exits.push(code ?? 0);
  }) as typeof process.exit);
  installed.push(exitOnSignals(log, 'shutting down', close, 10, () => clock));
}

afterEach(() => {
  vi.useRealTimers();
  // Only what the tests installed: the test runner's own signal handlers stay.
  uninstall();
  vi.restoreAllMocks();
  exits.length = 0;
  lines.length = 0;
  clock = 0;
});

describe('one graceful shutdown however the signal arrives', () => {
  it('takes a SIGTERM forwarded by npm 7 ms after the first for the same request', async () => {
    let finish!: () => void;
    let closes = 0;
    install(() => {
      closes += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    process.emit('SIGTERM', 'SIGTERM');
    clock += 7;
    process.emit('SIGTERM', 'SIGTERM');
    clock += 3_000; // a supervisor repeating itself
    process.emit('SIGTERM', 'SIGTERM');
    expect(exits).toEqual([]);
    expect(closes).toBe(1);
    finish();
    await new Promise((r) => setImmediate(r));
    expect(exits).toEqual([0]);
    expect(lines).toContain('shutdown complete');
    expect(lines).not.toContain('second signal: exiting now');
  });

  it("takes Ctrl-C's copies for one request, and a person's second Ctrl-C for exiting at once", () => {
    install(() => new Promise(() => undefined));
    process.emit('SIGINT', 'SIGINT');
    clock += 5;
    process.emit('SIGINT', 'SIGINT'); // npm's copy
    expect(exits).toEqual([]);
    clock += 1_000;
    process.emit('SIGINT', 'SIGINT'); // pressed again
    expect(exits).toEqual([1]);
    expect(lines).toContain('second signal: exiting now');
  });

  it('exits at once on a SIGTERM long after the first, or on the other signal', () => {
    install(() => new Promise(() => undefined));
    process.emit('SIGTERM', 'SIGTERM');
    clock += 6_000;
    process.emit('SIGTERM', 'SIGTERM');
    expect(exits).toEqual([1]);
    exits.length = 0;
    uninstall();
    install(() => new Promise(() => undefined));
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([1]);
  });
});

describe('a process that carries on', () => {
  it('is never ended by the deadline of a shutdown that completed, or that was undone', async () => {
    vi.useFakeTimers();
    let finish!: () => void;
    install(() => new Promise<void>((resolve) => (finish = resolve)));
    process.emit('SIGTERM', 'SIGTERM');
    finish();
    await Promise.resolve();
    expect(exits).toEqual([0]);
    vi.advanceTimersByTime(shutdownDeadlineMs(10) + 1);
    expect(exits).toEqual([0]);

    // A second signal exits at once: no second deadline is set, and undoing clears the first.
    exits.length = 0;
    uninstall();
    install(() => new Promise(() => undefined));
    process.emit('SIGINT', 'SIGINT');
    clock += 1_000;
    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([1]);
    uninstall();
    vi.advanceTimersByTime(shutdownDeadlineMs(10) + 1);
    expect(exits).toEqual([1]);

    exits.length = 0;
    const before = process.listenerCount('SIGTERM');
    install(() => new Promise(() => undefined));
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    process.emit('SIGTERM', 'SIGTERM');
    uninstall();
    expect(process.listenerCount('SIGTERM')).toBe(before);
    vi.advanceTimersByTime(shutdownDeadlineMs(10) + 1);
    expect(exits).toEqual([]);
  });
});

describe('a shutdown that needs its whole grace', () => {
  it(
    'lets the running work take SHUTDOWN_GRACE_SECONDS, then closes the database and exits 0',
    { timeout: 60_000 },
    async () => {
      // Fastify's own limit for a closing hook is 10 s; handing jobs back may wait the whole grace.
      // A grace with room to spare on a busy machine: the work takes 11 s of it.
      const db = await openPglite();
      const t = await createTestApp({ db, env: { SHUTDOWN_GRACE_SECONDS: '30' } });
      let handedBack = false;
      t.app.addHook('preClose', async function slowHandBack() {
        await sleep(11_000);
        handedBack = true;
      });
      await t.app.ready();
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      let exited!: (code: number) => void;
      const exit = new Promise<number>((resolve) => (exited = resolve));
      vi.spyOn(process, 'exit').mockImplementation(((code?: number) => exited(code ?? 0)) as typeof process.exit);
      // As the server's shutdown does: the app, then its database.
      const shutdown = async () => {
        await t.close();
        await db.close();
      };
      installed.push(exitOnSignals(log, 'shutting down', shutdown, 30));
      process.emit('SIGTERM', 'SIGTERM');

      expect(await exit).toBe(0);
      expect(errors).not.toHaveBeenCalled();
      expect(handedBack).toBe(true);
      expect(lines).toContain('shutdown complete');
      await expect(db.query('SELECT 1')).rejects.toThrow(); // closed after the slow work, not before
    },
  );
});
