import { afterAll, describe, expect, it } from 'vitest';
import { EncoderPool } from '../audio/encoder-pool';
import { createSpeaker, encodedSpeaking } from '../jobs/speech';
import { synthesizeToMp3 } from '../jobs/synthesis';
import type { TimingEntry } from '../jobs/timing';
import { tempStorage } from '../testing/audio';
import { splitIntoChunks } from './chunking';
import { createEspeakEngine, type EspeakEngine } from './espeak';
import { espeakHostBinary } from './espeak-host-build';
import { chooseSpeechPath, nativeSpeechPath, portableSpeechPath, type SpeechPath } from './speech-paths';

/** The native path's host, where it can be built here (CI has the compiler and both libraries' headers). */
const HOST = (await espeakHostBinary()).binary;

/** A chapter of prose: numbers, dashes, quotes and abbreviations, several requests long. */
const CHAPTER = [
  'The ferry left the harbour at a quarter past seven, as it had every weekday since 1987.',
  'Mara stood at the rail with her coat open — the wind off the water was colder than she remembered.',
  '"You came back," said Mr. Okafor, who had sold her the ticket, and who sold everyone their ticket.',
  'She had; eleven years, three cities and one marriage later, she had come back to the island.',
  'The lighthouse was white again. Someone had painted it, and the lamp turned as it always had.',
  'On the quay a dog barked at the gulls, and the gulls, as gulls do, ignored it entirely.',
  'It cost $4.50 to cross now, which was more than it used to be, and less than it should be.',
  'By the time the ferry docked the sun was up, and the town was putting out its chairs for the day.',
].join(' ');

describe('choosing the path at start (ESPEAK_ENGINE)', () => {
  const noHost = async () => ({ binary: null, reason: 'no C compiler (cc or gcc) on PATH' });

  it("'native' where the host cannot be built stops the start, saying why", async () => {
    await expect(chooseSpeechPath('native', undefined, noHost)).rejects.toThrow(
      'ESPEAK_ENGINE=native, but the native speech path cannot run here: no C compiler (cc or gcc) on PATH',
    );
  });

  it("'auto' takes the portable path there and says why; 'portable' never tries the host", async () => {
    const reasons: string[] = [];
    const auto = await chooseSpeechPath('auto', (reason) => reasons.push(reason), noHost);
    expect(auto.name).toBe('portable');
    expect(reasons).toEqual(['no C compiler (cc or gcc) on PATH']);
    let tried = false;
    const portable = await chooseSpeechPath('portable', undefined, async () => {
      tried = true;
      return noHost();
    });
    expect([portable.name, tried]).toEqual(['portable', false]);
    await auto.close();
    await portable.close();
  });

  it.skipIf(HOST === null)("'auto' is native where the host builds", async () => {
    const path = await chooseSpeechPath('auto');
    expect([path.name, path.encoder]).toEqual(['native', 'LAME (libmp3lame) in the eSpeak-NG host']);
    await path.close();
  });
});

/** The chapter's timing map as the synthesize step makes it on `path` (segments: encoder streams at once). */
async function timingMap(path: SpeechPath, pool: EncoderPool, segments: number): Promise<TimingEntry[]> {
  const engine: EspeakEngine = createEspeakEngine({ path });
  const env = await tempStorage();
  try {
    const pieces = splitIntoChunks(CHAPTER, engine.maxCharsPerRequest).map((c) => ({
      start: c.start,
      end: c.end,
      sentences: c.sentences,
    }));
    expect(pieces.length).toBeGreaterThan(2);
    const result = await synthesizeToMp3({
      text: CHAPTER,
      pieces,
      speak: createSpeaker(engine, 'en-us+f3', null),
      encoded: encodedSpeaking(engine, 'en-us+f3', null),
      lookahead: engine.concurrency ?? 1,
      storage: env.storage,
      key: 'jobs/j/audio.mp3',
      pool,
      segments,
      signal: new AbortController().signal,
      report: async () => undefined,
    });
    expect(result.encodedByVoice).toBe(path.name === 'native');
    return result.timings;
  } finally {
    await env.cleanup();
  }
}

describe.skipIf(HOST === null)('the same chapter on both paths', () => {
  const native = HOST === null ? null : nativeSpeechPath(HOST, 2);
  const portable = portableSpeechPath(2);
  const pool = new EncoderPool(2);
  afterAll(async () => {
    await native?.close();
    await portable.close();
    await pool.close();
  });

  it.each([1, 2])(
    'times every word of the chapter within 10 ms of the other path (%i encoder streams)',
    { timeout: 60_000 },
    async (segments) => {
      const a = await timingMap(native!, pool, segments);
      const b = await timingMap(portable, pool, segments);
      expect(a.map((t) => [t.char_start, t.char_end])).toEqual(b.map((t) => [t.char_start, t.char_end]));
      const wordsA = a.flatMap((t) => t.words ?? []);
      const wordsB = b.flatMap((t) => t.words ?? []);
      expect(wordsA.length).toBeGreaterThan(100);
      expect(wordsA.map((w) => [w.char_start, w.char_end])).toEqual(wordsB.map((w) => [w.char_start, w.char_end]));
      // The same eSpeak-NG on the same voice data, every request from the same state whichever
      // host or thread speaks it: the same samples, so the same times, up to the one place the
      // two builds of 1.52 read this text apart ("Mr." in this voice, 4 ms; see
      // docs/adr/0003-two-speech-paths.md) and the millisecond the times are rounded to.
      for (const [i, w] of wordsA.entries()) {
        const word = `"${CHAPTER.slice(w.char_start, w.char_end)}" (word ${i})`;
        expect(Math.abs(w.start - wordsB[i]!.start), `start of ${word}`).toBeLessThanOrEqual(0.01);
        expect(Math.abs(w.end - wordsB[i]!.end), `end of ${word}`).toBeLessThanOrEqual(0.01);
      }
      // Up to that word, exactly the same.
      const okafor = CHAPTER.indexOf('Mr.');
      const before = (m: TimingEntry[]) => m.flatMap((t) => t.words ?? []).filter((w) => w.char_end <= okafor);
      expect(before(a).length).toBeGreaterThan(30);
      expect(before(a)).toEqual(before(b));
    },
  );
});
