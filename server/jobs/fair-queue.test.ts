import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, getJob, longText, signIn, waitForJob } from '../testing/jobs';

/**
 * A queue, not a refusal: a reader may queue many jobs, QUOTA_RUNNING_JOBS of them run at once, and
 * readers take turns: another reader's one job starts before the first reader's next ones.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { ENCODER_THREADS: '0', QUOTA_RUNNING_JOBS: '1', WORKER_CONCURRENCY: '1' },
    conversion: { stepRetryDelayMs: 10 },
  });
});
afterAll(async () => {
  await t?.close();
});

interface Listed {
  id: string;
  title: string;
  status: string;
  queue_position?: number | null;
}

describe('the fair queue', () => {
  it(
    "queues a reader's jobs past the running limit, shows how many are ahead, and starts another reader's job first",
    { timeout: 300_000 },
    async () => {
      const alice = await signIn(t, 'alice@example.com');
      const bob = await signIn(t, 'bob@example.com');
      const aliceIds: string[] = [];
      for (let i = 1; i <= 4; i += 1) {
        const res = await createJob(t, alice, { title: `Alice ${i}`, content: longText(12 + i) });
        expect(res.statusCode).toBe(201); // queued, not refused
        aliceIds.push((res.json() as { id: string }).id);
      }
      const bobRes = await createJob(t, bob, { title: 'Bob 1', content: longText(12) });
      expect(bobRes.statusCode).toBe(201);
      const bobId = (bobRes.json() as { id: string }).id;

      // Alice's last jobs wait for their turn, each behind the one before it.
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/jobs?sort=created_at&order=asc', headers: alice });
      const listed = (list.json() as { jobs: Listed[] }).jobs;
      const waiting = listed.filter((j) => j.title === 'Alice 3' || j.title === 'Alice 4');
      expect(waiting.map((j) => j.status)).toEqual(['PENDING', 'PENDING']);
      const [third, fourth] = waiting.map((j) => j.queue_position);
      expect(third).toBeGreaterThan(0);
      expect(fourth).toBe(third! + 1);
      const single = await getJob(t, alice, aliceIds[3]!);
      expect((single as unknown as Listed).queue_position).toBe(fourth);

      const bobDone = await waitForJob(t, bob, bobId, undefined, 120_000);
      expect(bobDone.status).toBe('COMPLETED');
      const aliceDone = [];
      for (const id of aliceIds) aliceDone.push(await waitForJob(t, alice, id, undefined, 120_000));
      expect(aliceDone.map((j) => j.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED']);

      const started = (j: { steps: { started_at: string | null }[] }) =>
        Math.min(...j.steps.map((s) => (s.started_at === null ? Infinity : Date.parse(s.started_at))));
      const finished = (j: { steps: { completed_at: string | null }[] }) =>
        Math.max(...j.steps.map((s) => (s.completed_at === null ? 0 : Date.parse(s.completed_at))));
      // Bob's one job started before Alice's second, although she queued hers first...
      expect(started(bobDone)).toBeLessThan(started(aliceDone[1]!));
      // ...and Alice's ran one at a time, in the order she queued them.
      for (let i = 1; i < 4; i += 1) {
        expect(started(aliceDone[i]!)).toBeGreaterThanOrEqual(finished(aliceDone[i - 1]!));
      }
      // Finished jobs show no place in the queue.
      const after = (
        (await t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: alice })).json() as { jobs: Listed[] }
      ).jobs;
      expect(after.every((j) => j.queue_position === undefined || j.queue_position === null)).toBe(true);
    },
  );
});
