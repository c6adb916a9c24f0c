import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { createPgBossQueue, SOLE_PROCESS_POLL_SECONDS, type JobQueue } from './queue';

// The queue on the embedded database, as the server runs it (pg-boss on our Db).
let db: Db;
let queue: JobQueue;
/** As the server runs it on the embedded database: this process sends every message. */
let soleQueue: JobQueue;

beforeAll(async () => {
  db = await openPglite();
  // Workers that would look for messages only once a minute on their own.
  queue = await createPgBossQueue({ db }, { expireInSeconds: 60, pollingIntervalSeconds: 60, name: 'queue-test' });
  // Its workers look on their own only every SOLE_PROCESS_POLL_SECONDS (30 s).
  soleQueue = await createPgBossQueue({ db }, { expireInSeconds: 60, soleProcess: true, name: 'queue-test-sole' });
});
afterAll(async () => {
  await queue?.stop();
  await soleQueue?.stop();
  await db?.close();
});

describe('the conversion queue', () => {
  it("hands a message sent in this process to this process's idle worker at once, not at its next poll", async () => {
    const handled: string[] = [];
    let handledOne: () => void = () => undefined;
    await queue.work(1, async (jobId) => {
      handled.push(jobId);
      handledOne();
    });
    // The worker has looked once, found nothing, and sleeps until its next poll a minute away.
    await new Promise((r) => setTimeout(r, 1000));
    for (const jobId of ['first', 'second']) {
      const done = new Promise<void>((resolve) => (handledOne = resolve));
      await queue.send(jobId);
      // Within the test's timeout (seconds): long before a poll a minute away would have found it.
      await done;
    }
    expect(handled).toEqual(['first', 'second']);
  });

  describe('in a sole process (the embedded database)', () => {
    const handled: string[] = [];
    let onHandled: (jobId: string) => void = () => undefined;
    beforeAll(async () => {
      expect(SOLE_PROCESS_POLL_SECONDS).toBeGreaterThanOrEqual(30);
      await soleQueue.work(1, async (jobId) => {
        // Each message keeps the one worker busy for a while.
        await new Promise((r) => setTimeout(r, 200));
        handled.push(jobId);
        onHandled(jobId);
      });
      await new Promise((r) => setTimeout(r, 500));
    });
    const until = (jobId: string) => new Promise<void>((resolve) => (onHandled = (id) => id === jobId && resolve()));

    it(
      'handles messages sent while its worker was busy one after another, not a poll apart',
      { timeout: 15_000 },
      async () => {
        const last = until('c');
        for (const jobId of ['a', 'b', 'c']) await soleQueue.send(jobId);
        await last;
        expect(handled.slice(-3)).toEqual(['a', 'b', 'c']);
      },
    );

    it('handles a message sent for later when it is due, not at the next poll', { timeout: 15_000 }, async () => {
      const sentAt = Date.now();
      const due = until('later');
      await soleQueue.send('later', { delaySeconds: 1 });
      await due;
      // Not before its time: the queue keeps the delay.
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1000);
      expect(handled.at(-1)).toBe('later');
    });
  });
});
