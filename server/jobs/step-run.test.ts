import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_BUDGET } from '../retry-policy';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, signIn, SHORT_TEXT } from '../testing/jobs';
import { createJobRepository } from './repository';
import { DomainError } from '../errors';
import { createStepRun, INTERNAL_FAILURE_MESSAGE, StepFailed } from './step-run';
import type { createSteps, StepOutcome } from './steps';

/**
 * A job stopped between two steps (its worker shutting down, the reader cancelling) starts no
 * further step: the worker that takes it next runs that step as its first attempt. One that began
 * anyway ran to its end in the stopping worker, beside the next worker's run of the same job.
 */
let t: TestApp;
beforeAll(async () => {
  // Nothing converts the job in this app: the step is run by hand below.
  t = await createTestApp({ env: { ENCODER_THREADS: '0', WORKERS: 'none' } });
});
afterAll(async () => {
  await t?.close();
});

describe('a step of a stopped job', () => {
  it('does not start: it is not marked running, counts no attempt and its work never runs', async () => {
    const h = await signIn(t, 'stopped@example.com');
    const { id } = (await createJob(t, h, { title: 'Stopped', content: SHORT_TEXT })).json() as { id: string };
    const repo = createJobRepository(t.db);
    const job = (await repo.jobs.get(id))!;
    const step = (await repo.steps.ofJobs([id]))[0]!;
    let ran = 0;
    const steps = {
      [step.stepName]: async (): Promise<StepOutcome> => {
        ran += 1;
        return {};
      },
    } as ReturnType<typeof createSteps>;
    const runStep = createStepRun({ repo, steps, budget: RETRY_BUDGET, stepTimeoutSeconds: 60 });
    const stop = new AbortController();
    stop.abort(new Error('the worker is shutting down'));

    await expect(runStep(job, step, stop.signal)).rejects.toThrow('the worker is shutting down');
    expect(ran).toBe(0);
    const after = (await repo.steps.ofJobs([id])).find((s) => s.stepName === step.stepName)!;
    expect(after).toMatchObject({ status: 'pending', attempts: 0, startedAt: null });

    // The same step of a job still running is run, once.
    await expect(runStep(job, step, new AbortController().signal)).resolves.toEqual({ wait: false });
    expect(ran).toBe(1);
    expect((await repo.steps.ofJobs([id])).find((s) => s.stepName === step.stepName)).toMatchObject({
      status: 'completed',
      attempts: 1,
    });
  });
});

describe("a step's failure as the reader reads it", () => {
  async function failWith(email: string, error: Error) {
    const h = await signIn(t, email);
    const { id } = (await createJob(t, h, { title: 'Fails', content: SHORT_TEXT })).json() as { id: string };
    const repo = createJobRepository(t.db);
    const job = (await repo.jobs.get(id))!;
    const step = (await repo.steps.ofJobs([id]))[0]!;
    const steps = {
      [step.stepName]: () => Promise.reject(error),
    } as unknown as ReturnType<typeof createSteps>;
    const runStep = createStepRun({ repo, steps, budget: { ...RETRY_BUDGET, attempts: 1 }, stepTimeoutSeconds: 60 });
    const thrown = await runStep(job, step, new AbortController().signal).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(StepFailed);
    const stored = (await repo.steps.ofJobs([id])).find((s) => s.stepName === step.stepName)!;
    expect(stored.errorMessage).toBe((thrown as StepFailed).message);
    return (thrown as StepFailed).message;
  }

  it("never shows Lectio's own internals (a pattern, a file path), only that the fault was Lectio's", async () => {
    const internal = new SyntaxError('Invalid regular expression: /(?:Jean\\-Luc)/giu: Invalid escape');
    const message = await failWith('internal@example.com', internal);
    expect(message).toBe(INTERNAL_FAILURE_MESSAGE);
    expect(message).not.toMatch(/regular expression|\/giu|jobs\//);
    const path = await failWith('path@example.com', new Error('Cannot join audio: jobs/1/audio.mp3 does not exist'));
    expect(path).toBe(INTERNAL_FAILURE_MESSAGE);
  });

  it('shows what a reader can act on in its own words', async () => {
    const words = 'This page has no readable text';
    expect(await failWith('words@example.com', new DomainError('invalid', words))).toBe(words);
  });
});

describe('a step that waits and is woken again (a book waiting for its chapters)', () => {
  it('keeps its first start: its duration is the whole wait, not the last wake', async () => {
    const h = await signIn(t, 'waiting@example.com');
    const { id } = (await createJob(t, h, { title: 'Waits', content: SHORT_TEXT })).json() as { id: string };
    const repo = createJobRepository(t.db);
    const job = (await repo.jobs.get(id))!;
    const step = (await repo.steps.ofJobs([id]))[0]!;
    let wakes = 0;
    const steps = {
      [step.stepName]: async (): Promise<StepOutcome> => {
        wakes += 1;
        return wakes < 2 ? { wait: true } : {};
      },
    } as ReturnType<typeof createSteps>;
    const runStep = createStepRun({ repo, steps, budget: RETRY_BUDGET, stepTimeoutSeconds: 60 });
    await expect(runStep(job, step, new AbortController().signal)).resolves.toEqual({ wait: true });
    // It started a while ago (as a book's step does, minutes before its last chapter ends).
    await t.db.query(
      `UPDATE job_steps SET started_at = now() - interval '90 seconds' WHERE job_id = $1 AND step_name = $2`,
      [id, step.stepName],
    );
    await expect(runStep(job, step, new AbortController().signal)).resolves.toEqual({ wait: false });
    const done = (await repo.steps.ofJobs([id])).find((s) => s.stepName === step.stepName)!;
    expect(done.status).toBe('completed');
    const seconds = (done.completedAt!.getTime() - done.startedAt!.getTime()) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(89);
  });
});
