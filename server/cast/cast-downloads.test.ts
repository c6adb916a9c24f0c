import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { loudestTone } from '../testing/audio';
import { convertedBook, signIn, waitForJob } from '../testing/jobs';
import { decodeAudio, unzipEntry, unzipList } from '../testing/readers';
import { startFakeVoiceServer, type FakeVoiceServer } from '../testing/voice-server';

// A cast book goes everywhere with its cast: the M4B, the MP3, the ZIP, the EPUB and the podcast
// feed play each quoted line in its speaker's voice, and a corrected line is heard corrected in
// each of them. The voice server reads every voice at a tone of its own, so the test listens to
// the files (decoded by ffmpeg, as a player would) at the times the transcript gives.

const TONES: Record<string, number> = { af_heart: 300, af_bella: 500, bm_george: 700, am_adam: 900 };
const SAMPLE_RATE = 16_000;

const BOOK = [
  'Chapter 1',
  '',
  'Mary Stone opened the door. "Who is there?" Mary asked.',
  '',
  '"It is only me," said John Black. He stepped inside.',
  '',
  'Chapter 2',
  '',
  'The rain fell all night on the farm. "Go to sleep," Mary said.',
].join('\n');

interface Sentence {
  start: number;
  text: string;
  char_start: number;
  spans?: { char_start: number; char_end: number; speaker: string }[];
}

/** A stretch of the book read by one speaker: where it is heard, in seconds from the book's start. */
interface Heard {
  chapter: number;
  text: string;
  speaker: string;
  from: number;
  to: number;
}

describe('a cast book in its downloads and feed', { timeout: 240_000 }, () => {
  let fake: FakeVoiceServer;
  let t: TestApp;
  let headers: Record<string, string>;
  let bookId: string;
  let voiceOf: Map<string, string>;
  const dir = mkdtempSync(path.join(tmpdir(), 'lectio-cast-downloads-'));

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers });

  /** Every span of the book with its time, from the metadata's chapter starts and the transcript. */
  async function heard(): Promise<Heard[]> {
    const chapters = (await get(`/api/v1/audio/${bookId}/metadata`)).json() as { chapters: { start: number }[] };
    const out: Heard[] = [];
    for (const [i, chapter] of chapters.chapters.entries()) {
      const res = await get(`/api/v1/audio/${bookId}/transcript?chapter=${i + 1}`);
      expect(res.statusCode, res.body).toBe(200);
      for (const s of (res.json() as { sentences: Sentence[] }).sentences) {
        // The parts of a sentence are read one after the other, each as long as the server makes it.
        let at = chapter.start + s.start;
        for (const span of s.spans ?? []) {
          const text = s.text.slice(span.char_start - s.char_start, span.char_end - s.char_start).trim();
          const seconds = fake.secondsFor(text);
          out.push({ chapter: i + 1, text, speaker: span.speaker, from: at, to: at + seconds });
          at += seconds;
        }
      }
    }
    return out;
  }

  /** The voice a speaker has in the book's cast (the narrator's for `narrator`). */
  async function castVoices(): Promise<Map<string, string>> {
    const cast = (await get(`/api/v1/audio/${bookId}/cast`)).json() as {
      narrator: { voice_id: string };
      characters: { id: string; name: string; voice_id: string }[];
    };
    return new Map([['narrator', cast.narrator.voice_id], ...cast.characters.map((c) => [c.id, c.voice_id] as const)]);
  }

  /** Asks for a download until it is built; the file, saved for the readers. */
  async function download(format: string): Promise<string> {
    for (;;) {
      const res = await get(`/api/v1/audio/${bookId}/download?format=${format}`);
      if (res.statusCode === 200) {
        const file = path.join(dir, `${format}-${Date.now()}.${format}`);
        writeFileSync(file, res.rawPayload);
        return file;
      }
      expect(res.statusCode, res.body).toBe(202);
      await sleep(200);
    }
  }

  /** The voice heard over each stretch of `samples` (which start at `offset` seconds of the book). */
  function voicesHeard(samples: Float32Array, spans: Heard[], offset = 0): string[] {
    const byTone = new Map(Object.entries(TONES).map(([voice, hz]) => [hz, voice]));
    return spans.map((s) => {
      // A little in from each end: the encoders' delay and the silence after the last word.
      const hz = loudestTone(samples, SAMPLE_RATE, s.from - offset + 0.06, s.to - offset - 0.08, Object.values(TONES));
      return byTone.get(hz)!;
    });
  }

  const expected = (spans: Heard[]) => spans.map((s) => voiceOf.get(s.speaker)!);

  beforeAll(async () => {
    fake = await startFakeVoiceServer({ voices: Object.keys(TONES), toneHzByVoice: TONES });
    t = await createTestApp({
      env: { TTS_SERVER_URL: fake.url, TTS_SERVER_NAME: 'Kokoro', ENCODER_THREADS: '0', CHAPTER_CONCURRENCY: '1' },
      conversion: { stepAttempts: 2, stepRetryDelayMs: 10 },
    });
    headers = await signIn(t, 'cast-downloads@example.com');
    bookId = await convertedBook(t, headers, {
      title: 'Rainy Farm',
      content: BOOK,
      voice_config: { provider: 'openai_compatible', voice_id: 'af_heart', cast: true },
    });
    voiceOf = await castVoices();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('is cast: its quotes are read by characters with voices of their own', async () => {
    const spans = await heard();
    expect(spans.filter((s) => s.speaker !== 'narrator').map((s) => s.text)).toEqual([
      '"Who is there?"',
      '"It is only me,"',
      '"Go to sleep,"',
    ]);
    expect(new Set(expected(spans)).size).toBe(3);
  });

  it("plays every line in its speaker's voice in the M4B and the MP3 of the whole book", async () => {
    const spans = await heard();
    for (const format of ['m4b', 'mp3']) {
      const samples = await decodeAudio(await download(format), SAMPLE_RATE);
      expect(voicesHeard(samples, spans), format).toEqual(expected(spans));
    }
  });

  it("plays every line in its speaker's voice in the ZIP's and the EPUB's chapter files", async () => {
    const spans = await heard();
    const starts = ((await get(`/api/v1/audio/${bookId}/metadata`)).json() as { chapters: { start: number }[] })
      .chapters;
    for (const format of ['zip', 'epub']) {
      const file = await download(format);
      const audio = (await unzipList(file)).filter((name) => name.endsWith('.mp3')).sort();
      expect(audio, format).toHaveLength(2);
      for (const [i, name] of audio.entries()) {
        const chapterFile = path.join(dir, `${format}-chapter-${i + 1}.mp3`);
        writeFileSync(chapterFile, await unzipEntry(file, name));
        const inChapter = spans.filter((s) => s.chapter === i + 1);
        const samples = await decodeAudio(chapterFile, SAMPLE_RATE);
        expect(voicesHeard(samples, inChapter, starts[i]!.start), `${format} ${name}`).toEqual(expected(inChapter));
      }
    }
  });

  it('hears a corrected line corrected in a download built again and in the feed, and no older file is offered', async () => {
    const feed = await t.app.inject({ method: 'POST', url: '/api/v1/feeds', headers, payload: { job_id: bookId } });
    expect(feed.statusCode, feed.body).toBe(201);
    const feedPath = new URL((feed.json() as { url: string }).url).pathname;
    const before = await heard();
    const line = before.find((s) => s.text === '"Who is there?"')!;
    const john = [...voiceOf.keys()].find((id) => id !== 'narrator' && id !== line.speaker)!;
    const sentence = (
      (await get(`/api/v1/audio/${bookId}/transcript?chapter=1`)).json() as { sentences: Sentence[] }
    ).sentences.find((s) => s.text.includes('"Who is there?"'))!;
    const quoteStart = sentence.spans!.find((s) => s.speaker === line.speaker)!.char_start;

    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/audio/${bookId}/cast`,
      headers,
      payload: { overrides: [{ chapter: 1, char_start: quoteStart, speaker: john }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const done = await waitForJob(t, headers, bookId, undefined, 90_000);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');

    // The files built before the correction are not offered as the book's.
    const { exports } = (await get(`/api/v1/audio/${bookId}/exports`)).json() as {
      exports: { format: string; status: string }[];
    };
    expect(exports.filter((e) => e.status === 'ready')).toEqual([]);

    const after = await heard();
    expect(after.find((s) => s.text === '"Who is there?"')!.speaker).toBe(john);
    const m4b = await decodeAudio(await download('m4b'), SAMPLE_RATE);
    expect(voicesHeard(m4b, after)).toEqual(expected(after));
    expect(voicesHeard(m4b, [line])).toEqual([voiceOf.get(john)]);

    // A podcast app reading the feed again gets the corrected chapter.
    const rss = await new Parser().parseString((await t.app.inject({ method: 'GET', url: feedPath })).body);
    const episode = await t.app.inject({ method: 'GET', url: new URL(rss.items[0]!.enclosure!.url).pathname });
    expect(episode.statusCode).toBe(200);
    const episodeFile = path.join(dir, 'episode-1.mp3');
    writeFileSync(episodeFile, episode.rawPayload);
    const chapterOne = after.filter((s) => s.chapter === 1);
    expect(voicesHeard(await decodeAudio(episodeFile, SAMPLE_RATE), chapterOne)).toEqual(expected(chapterOne));
  });
});
