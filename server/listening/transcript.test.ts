import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, SHORT_TEXT, signIn, waitForJob } from '../testing/jobs';

// The real conversion (offline voice, in-process worker): the transcript comes from the timing map
// and the text the pipeline itself stored.
let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ env: { ENCODER_THREADS: '0' }, conversion: { stepRetryDelayMs: 10 } });
  headers = await signIn(t, 'read.along@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe('the transcript of a converted text', () => {
  it(
    'has each sentence of the text once, in order, spoken one after another within the audio',
    { timeout: 120_000 },
    async () => {
      const created = (await createJob(t, headers, { title: 'Lighthouse', content: SHORT_TEXT })).json() as {
        id: string;
      };
      const job = await waitForJob(t, headers, created.id, undefined, 90_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${job.id}/transcript`, headers });
      expect(res.statusCode).toBe(200);
      const body = res.json() as {
        chapter_count: number;
        sentences: { start: number; end: number; text: string; char_start: number; char_end: number }[];
      };
      expect(body.chapter_count).toBe(1);
      expect(body.sentences.map((s) => s.text)).toEqual([
        'The lighthouse keeper climbed the stairs at dusk.',
        'He lit the great lamp and watched the ships.',
        'The sea was calm that night, and the stars were bright above the bay.',
      ]);
      for (const s of body.sentences) expect(SHORT_TEXT.slice(s.char_start, s.char_end)).toBe(s.text);
      for (const [i, s] of body.sentences.entries()) {
        expect(s.end).toBeGreaterThan(s.start);
        if (i > 0) expect(s.start).toBeGreaterThanOrEqual(body.sentences[i - 1]!.end - 0.001);
      }
      expect(body.sentences.at(-1)!.end).toBeLessThanOrEqual((job.duration ?? 0) + 0.05);
    },
  );
});
