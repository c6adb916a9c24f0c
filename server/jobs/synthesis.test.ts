import { EncoderPool } from '../audio/encoder-pool';
import { InProcessEncoderSession } from '../audio/encoder-session';
import { parseMp3 } from '../audio/mp3-frames';
import { correlationAt, decodeMp3, LAME_DELAY_SAMPLES, listFiles, readAll, tempStorage } from '../testing/audio';
import { splitIntoChunks } from '../tts/chunking';
import { createEspeakEngine, type EspeakEngine } from '../tts/espeak';
import { espeakHostBinary } from '../tts/espeak-host-build';
import { nativeSpeechPath, portableSpeechPath, type SpeechPath } from '../tts/speech-paths';
import type { EncodedSpeechStream, Speech } from '../tts/types';
import { MIN_SEGMENT_CHARS, segmentCount, splitRuns, synthesizeToMp3, type EncodedSpeaking } from './synthesis';

const SENTENCES = [
  'The lighthouse keeper climbed the stairs at dusk.',
  'He lit the great lamp and watched the ships turn away from the rocks.',
  'The sea was calm that night, and the stars were bright above the bay.',
  'In the morning he wrote the weather in his logbook.',
];
const TEXT = Array.from({ length: 12 }, (_, i) => SENTENCES[i % SENTENCES.length]).join(' ');

describe('segmentCount and splitRuns', () => {
  it('uses a second stream only for a text long enough, never more than the encoders', () => {
    expect(segmentCount(MIN_SEGMENT_CHARS * 2 - 1, 2)).toBe(1);
    expect(segmentCount(MIN_SEGMENT_CHARS * 2, 2)).toBe(2);
    expect(segmentCount(1_000_000, 2)).toBe(2);
    expect(segmentCount(1_000_000, 0)).toBe(1);
    expect(segmentCount(500, 8)).toBe(1);
  });

  it('cuts pieces into consecutive runs of about equal characters, losing none', () => {
    const pieces = [10, 30, 20, 5, 25, 10].reduce<{ start: number; end: number }[]>((out, len) => {
      const start = out.at(-1)?.end ?? 0;
      return [...out, { start, end: start + len }];
    }, []);
    const runs = splitRuns(pieces, 2);
    expect(runs.flat()).toEqual(pieces);
    expect(runs.map((r) => r.reduce((n, p) => n + p.end - p.start, 0))).toEqual([60, 40]);
    expect(splitRuns(pieces, 1)).toEqual([pieces]);
    expect(splitRuns(pieces.slice(0, 1), 3)).toEqual([pieces.slice(0, 1)]);
  });
});

/** The native speech path's host, where it can be built (a C compiler, eSpeak-NG 1.52 and LAME's headers). */
const HOST = (await espeakHostBinary()).binary;

/**
 * A voice that encodes its own MP3, as the offline voice's hosts built with LAME do, made of the
 * real voice and LAME in this process: each request's speech (kept in `heard`, so the test knows
 * what was said) is encoded into the stream in the order the requests came, and only its MP3
 * comes back.
 */
function voiceEncodingItself(engine: EspeakEngine, heard: (text: string, speech: Speech) => void): EncodedSpeaking {
  return {
    open: async () => {
      const session = new InProcessEncoderSession(22_050, 48);
      let tail: Promise<unknown> = Promise.resolve();
      const stream: EncodedSpeechStream = {
        sampleRate: 22_050,
        speak(text, signal) {
          const speech = engine.synthesize(text, 'en-us+f3', signal);
          const encoded = tail.then(async () => {
            const said = await speech;
            heard(text, said);
            const mp3 = await session.encode(said.samples.slice());
            return { mp3, samples: said.samples.length, sampleRate: said.sampleRate, words: said.words };
          });
          tail = encoded.catch(() => undefined);
          return encoded;
        },
        finish: () => tail.then(() => session.flush()),
        close: () => session.close(),
      };
      return stream;
    },
    speaker: (stream) => (text, signal) => stream.speak(text, signal),
  };
}

describe.each([
  ['LAME WebAssembly', 'eSpeak WebAssembly (the portable path)', () => new EncoderPool(1), 'portable', false],
  ['LAME in the voice', 'native eSpeak (the native path)', () => new EncoderPool(0), 'native', true],
] as const)('synthesizeToMp3 with %s and %s', (_lame, _voice, makePool, backend, inVoice) => {
  let pool: EncoderPool;
  let path: SpeechPath;
  let engine: EspeakEngine;
  beforeAll(() => {
    pool = makePool();
    // Without the native host's build tools the native path's cases run on the portable one.
    path = backend === 'native' && HOST !== null ? nativeSpeechPath(HOST, 1) : portableSpeechPath(1);
    engine = createEspeakEngine({ path });
  });
  afterAll(async () => {
    await pool.close();
    await path.close();
  });

  it.each([
    { segments: 1, opening: false },
    { segments: 3, opening: false },
    { segments: 2, opening: true },
  ])(
    'with $segments stream(s), opening first: $opening: the timing map points at each sentence group in the decoded audio',
    { timeout: 60_000 },
    async ({ segments, opening }) => {
      const env = await tempStorage();
      try {
        const pieces = splitIntoChunks(TEXT, 160).map((c) => ({ start: c.start, end: c.end, sentences: c.sentences }));
        expect(pieces.length).toBeGreaterThanOrEqual(4);
        // The opening: the first piece (at least 100 characters), a file of its own that is ready
        // (and listed by `ready`) before the whole text is joined.
        const openings: { seconds: number; files: string[] }[] = [];
        const openingKey = 'jobs/j/opening.mp3';
        // A text said twice may differ by a few samples (eSpeak WebAssembly keeps its voice running
        // between requests): each piece is looked for among the speeches of its text.
        const spoken = new Map<string, Int16Array[]>();
        const fractions: number[] = [];
        // A copy: the writer may take the samples' buffer away.
        const heard = (text: string, speech: Speech) =>
          spoken.set(text, [...(spoken.get(text) ?? []), speech.samples.slice()]);
        const result = await synthesizeToMp3({
          text: TEXT,
          pieces,
          speak: async (text, signal) => {
            const speech = await engine.synthesize(text, 'en-us+f3', signal);
            heard(text, speech);
            return speech;
          },
          ...(inVoice && { encoded: voiceEncodingItself(engine, heard) }),
          storage: env.storage,
          key: 'jobs/j/audio.mp3',
          pool,
          segments,
          signal: new AbortController().signal,
          report: async (f) => void fractions.push(f),
          ...(opening && {
            opening: {
              chars: 100,
              key: openingKey,
              ready: async (seconds) => void openings.push({ seconds, files: await listFiles(env.root) }),
            },
          }),
        });
        expect(result.segments).toBe(segments);
        expect(result.encodedByVoice).toBe(inVoice);
        expect(fractions.at(-1)).toBe(1);
        // No part files left; the opening is kept (a reader may be listening to it).
        expect(await listFiles(env.root)).toEqual(['jobs/j/audio.mp3', ...(opening ? [openingKey] : [])]);
        const mp3 = await readAll(env.storage.read('jobs/j/audio.mp3'));
        expect(result.bytes).toBe(mp3.length);
        const info = parseMp3(mp3);
        expect(info.skippedBytes).toBe(0);
        const decoded = await decodeMp3(mp3);
        expect(decoded.errors).toBe(0);

        // Every sentence is in the map once, in order, and the map ends with the audio.
        const sentences = pieces.flatMap((p) => p.sentences);
        expect(result.timings.map((t) => [t.char_start, t.char_end])).toEqual(sentences.map((s) => [s.start, s.end]));
        // (Within a millisecond: a joined run's entries are rounded to milliseconds twice.)
        expect(Math.abs(result.timings.at(-1)!.end - result.durationSeconds)).toBeLessThanOrEqual(0.001 + 1e-9);
        // After the last stream's audio come its priming delay and end padding (earlier streams' are in the offsets).
        const spare = info.samples - Math.round(result.durationSeconds * result.sampleRate);
        expect(spare).toBeGreaterThanOrEqual(LAME_DELAY_SAMPLES);
        expect(spare).toBeLessThanOrEqual(LAME_DELAY_SAMPLES + 2 * 576);
        // Each piece's speech is where the map says its first sentence starts.
        for (const piece of pieces) {
          const speeches = spoken.get(TEXT.slice(piece.start, piece.end))!;
          const entry = result.timings.find((t) => t.char_start === piece.sentences[0]!.start)!;
          const at = Math.round(entry.start * result.sampleRate) + LAME_DELAY_SAMPLES;
          // The map is rounded to milliseconds, a joined run's entries twice (its own map, then
          // shifted to where it starts): look within a millisecond (22 samples) of it.
          let best = 0;
          for (const pcm of speeches) {
            for (let lag = -22; lag <= 22; lag += 1)
              best = Math.max(best, correlationAt(pcm, decoded.samples, at + lag));
          }
          expect(best, `piece at ${piece.start}`).toBeGreaterThan(0.95);
        }
        // Both paths time every word: each sentence lists its words, in order, inside the
        // sentence's time and its characters.
        for (const t of result.timings) {
          const words = t.words ?? [];
          expect(words.length, `sentence at ${t.char_start}`).toBeGreaterThan(0);
          expect(words[0]!.start).toBeCloseTo(t.start, 2);
          for (const [i, w] of words.entries()) {
            expect(w.char_start).toBeGreaterThanOrEqual(t.char_start);
            expect(w.char_end).toBeLessThanOrEqual(t.char_end);
            expect(w.end).toBeGreaterThanOrEqual(w.start);
            expect(w.end).toBeLessThanOrEqual(t.end + 0.001);
            if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1]!.end - 0.001);
          }
        }
        if (opening) {
          // Ready once, before the whole file existed, holding exactly the first piece's sentences.
          expect(openings).toHaveLength(1);
          expect(openings[0]!.files).toContain(openingKey);
          expect(openings[0]!.files).not.toContain('jobs/j/audio.mp3');
          const seconds = openings[0]!.seconds;
          const inOpening = result.timings.filter((t) => t.end <= seconds + 0.001);
          expect(inOpening.map((t) => t.char_start)).toEqual(pieces[0]!.sentences.map((s) => s.start));
          // Its audio is the whole file's first seconds, sample for sample where it matters.
          const alone = await decodeMp3(await readAll(env.storage.read(openingKey)));
          expect(alone.errors).toBe(0);
          expect(alone.samples.length / result.sampleRate).toBeGreaterThanOrEqual(seconds);
          const head = alone.samples.subarray(
            LAME_DELAY_SAMPLES,
            LAME_DELAY_SAMPLES + Math.round(seconds * result.sampleRate),
          );
          const pcm = Int16Array.from(head, (v) => Math.round(v * 32767));
          expect(correlationAt(pcm, decoded.samples, LAME_DELAY_SAMPLES)).toBeGreaterThan(0.95);
        }
      } finally {
        await env.cleanup();
      }
    },
  );

  /** TEXT in two streams into fresh storage, `voice` standing in for the engine's synthesis. */
  async function twoStreamsWith(voice: Pick<EspeakEngine, 'synthesize'>, signal: AbortSignal) {
    const env = await tempStorage();
    const pieces = splitIntoChunks(TEXT, 160).map((c) => ({ start: c.start, end: c.end, sentences: c.sentences }));
    const run = synthesizeToMp3({
      text: TEXT,
      pieces,
      speak: (text, runSignal) => voice.synthesize(text, 'en-us', runSignal),
      ...(inVoice && { encoded: voiceEncodingItself(voice as EspeakEngine, () => undefined) }),
      storage: env.storage,
      key: 'jobs/k/audio.mp3',
      pool,
      segments: 2,
      signal,
      report: async () => undefined,
    });
    run.catch(() => undefined); // awaited by the test
    return { env, run };
  }

  it('a failing request stops every stream and leaves no file', async () => {
    let calls = 0;
    const { env, run } = await twoStreamsWith(
      {
        synthesize: async (text, voice, signal) => {
          calls += 1;
          if (calls === 4) throw new Error('the voice broke');
          return engine.synthesize(text, voice, signal);
        },
      },
      new AbortController().signal,
    );
    try {
      await expect(run).rejects.toThrow('the voice broke');
      expect(await listFiles(env.root)).toEqual([]);
    } finally {
      await env.cleanup();
    }
  });

  it('a job stopped before its synthesis began speaks nothing and leaves no file', async () => {
    // A worker told to stop while the step was still reading the text hands the job on: the
    // synthesis must not then run to its end in the stopping worker.
    let calls = 0;
    const stop = new AbortController();
    stop.abort(new Error('the worker is shutting down'));
    const { env, run } = await twoStreamsWith(
      {
        synthesize: async (text, voice, signal) => {
          calls += 1;
          return engine.synthesize(text, voice, signal);
        },
      },
      stop.signal,
    );
    try {
      await expect(run).rejects.toThrow('the worker is shutting down');
      expect(calls).toBe(0);
      expect(await listFiles(env.root)).toEqual([]);
    } finally {
      await env.cleanup();
    }
  });
});
