import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { createPgBossQueue, type JobQueue } from './queue';

// The queue on the embedded database, as the server runs it (pg-boss on our Db).
let db: Db;
let queue: JobQueue;

beforeAll(async () => {
  db = await openPglite();
  // Workers that would look for messages only once a minute on their own.
  queue = await createPgBossQueue({ db }, { expireInSeconds: 60, pollingIntervalSeconds: 60, name: 'queue-test' });
});
afterAll(async () => {
  await queue?.stop();
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
});
