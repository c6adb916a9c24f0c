import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { decodeMp3, readAll } from '../testing/audio';
import { createJob, getJob, signIn, waitForJob, type JobBody } from '../testing/jobs';
import { appStorage } from '../testing/library-fixtures';
import { startFakeVoiceServer, type FakeVoiceServer } from '../testing/voice-server';

// Books read by a voice server of Kokoro-FastAPI's protocol, started by the test: the real app
// and its real client, pointed at it (TTS_SERVER_URL).

const BOOK = [
  'Chapter 1',
  '',
  'The fox ran over the hill at dawn. It was looking for breakfast in the cold morning light.',
  '',
  'Chapter 2',
  '',
  'Hermione woke up and fed the chickens. She did not see the fox hiding by the old barn.',
  '',
  'Chapter 3',
  '',
  'At noon the fox slept under a tree. The chickens were safe for one more day on the farm.',
].join('\n');

interface Sentence {
  start: number;
  end: number;
  text: string;
  words?: { start: number; end: number; char_start: number; char_end: number }[];
}

async function setUp(captions: boolean) {
  const fake = await startFakeVoiceServer({ captions, voices: ['af_heart', 'bm_george'] });
  const t = await createTestApp({
    env: {
      TTS_SERVER_URL: fake.url,
      TTS_SERVER_NAME: 'Kokoro',
      TTS_SERVER_CONCURRENCY: '2',
      ENCODER_THREADS: '0',
      CHAPTER_CONCURRENCY: '1',
    },
    conversion: {
      stepAttempts: 2,
      stepRetryDelayMs: 10,
      voiceServer: { retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 } },
    },
  });
  const headers = await signIn(t, `reader-${captions ? 'words' : 'sentences'}@example.com`);
  return { fake, t, headers };
}

async function transcript(t: TestApp, headers: Record<string, string>, jobId: string, chapter: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/audio/${jobId}/transcript?chapter=${chapter}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { sentences: Sentence[] }).sentences;
}

async function convert(t: TestApp, headers: Record<string, string>, payload: Record<string, unknown>) {
  const created = await createJob(t, headers, payload);
  expect(created.statusCode, created.body).toBe(201);
  return waitForJob(t, headers, (created.json() as { id: string }).id, undefined, 90_000);
}

describe('a book read by the voice server (no word timings)', () => {
  let fake: FakeVoiceServer;
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => ({ fake, t, headers } = await setUp(false)));
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it(
    "has the server's audio, its chapters, and each sentence where the server said it",
    { timeout: 120_000 },
    async () => {
      const book = await convert(t, headers, {
        title: 'Fox Tales',
        content: BOOK,
        voice_config: { provider: 'openai_compatible', voice_id: 'bm_george' },
      });
      expect(book.status, book.error_message ?? '').toBe('COMPLETED');
      expect(book.result_data.tts_engine).toBe('openai_compatible');
      expect(book.config.voice_config).toEqual({ provider: 'openai_compatible', voice_id: 'bm_george' });
      expect(book.result_data.chapters?.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);

      const posted = fake.received.filter((r) => r.method === 'POST' && r.path === '/v1/audio/speech');
      expect(posted.every((r) => r.body?.voice === 'bm_george' && r.body?.model === 'kokoro')).toBe(true);
      for (const [i, child] of book.children.entries()) {
        const sentences = await transcript(t, headers, book.id, i + 1);
        // One request per sentence: every sentence of the chapter, and nothing else.
        expect(
          fake
            .spoken()
            .filter((s) => sentences.some((x) => x.text === s))
            .sort(),
        ).toEqual(sentences.map((s) => s.text).sort());
        // Each sentence lasts as long as the server's audio for it, one after the other.
        let at = 0;
        for (const s of sentences) {
          expect(s.start).toBeCloseTo(at, 2);
          expect(s.end).toBeCloseTo(at + fake.secondsFor(s.text), 2);
          expect(s.words).toBeUndefined();
          at += fake.secondsFor(s.text);
        }
        expect(child.duration).toBeCloseTo(at, 2);
      }
      expect(fake.spoken()).toHaveLength(posted.length);

      // The MP3 is the server's tone (330 Hz), not another voice.
      const storage = appStorage(t.config);
      const chapter = await getJob(t, headers, book.children[0]!.id);
      const { samples, sampleRate } = await decodeMp3(await readAll(storage.read(chapter.output_file_key!)));
      const window = samples.subarray(Math.round(0.05 * sampleRate), Math.round(0.15 * sampleRate));
      let crossings = 0;
      for (let i = 1; i < window.length; i++) if (window[i - 1]! < 0 !== window[i]! < 0) crossings += 1;
      expect(crossings / 2 / 0.1).toBeGreaterThan(300);
      expect(crossings / 2 / 0.1).toBeLessThan(360);
    },
  );

  it(
    'fails the chapter clearly when the server goes down mid-book, and a retry completes it',
    { timeout: 150_000 },
    async () => {
      fake.goDownWhen((input) => input.startsWith('Hermione woke up'));
      const created = await createJob(t, headers, {
        title: 'Down Tales',
        content: BOOK,
        voice_config: { provider: 'openai_compatible', voice_id: 'af_heart' },
      });
      const id = (created.json() as { id: string }).id;
      const failed = await waitForJob(t, headers, id, undefined, 90_000);
      expect(failed.status).toBe('FAILED');
      expect(failed.error_message).toMatch(/^Chapter 2 failed: Kokoro could not be reached/);
      const second = await getJob(t, headers, failed.children[1]!.id);
      expect(second.steps.find((s) => s.step_name === 'synthesize')).toMatchObject({
        status: 'FAILED',
        error_message: expect.stringMatching(
          /^Kokoro could not be reached \((ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET)\): retried 1 time, giving up$/,
        ),
      });
      expect(failed.children[0]!.status).toBe('COMPLETED');

      await fake.up();
      const before = fake.spoken().length;
      const retry = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/retry`, headers });
      expect(retry.statusCode).toBe(200);
      const done: JobBody = await waitForJob(t, headers, id, undefined, 90_000);
      expect(done.status, done.error_message ?? '').toBe('COMPLETED');
      const again = fake.spoken().slice(before);
      // Chapter 1 is not read again; chapters 2 and 3 are.
      expect(again.some((s) => s.startsWith('The fox ran over the hill'))).toBe(false);
      expect(again).toContain('Hermione woke up and fed the chickens.');
      expect(again).toContain('The chickens were safe for one more day on the farm.');
      expect(done.result_data.chapters).toHaveLength(3);
    },
  );
});

describe('a voice server that times its words', () => {
  let fake: FakeVoiceServer;
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => ({ fake, t, headers } = await setUp(true)));
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('gives the read-along every word with its time', { timeout: 120_000 }, async () => {
    const job = await convert(t, headers, {
      title: 'Words',
      content:
        'The keeper climbed the stairs at dusk, slowly. He lit the great lamp and watched the ships. ' +
        'The sea was calm that night, and the stars were bright above the bay.',
      job_type: 'text_to_audio',
      voice_config: { provider: 'openai_compatible', voice_id: 'af_heart' },
    });
    expect(job.status, job.error_message ?? '').toBe('COMPLETED');
    expect(job.steps.find((s) => s.step_name === 'synthesize')?.step_metadata.word_timings).toBe(true);
    const sentences = await transcript(t, headers, job.id, 1);
    const text = sentences.map((s) => s.text).join(' ');
    expect(sentences[0]!.words?.map((w) => text.slice(w.char_start, w.char_end))).toEqual([
      'The',
      'keeper',
      'climbed',
      'the',
      'stairs',
      'at',
      'dusk',
      'slowly',
    ]);
    for (const s of sentences) {
      expect(s.words?.[0]?.start).toBeCloseTo(s.start, 2);
      const starts = s.words!.map((w) => w.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
    // The second sentence's words come after the first sentence's audio (0.25 s a word).
    expect(sentences[1]!.words![0]!.start).toBeCloseTo(8 * 0.25, 2);
  });

  it(
    "reads the pronunciations, keeps the book's words in the transcript, and re-converts only changed chapters",
    { timeout: 180_000 },
    async () => {
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/pronunciations',
        headers,
        payload: [{ text: 'hermione', say_as: 'Her-my-oh-nee' }],
      });
      expect(put.statusCode, put.body).toBe(200);
      const book = await convert(t, headers, {
        title: 'Said Right',
        content: BOOK,
        voice_config: { provider: 'openai_compatible', voice_id: 'af_heart' },
      });
      expect(book.status, book.error_message ?? '').toBe('COMPLETED');
      const spoken = fake.spoken();
      expect(spoken).toContain('Her-my-oh-nee woke up and fed the chickens.');
      expect(spoken.some((s) => s.includes('Hermione'))).toBe(false);
      const chapter2 = await transcript(t, headers, book.id, 2);
      const said = chapter2.find((s) => s.text.startsWith('Hermione'));
      expect(said?.text).toBe('Hermione woke up and fed the chickens.');
      // The replaced word keeps its place in the read-along: one word, as long as the book writes it.
      const first = said!.words![0]!;
      expect(first.char_end - first.char_start).toBe('Hermione'.length);
      expect(said!.words).toHaveLength(7);

      // Nothing changed since: nothing to re-convert.
      const unchanged = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${book.id}/reconvert`, headers });
      expect(unchanged.statusCode, unchanged.body).toBe(200);
      expect(unchanged.json()).toEqual({ chapters: [], status: 'COMPLETED' });

      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/pronunciations',
        headers,
        payload: [
          { text: 'Hermione', say_as: 'Her-mine-ee' },
          { text: 'zeppelin', say_as: 'zep-lin' },
        ],
      });
      const before = fake.spoken().length;
      const reconvert = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${book.id}/reconvert`, headers });
      expect(reconvert.statusCode, reconvert.body).toBe(200);
      expect(reconvert.json()).toEqual({ chapters: [2], status: 'PENDING' });
      const done = await waitForJob(t, headers, book.id, undefined, 90_000);
      expect(done.status, done.error_message ?? '').toBe('COMPLETED');
      expect(fake.spoken().slice(before).sort()).toEqual(
        [
          'Chapter 2',
          'Her-mine-ee woke up and fed the chickens.',
          'She did not see the fox hiding by the old barn.',
        ].sort(),
      );
      expect((await transcript(t, headers, book.id, 2)).map((s) => s.text)).toContain(
        'Hermione woke up and fed the chickens.',
      );
      expect(done.result_data.chapters).toHaveLength(3);
    },
  );

  it("refuses a re-conversion of a book that is not finished, or of another user's", async () => {
    const other = await signIn(t, 'someone-else@example.com');
    const created = await createJob(t, headers, {
      title: 'Busy',
      content: BOOK,
      voice_config: { provider: 'openai_compatible', voice_id: 'af_heart' },
    });
    const id = (created.json() as { id: string }).id;
    const busy = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/reconvert`, headers });
    expect(busy.statusCode).toBe(409);
    const theirs = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/reconvert`, headers: other });
    expect(theirs.statusCode).toBe(404);
    await waitForJob(t, headers, id, undefined, 90_000);
  });
});
