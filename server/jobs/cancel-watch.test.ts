import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, longText, signIn, SHORT_TEXT, waitForJob } from '../testing/jobs';
import { createJobRepository } from './repository';

/**
 * Each worker asks twice a second which of its running jobs it must stop: those cancelled or
 * deleted. A job that has just completed in the worker running it is not among them (it was, and a
 * worker that looked in the instant between a job's completion and its own bookkeeping stopped it
 * as "cancelled" and removed its audio).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ENCODER_THREADS: '0' }, conversion: { stepRetryDelayMs: 10 } });
});
afterAll(async () => {
  await t?.close();
});

describe("a worker's cancel watch", () => {
  it('stops cancelled and deleted jobs, never a completed one', { timeout: 120_000 }, async () => {
    const h = await signIn(t, 'watch@example.com');
    const done = (await createJob(t, h, { title: 'Done', content: SHORT_TEXT })).json() as { id: string };
    expect((await waitForJob(t, h, done.id)).status).toBe('COMPLETED');
    const running = (await createJob(t, h, { title: 'Running', content: longText(400) })).json() as { id: string };
    const cancel = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${running.id}`, headers: h });
    expect(cancel.statusCode).toBe(200);
    const gone = randomUUID();

    const repo = createJobRepository(t.db);
    expect(await repo.cancelledAmong([done.id, running.id, gone])).toEqual([running.id, gone]);
  });
});
