import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { readAll } from '../testing/audio';
import { splitIntoChunks } from '../tts/chunking';
import { convertedBook, createJob, getJob, signIn, waitForJob } from '../testing/jobs';
import { appStorage } from '../testing/library-fixtures';
import { startFakeVoiceServer, type FakeVoiceServer } from '../testing/voice-server';

// A book with a full cast read by a voice server of Kokoro-FastAPI's protocol, started by the
// test: the real app, the real attribution, and the server's log of which voice read each input.

const BOOK = [
  'Chapter 1',
  '',
  'Mary Stone opened the door. "Who is there?" Mary asked.',
  '',
  '"It is only me," said John Black. He stepped inside.',
  '',
  'Chapter 2',
  '',
  'The rain fell all night on the farm.',
  '',
  'Chapter 3',
  '',
  '"Did you sleep?" asked John.',
  '',
  '"Not at all," Mary said. She poured the tea.',
].join('\n');

interface CastBody {
  narrator: { voice_id: string };
  characters: { id: string; name: string; gender: string; voice_id: string; lines: number }[];
}

interface Sentence {
  start: number;
  end: number;
  text: string;
  char_start: number;
  spans?: { char_start: number; char_end: number; speaker: string; quote_start?: number }[];
}

describe('a book with a full cast', () => {
  let fake: FakeVoiceServer;
  let t: TestApp;
  let headers: Record<string, string>;
  let other: Record<string, string>;
  let bookId: string;

  const speech = () =>
    fake.received
      .filter((r) => r.method === 'POST' && r.path === '/v1/audio/speech')
      .map((r) => ({ input: String(r.body?.input), voice: String(r.body?.voice) }));
  const voiceOf = (input: string) => speech().find((s) => s.input === input)?.voice;
  const getCast = async (h: Record<string, string>, id = bookId) =>
    t.app.inject({ method: 'GET', url: `/api/v1/audio/${id}/cast`, headers: h });
  const putCast = (payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/v1/audio/${bookId}/cast`, headers, payload: payload as object });
  const transcript = async (chapter: number): Promise<Sentence[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${bookId}/transcript?chapter=${chapter}`,
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { sentences: Sentence[] }).sentences;
  };
  const chapterAudio = async (order: number) => {
    const book = await getJob(t, headers, bookId);
    const chapter = await getJob(t, headers, book.children[order - 1]!.id);
    return readAll(appStorage(t.config).read(chapter.output_file_key!));
  };

  beforeAll(async () => {
    fake = await startFakeVoiceServer({ voices: ['af_heart', 'af_bella', 'bm_george', 'am_adam'] });
    t = await createTestApp({
      env: { TTS_SERVER_URL: fake.url, TTS_SERVER_NAME: 'Kokoro', ENCODER_THREADS: '0', CHAPTER_CONCURRENCY: '1' },
      conversion: { stepAttempts: 2, stepRetryDelayMs: 10 },
    });
    headers = await signIn(t, 'cast-reader@example.com');
    other = await signIn(t, 'cast-other@example.com');
    bookId = await convertedBook(t, headers, {
      title: 'Rainy Farm',
      content: BOOK,
      voice_config: { provider: 'openai_compatible', voice_id: 'af_heart', cast: true },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('previews the cast a book would have, with the voices the reader chose', async () => {
    const preview = async (voice_config: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/jobs/preview',
        headers,
        payload: { title: 'Rainy Farm', content: BOOK, voice_config },
      });
    const plain = await preview({ provider: 'openai_compatible', voice_id: 'af_heart' });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json()).not.toHaveProperty('cast');
    const first = await preview({ provider: 'openai_compatible', voice_id: 'af_heart', cast: true });
    expect(first.statusCode, first.body).toBe(200);
    const cast = (first.json() as { cast: CastBody }).cast;
    expect(cast.narrator).toEqual({ voice_id: 'af_heart' });
    const mary = cast.characters.find((c) => c.name.startsWith('Mary'))!;
    expect(mary).toMatchObject({ gender: 'female', voice_id: 'af_bella', lines: 2 });
    // A voice the reader chose is the character's; one the provider does not list is not.
    const john = cast.characters.find((c) => c.name.startsWith('John'))!;
    const chosen = await preview({
      provider: 'openai_compatible',
      voice_id: 'af_heart',
      cast: true,
      cast_voices: { [mary.id]: 'am_adam', [john.id]: 'no-such-voice' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const again = (chosen.json() as { cast: CastBody }).cast.characters;
    expect(again.find((c) => c.id === mary.id)?.voice_id).toBe('am_adam');
    expect(again.find((c) => c.id === john.id)?.voice_id).toBe(john.voice_id);
  });

  it('gives each character a voice of their own, distinct from the narrator', async () => {
    const book = await getJob(t, headers, bookId);
    expect(book.config.voice_config).toEqual({ provider: 'openai_compatible', voice_id: 'af_heart', cast: true });
    const res = await getCast(headers);
    expect(res.statusCode, res.body).toBe(200);
    const cast = res.json() as CastBody;
    expect(cast.narrator).toEqual({ voice_id: 'af_heart' });
    const mary = cast.characters.find((c) => c.name.startsWith('Mary'))!;
    const john = cast.characters.find((c) => c.name.startsWith('John'))!;
    expect(mary).toMatchObject({ gender: 'female', voice_id: 'af_bella', lines: 2 });
    expect(john).toMatchObject({ lines: 2 });
    // Who attribution cannot tell the gender of still gets a voice no one else has.
    expect(['bm_george', 'am_adam']).toContain(john.voice_id);
  });

  it("speaks each quoted span in its speaker's voice and the narration in the narrator's", async () => {
    const { characters } = (await (await getCast(headers)).json()) as CastBody;
    const voice = (name: string) => characters.find((c) => c.name.startsWith(name))!.voice_id;
    expect(voiceOf('"Who is there?"')).toBe(voice('Mary'));
    expect(voiceOf('"It is only me,"')).toBe(voice('John'));
    expect(voiceOf('"Did you sleep?"')).toBe(voice('John'));
    expect(voiceOf('"Not at all,"')).toBe(voice('Mary'));
    expect(voiceOf('said John Black.')).toBe('af_heart');
    expect(voiceOf('Mary Stone opened the door.')).toBe('af_heart');
    expect(voiceOf('The rain fell all night on the farm.')).toBe('af_heart');
    // No quote is read by anyone else, and nothing is read twice.
    expect(speech().filter((s) => s.input.includes('"') && s.voice === 'af_heart')).toEqual([]);
    expect(new Set(fake.spoken()).size).toBe(fake.spoken().length);
  });

  it('keeps one timed sentence per sentence, cut into who speaks each part', async () => {
    const { characters } = (await (await getCast(headers)).json()) as CastBody;
    const john = characters.find((c) => c.name.startsWith('John'))!.id;
    const sentences = await transcript(1);
    const said = sentences.find((s) => s.text === '"It is only me," said John Black.')!;
    expect(said).toBeDefined();
    const quoteEnd = said.char_start + '"It is only me,"'.length;
    expect(said.spans).toEqual([
      { char_start: said.char_start, char_end: quoteEnd, speaker: john, quote_start: said.char_start },
      { char_start: quoteEnd, char_end: said.char_start + said.text.length, speaker: 'narrator' },
    ]);
    // The sentence lasts as long as its two parts, read one after the other.
    expect(said.end - said.start).toBeCloseTo(
      fake.secondsFor('"It is only me,"') + fake.secondsFor('said John Black.'),
      2,
    );
    let at = 0;
    for (const s of sentences) {
      expect(s.start).toBeCloseTo(at, 2);
      at = s.end;
    }
    // The chapter asked for by its own id says the same.
    const chapter1 = (await getJob(t, headers, bookId)).children[0]!.id;
    const own = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${chapter1}/transcript`, headers });
    expect((own.json() as { sentences: Sentence[] }).sentences).toEqual(sentences);
    // A chapter without quotes is all narration.
    expect((await transcript(2)).every((s) => s.spans?.every((p) => p.speaker === 'narrator'))).toBe(true);
  });

  it("answers 404 for another reader's book and for a book without a cast", async () => {
    expect((await getCast(other)).statusCode).toBe(404);
    const plain = await createJob(t, headers, {
      title: 'Plain',
      content:
        'The hens slept in the barn. The fox did not come that night, nor the next. ' +
        'In the morning the farmer counted them all and found every one of them there.',
      voice_config: { provider: 'openai_compatible', voice_id: 'af_heart' },
    });
    expect(plain.statusCode, plain.body).toBe(201);
    const plainId = (plain.json() as { id: string }).id;
    expect((await getCast(headers, plainId)).statusCode).toBe(404);
    await waitForJob(t, headers, plainId, undefined, 60_000);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/audio/${bookId}/cast`,
      headers: other,
      payload: { voices: { narrator: 'am_adam' } },
    });
    expect(put.statusCode).toBe(404);
  });

  it('refuses a voice, a character or a line the book does not have, and bad bodies, without a 500', async () => {
    const { characters } = (await (await getCast(headers)).json()) as CastBody;
    const mary = characters.find((c) => c.name.startsWith('Mary'))!.id;
    const refused = [
      { voices: { [mary]: 'no_such_voice' } },
      { voices: { nobody: 'am_adam' } },
      { voices: { [`${mary}\u0000`]: 'am_adam' } },
      { overrides: [{ chapter: 1, char_start: 0, speaker: mary }] },
      { overrides: [{ chapter: 9, char_start: 0, speaker: mary }] },
      { overrides: [{ chapter: 3, char_start: 11, speaker: 'nobody\u0000' }] },
    ];
    for (const payload of refused) {
      const res = await putCast(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toMatchObject({ detail: expect.any(String), message: expect.any(String) });
    }
    for (const payload of [{ voices: 'am_adam' }, { overrides: [{ chapter: '1', char_start: -1 }] }, [1, 2]]) {
      const res = await putCast(payload);
      expect([400, 422], `${JSON.stringify(payload)}: ${res.body}`).toContain(res.statusCode);
    }
    const huge = await putCast({
      voices: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`c${i}`, 'x'])),
    });
    expect(huge.statusCode).toBe(413);
    // Nothing was kept.
    expect(((await (await getCast(headers)).json()) as CastBody).characters).toEqual(characters);
  });

  it('reads a reassigned line again in its new voice, and converts no other chapter again', async () => {
    const { characters } = (await (await getCast(headers)).json()) as CastBody;
    const john = characters.find((c) => c.name.startsWith('John'))!;
    const chapter3 = await transcript(3);
    const line = chapter3.find((s) => s.text.startsWith('"Not at all,"'))!;
    const before = [await chapterAudio(1), await chapterAudio(2)];
    const asked = speech().length;

    const res = await putCast({ overrides: [{ chapter: 3, char_start: line.char_start, speaker: john.id }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ chapters_reconverting: [3] });
    // The book plays on meanwhile: its other chapters stream as they did.
    const playing = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${bookId}/metadata`, headers });
    expect(playing.statusCode, playing.body).toBe(200);
    const first = (await getJob(t, headers, bookId)).children[0]!.id;
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/audio/${first}/stream`, headers })).statusCode).toBe(200);
    const done = await waitForJob(t, headers, bookId, undefined, 90_000);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');

    const again = speech().slice(asked);
    expect(again).toContainEqual({ input: '"Not at all,"', voice: john.voice_id });
    expect(again.some((s) => s.input.includes('Mary Stone') || s.input.includes('rain'))).toBe(false);
    expect([await chapterAudio(1), await chapterAudio(2)]).toEqual(before);
    const cast = (await (await getCast(headers)).json()) as CastBody;
    expect(cast.characters.find((c) => c.id === john.id)?.lines).toBe(3);
    expect((await transcript(3)).find((s) => s.text.startsWith('"Not at all,"'))?.spans?.[0]?.speaker).toBe(john.id);

    // The same correction again changes nothing: nothing is converted.
    const same = await putCast({ overrides: [{ chapter: 3, char_start: line.char_start, speaker: john.id }] });
    expect(same.json()).toMatchObject({ chapters_reconverting: [] });
  });

  it(
    "reads a text with the offline voice's variants, one timed sentence per sentence",
    { timeout: 90_000 },
    async () => {
      const content =
        'Mary Stone opened the door of the old house. "Who is there?" Mary asked.\n\n' +
        '"It is only me," said John Black, and he stepped inside out of the rain.';
      const created = await createJob(t, headers, {
        title: 'Offline Cast',
        content,
        job_type: 'text_to_audio',
        voice_config: { provider: 'offline', voice_id: 'en-us+f3', cast: true },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = (created.json() as { id: string }).id;
      const job = await waitForJob(t, headers, id, undefined, 60_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      const cast = (await (await getCast(headers, id)).json()) as CastBody;
      const voices = cast.characters.map((c) => c.voice_id);
      expect(voices).toHaveLength(2);
      expect(new Set([...voices, 'en-us+f3']).size).toBe(3);
      const synthesize = job.steps.find((s) => s.step_name === 'synthesize')!.step_metadata;
      expect(new Set(synthesize.cast_voices as string[])).toEqual(new Set(['en-us+f3', ...voices]));

      const res = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${id}/transcript`, headers });
      const sentences = (res.json() as { sentences: Sentence[] }).sentences;
      // The sentences are the text's own, as one voice would have read them, however many voices read each.
      expect(sentences.map((s) => s.text)).toEqual(
        splitIntoChunks(content, 10_000)
          .flatMap((c) => c.sentences)
          .map((x) => content.slice(x.start, x.end)),
      );
      const john = cast.characters.find((c) => c.name.startsWith('John'))!.id;
      const said = sentences.find((s) => s.text.startsWith('"It is only me,"'))!;
      expect(said.spans!.map((p) => p.speaker)).toEqual([john, 'narrator']);
      for (const [i, s] of sentences.entries()) {
        expect(s.end).toBeGreaterThan(s.start);
        if (i > 0) expect(s.start).toBeCloseTo(sentences[i - 1]!.end, 2);
      }
      expect(sentences.at(-1)!.end).toBeCloseTo(job.duration!, 2);
    },
  );
});
