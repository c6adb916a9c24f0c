import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../db/errors';
import { StorageUnavailableError } from '../storage/types';
import { createLeasedWorker, SHUTDOWN, type LeasedWork, type LeasedWorker, type WorkQueue } from './leased-worker';

/** A table of units with lease columns, kept in memory the way a domain's repository keeps rows. */
function createTable() {
  const rows = new Map<string, { owner: string | null; until: number; state: 'waiting' | 'done' | 'failed' }>();
  return {
    rows,
    add(id: string, lease?: { owner: string; forMs: number }) {
      rows.set(id, {
        owner: lease?.owner ?? null,
        until: lease === undefined ? 0 : Date.now() + lease.forMs,
        state: 'waiting',
      });
    },
    claim(id: string, owner: string, seconds: number): boolean {
      const row = rows.get(id);
      if (row === undefined || row.state !== 'waiting') return false;
      if (row.owner !== null && row.owner !== owner && row.until > Date.now()) return false;
      row.owner = owner;
      row.until = Date.now() + seconds * 1000;
      return true;
    },
    renew(id: string, owner: string, seconds: number) {
      const row = rows.get(id);
      if (row?.owner === owner) row.until = Date.now() + seconds * 1000;
    },
    release(id: string, owner: string) {
      const row = rows.get(id);
      if (row?.owner === owner) row.owner = null;
    },
    abandoned: () =>
      [...rows].filter(([, r]) => r.state === 'waiting' && r.owner !== null && r.until < Date.now()).map(([id]) => id),
  };
}

/** A queue that hands every message to the workers taking messages, in turn (a delay is only recorded). */
function createQueue() {
  const handlers: ((id: string) => Promise<void>)[] = [];
  const sent: { id: string; delaySeconds?: number }[] = [];
  let next = 0;
  const queue: WorkQueue = {
    async send(id, options) {
      sent.push({ id, ...(options?.delaySeconds !== undefined && { delaySeconds: options.delaySeconds }) });
      const handler = handlers[next++ % Math.max(1, handlers.length)];
      if (handler !== undefined) void handler(id).catch(() => undefined);
    },
    async work(_concurrency, handler) {
      handlers.push(handler);
    },
  };
  return { queue, sent };
}

type Run = (id: string, signal: AbortSignal, owner: string) => Promise<void>;

function work(
  table: ReturnType<typeof createTable>,
  run: Run,
  extra: Partial<LeasedWork<true>> = {},
): LeasedWork<true> {
  return {
    noun: 'unit',
    fields: (id) => ({ id }),
    claim: async (id, owner, seconds) => (table.claim(id, owner, seconds) ? true : null),
    renew: async (id, owner, seconds) => table.renew(id, owner, seconds),
    release: async (id, owner) => table.release(id, owner),
    async run(id, _claim, signal, owner) {
      await run(id, signal, owner);
      table.rows.get(id)!.state = 'done';
    },
    async failed(id) {
      table.rows.get(id)!.state = 'failed';
    },
    stoppedAmong: async () => [],
    abandoned: async () => table.abandoned(),
    releaseAbandoned: async () => [],
    probe: async () => undefined,
    ...extra,
  };
}

/** Resolves when `check` holds, looking every 10 ms for up to `ms`. */
async function until(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(10);
  }
}

/** Resolves on the signal's abort. */
const aborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));

const started: LeasedWorker[] = [];
afterEach(async () => {
  for (const w of started.splice(0)) await w.stop(0);
});

describe('the leased worker', () => {
  it('renews the lease of a unit while it runs, so no other worker takes it, and lets go when it ends', async () => {
    const table = createTable();
    table.add('u1');
    const { queue } = createQueue();
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    const finished: string[] = [];
    const worker = createLeasedWorker({
      work: work(table, () => running, { finished: async (id) => void finished.push(id) }),
      queue,
      concurrency: 1,
      leaseSeconds: 0.6,
    });
    const handled = worker.handle('u1');
    await until(() => worker.runningCount() === 1);
    // Three lease periods later the lease is still live and still this worker's.
    await sleep(1800);
    const row = table.rows.get('u1')!;
    expect(row.owner).toBe(worker.workerId);
    expect(row.until).toBeGreaterThan(Date.now());
    expect(table.claim('u1', 'another worker', 0.6)).toBe(false);
    // A second message for it while it runs here runs nothing twice.
    await worker.handle('u1');
    expect(worker.runningCount()).toBe(1);
    finish();
    await handled;
    expect(row).toMatchObject({ owner: null, state: 'done' });
    expect(finished).toEqual(['u1']);
  });

  it('sweeps a unit whose worker stopped renewing its lease, and another worker takes it over', async () => {
    const table = createTable();
    // A worker that died mid-run: its lease lapses 200 ms from now, never renewed.
    table.add('u1', { owner: 'dead worker', forMs: 200 });
    const { queue } = createQueue();
    const takenOver: string[] = [];
    const ranBy: string[] = [];
    const live = createLeasedWorker({
      work: work(table, async (_id, _signal, owner) => void ranBy.push(owner)),
      queue,
      concurrency: 1,
      leaseSeconds: 0.2,
      onTakenOver: (id) => takenOver.push(id),
    });
    started.push(live);
    await live.start();
    await until(() => table.rows.get('u1')!.state === 'done');
    expect(takenOver).toEqual(['u1']);
    expect(ranBy).toEqual([live.workerId]);
    expect(table.rows.get('u1')!.owner).toBeNull();
  });

  it('hands running units back on stop: aborted, lease released, queued again at once for another worker', async () => {
    const table = createTable();
    table.add('polite');
    table.add('stubborn');
    const { queue, sent } = createQueue();
    const reasons: unknown[] = [];
    const handedBack: string[] = [];
    const worker = createLeasedWorker({
      work: work(table, async (id, signal) => {
        if (id === 'stubborn') return new Promise<void>(() => undefined); // ignores the abort
        await aborted(signal).catch((reason: unknown) => {
          reasons.push(reason);
          throw reason;
        });
      }),
      queue,
      concurrency: 2,
      leaseSeconds: 5,
      onHandedBack: (id) => handedBack.push(id),
    });
    void worker.handle('polite');
    void worker.handle('stubborn');
    await until(() => worker.runningCount() === 2);
    const began = Date.now();
    await worker.stop(300);
    // The polite run stopped at once; the stubborn one was handed back when the grace ended.
    expect(Date.now() - began).toBeGreaterThanOrEqual(250);
    expect(reasons).toEqual([SHUTDOWN]);
    expect(handedBack.sort()).toEqual(['polite', 'stubborn']);
    expect(sent.map((s) => s.id).sort()).toEqual(['polite', 'stubborn']);
    for (const id of ['polite', 'stubborn'])
      expect(table.rows.get(id)).toMatchObject({ owner: null, state: 'waiting' });
    // A message fetched while stopping goes straight back to the queue.
    await worker.handle('polite');
    expect(sent.filter((s) => s.id === 'polite')).toHaveLength(2);
    expect(table.rows.get('polite')!.state).toBe('waiting');
  });

  it('waits out a store that is down: the unit is let go and queued again later, longer each time, never failed', async () => {
    const table = createTable();
    table.add('u1');
    const { queue, sent } = createQueue();
    let outages = 3;
    const worker = createLeasedWorker({
      work: work(table, async () => {
        if (outages-- > 0) throw new StorageUnavailableError(new Error('503 Slow Down'));
      }),
      queue,
      concurrency: 1,
      leaseSeconds: 5,
      storeRetrySeconds: 10,
    });
    started.push(worker);
    await worker.start(); // the queue now hands the retries to it
    await worker.handle('u1');
    await until(() => table.rows.get('u1')!.state === 'done');
    expect(sent).toEqual([
      { id: 'u1', delaySeconds: 10 },
      { id: 'u1', delaySeconds: 20 },
      { id: 'u1', delaySeconds: 40 },
    ]);
    expect(table.rows.get('u1')!.owner).toBeNull();
  });

  it('waits out a database that does not answer: keeps the lease, and runs the unit again once it answers', async () => {
    const table = createTable();
    table.add('u1');
    const { queue, sent } = createQueue();
    let databaseUp = false;
    let runs = 0;
    let probes = 0;
    const worker = createLeasedWorker({
      work: work(
        table,
        async () => {
          runs += 1;
          if (!databaseUp) throw new DatabaseUnavailableError(new Error('connection refused'));
        },
        {
          probe: async () => {
            probes += 1;
            if (!databaseUp) throw new DatabaseUnavailableError(new Error('connection refused'));
          },
        },
      ),
      queue,
      concurrency: 1,
      leaseSeconds: 5,
      databaseProbeMs: 20,
    });
    started.push(worker);
    await worker.handle('u1');
    await until(() => probes >= 3);
    // Down: nothing failed, the lease is still this worker's, no message was needed.
    expect(table.rows.get('u1')).toMatchObject({ owner: worker.workerId, state: 'waiting' });
    expect(runs).toBe(1);
    databaseUp = true;
    await until(() => table.rows.get('u1')!.state === 'done');
    expect(runs).toBe(2);
    expect(sent).toEqual([]);
    expect(table.rows.get('u1')!.owner).toBeNull();
  });

  it('fails a unit whose run throws, and stops one that is cancelled', async () => {
    const table = createTable();
    table.add('broken');
    table.add('cancelled');
    const { queue } = createQueue();
    const cancelled: string[] = [];
    const worker = createLeasedWorker({
      work: work(
        table,
        async (id, signal) => {
          if (id === 'broken') throw new Error('the file is not a book');
          await aborted(signal);
        },
        {
          stoppedAmong: async (ids) => ids.filter((id) => id === 'cancelled'),
          cancelled: async (id) => void cancelled.push(id),
        },
      ),
      queue,
      concurrency: 2,
      leaseSeconds: 5,
      cancelWatchMs: 20,
    });
    started.push(worker);
    await worker.start();
    await worker.handle('broken');
    expect(table.rows.get('broken')).toMatchObject({ owner: null, state: 'failed' });
    await worker.handle('cancelled'); // returns once the cancel watch stopped it
    expect(cancelled).toEqual(['cancelled']);
    expect(table.rows.get('cancelled')).toMatchObject({ owner: null, state: 'waiting' });
  });
});
