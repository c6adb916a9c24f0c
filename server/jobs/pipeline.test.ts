import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mp3DurationSeconds } from '../audio/concat';
import { createTestApp, type TestApp } from '../testing/app';
import { nativeSpeechLikely } from '../tts/espeak-host-build';
import { createJob, getJob, longText, SHORT_TEXT, signIn, waitForJob } from '../testing/jobs';
import { SERVER_CHILD_PROGRAMS, zombiesBelow } from '../testing/processes';

let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ env: { ENCODER_THREADS: '0' }, conversion: { stepRetryDelayMs: 10 } });
  headers = await signIn(t, 'reader@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe('a text job', () => {
  it('runs every step in order and produces an MP3 whose duration matches result_data', async () => {
    const res = await createJob(t, headers, { title: 'Lighthouse', content: SHORT_TEXT });
    expect(res.statusCode).toBe(201);
    const created = res.json() as { id: string; status: string; steps: { step_name: string; status: string }[] };
    expect(created.status).toBe('PENDING');
    expect(created.steps.map((s) => [s.step_name, s.status])).toEqual([
      ['acquire_content', 'PENDING'],
      ['split_chapters', 'PENDING'],
      ['synthesize', 'PENDING'],
      ['analyze', 'PENDING'],
      ['finalize', 'PENDING'],
    ]);

    const job = await waitForJob(t, headers, created.id);
    expect(job.status).toBe('COMPLETED');
    expect(job.error_message).toBeNull();
    expect(job.progress).toBe(100);
    expect(job.steps.map((s) => s.step_name)).toEqual([
      'acquire_content',
      'split_chapters',
      'synthesize',
      'analyze',
      'finalize',
    ]);
    expect(job.steps.every((s) => s.status === 'COMPLETED')).toBe(true);
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM job_steps WHERE job_id = $1', [
      job.id,
    ]);
    expect(rows[0]?.n).toBe(5);

    expect(job.result_data.format).toBe('mp3');
    expect(job.result_data.tts_engine).toBe('espeak-ng');
    expect(job.result_data.duration_seconds).toBeGreaterThan(1);
    expect(job.duration).toBe(job.result_data.duration_seconds);
    expect(job.config.tutoring_analysis).toBeDefined();
    // The analysis ran beside the voice, while synthesize ran: analyze found it kept.
    const analyze = job.steps.find((s) => s.step_name === 'analyze')!;
    expect(analyze.step_metadata).toMatchObject({
      ran_beside_synthesis: true,
      discussion_questions: expect.any(Number),
    });
    const synthesizing = job.steps.find((s) => s.step_name === 'synthesize')!;
    const analysedAt = Date.parse((job.config.tutoring_analysis as { analyzed_at: string }).analyzed_at);
    expect(analysedAt).toBeGreaterThanOrEqual(Date.parse(synthesizing.started_at!));
    expect(analysedAt).toBeLessThanOrEqual(Date.parse(synthesizing.completed_at!));
    const synth = job.steps.find((s) => s.step_name === 'synthesize')!;
    expect(synth.step_metadata).toMatchObject({ engine: 'espeak-ng', stand_in: true, provider: 'openai' });

    const key = job.output_file_key!;
    expect(key).toMatch(/\.mp3$/);
    const stat = await t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers });
    expect(stat.statusCode).toBe(200);
    // The list says what really spoke, so the library can label the offline voice honestly.
    const listed = (stat.json() as { jobs: { id: string; result_data: Record<string, unknown> }[] }).jobs.find(
      (j) => j.id === job.id,
    );
    expect(listed?.result_data.tts_engine).toBe('espeak-ng');
    const { LocalFileStorage } = await import('../storage/local');
    const storage = new LocalFileStorage(t.config.storageDir);
    expect((await storage.stat(key))?.size).toBe(job.result_data.file_size_bytes);
    const measured = await mp3DurationSeconds(storage.read(key));
    expect(Math.abs(measured - job.result_data.duration_seconds!)).toBeLessThan(0.2);
    const timing = JSON.parse(
      await new Promise<string>((resolve, reject) => {
        let s = '';
        storage
          .read(`${key}.timing.json`)
          .on('data', (c) => (s += String(c)))
          .on('end', () => resolve(s))
          .on('error', reject);
      }),
    ) as { start: number; end: number; char_start: number; char_end: number }[];
    expect(timing.length).toBe(3);
    expect(timing[0]).toMatchObject({ start: 0, char_start: 0 });
    expect(timing[2]!.end).toBeCloseTo(job.result_data.duration_seconds!, 2);
  });

  it('is invisible to another user (404); once completed, a cancel is refused and DELETE ?delete=true removes it', async () => {
    const res = await createJob(t, headers, { title: 'Short', content: SHORT_TEXT });
    const id = (res.json() as { id: string }).id;
    await waitForJob(t, headers, id);

    const other = await signIn(t, 'other@example.com');
    for (const [method, url] of [
      ['GET', `/api/v1/jobs/${id}`],
      ['GET', `/api/v1/jobs/${id}/steps`],
      ['DELETE', `/api/v1/jobs/${id}`],
      ['POST', `/api/v1/jobs/${id}/retry`],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: other });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json()).toMatchObject({ detail: 'Job not found' });
    }
    const job = await getJob(t, headers, id);
    expect(job.status).toBe('COMPLETED');

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}`, headers })).statusCode).toBe(409);
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}?delete=true`, headers });
    expect(remove.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers })).statusCode).toBe(404);
  });
});

describe('the processes a conversion starts', () => {
  it.skipIf(!nativeSpeechLikely())(
    'are all waited for: no zombie is left after a conversion with the native voice',
    async () => {
      const res = await createJob(t, headers, { title: 'Mill', content: longText(80) });
      expect(res.statusCode).toBe(201);
      const job = await waitForJob(t, headers, (res.json() as { id: string }).id);
      expect(job.status).toBe('COMPLETED');
      expect(job.steps.find((s) => s.step_name === 'synthesize')!.step_metadata).toMatchObject({
        engine: 'espeak-ng',
      });
      // Every host and compiler the conversion started has been waited for.
      for (let i = 0; i < 50 && zombiesBelow(process.pid, SERVER_CHILD_PROGRAMS) > 0; i += 1)
        await new Promise((r) => setTimeout(r, 20));
      expect(zombiesBelow(process.pid, SERVER_CHILD_PROGRAMS)).toBe(0);
    },
  );
});
