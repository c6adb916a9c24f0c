/**
 * The synthesize step's engine room: speech for a text's pieces (groups of whole sentences),
 * encoded to one MP3 while it is synthesised, plus the timing map.
 *
 * A long text read by the offline voice is cut into `segments` runs of consecutive pieces,
 * synthesised and encoded at the same time (one encoder stream each: an eSpeak-NG host's or a
 * worker thread), then joined frame by frame (concatMp3), so one text uses every core as the
 * chapters of a book do. Each stream starts with LAME's priming frames and ends on a whole frame,
 * so a join adds a few tens of milliseconds between two sentences; the timing map and the
 * duration count them: segment k starts at the summed frame lengths of the segments before it,
 * which is exactly where its audio is in the joined file. With one segment this is the plain
 * streaming path (PCM duration, no join).
 *
 * With `opening` (a book's first chapter), the text's first minutes are a run of their own, started
 * first and kept as a file of its own once encoded, so the reader can listen while the rest is
 * synthesised (docs/listening.md#the-opening-of-the-first-chapter). The text is cut into `segments`
 * runs as before and the opening carved out of the first; the rest of that run starts once the
 * opening is done, the other runs at once, so they all end about when they would have without it
 * (at most `segments` runs encode at once). The opening is joined into the whole text like any
 * other run, so its seconds are the whole file's first seconds.
 *
 * With `encoded` (the offline voice's hosts built with LAME), each run's speech is encoded into an
 * MP3 stream of its own in the voice's process and only its MP3 comes here, written to the run's
 * file as it comes: the same runs, timings and join, no PCM in this process
 * (docs/adr/0003-two-speech-paths.md).
 */
import pLimit from 'p-limit';
import { concatMp3 } from '../audio/concat';
import type { EncoderPool } from '../audio/encoder-pool';
import type { FileStorage } from '../storage/types';
import type { EncodedSpeech, EncodedSpeechStream, Speech } from '../tts/types';
import { encodedOutput, pcmOutput, type RunOutput, type Spoken } from './synthesis-outputs';
import { proportionalTimings, shiftEntry, wordTimedEntries, type TimingEntry } from './timing';

export interface Piece {
  start: number;
  end: number;
  sentences: readonly { start: number; end: number }[];
  /** The voice that reads this piece, when not the text's own (a full cast's speaker; then no `encoded`). */
  voice?: string | undefined;
}

export interface SynthesisInput {
  text: string;
  pieces: readonly Piece[];
  /** Speech for one piece's text (in the piece's `voice`); its word timings (if any) are offsets into that piece's text. */
  speak(text: string, signal: AbortSignal, voice?: string): Promise<Speech>;
  /**
   * When the voice can encode MP3 itself (the offline voice's hosts built with LAME): a stream of
   * its own for each run, null when it cannot after all (the run then encodes `speak`'s PCM), and
   * speech for a piece into that stream. No PCM then reaches this process.
   */
  encoded?: EncodedSpeaking | undefined;
  /** Pieces of one run asked for at once (the engine's own limit bounds its total); default 1. */
  lookahead?: number;
  storage: FileStorage;
  key: string;
  pool?: EncoderPool | undefined;
  /** Runs encoded at once (1 = one stream). */
  segments: number;
  signal: AbortSignal;
  /** Fraction of the text's characters spoken so far. */
  report(fraction: number): Promise<void>;
  /** The text's first minutes as a file of their own, ready first (a long text only: see openingPieces). */
  opening?: OpeningOptions | undefined;
}

export interface EncodedSpeaking {
  open(signal: AbortSignal): Promise<EncodedSpeechStream | null>;
  speaker(stream: EncodedSpeechStream): (text: string, signal: AbortSignal) => Promise<EncodedSpeech>;
}

export interface OpeningOptions {
  /** About how many characters it holds: whole pieces from the start until at least this many. */
  chars: number;
  /** Where its MP3 is kept (it stays when the whole text is joined). */
  key: string;
  /** Called once its file is complete and before the rest is joined, with its seconds. */
  ready(durationSeconds: number): Promise<void>;
}

/**
 * The pieces of a text's opening: whole pieces from the start until `chars` characters, when the
 * text is at least three times that long (a shorter text is ready soon enough as a whole); else
 * none.
 */
export function openingPieces<T extends { start: number; end: number }>(pieces: readonly T[], chars: number): T[] {
  const total = pieces.reduce((sum, p) => sum + (p.end - p.start), 0);
  if (chars <= 0 || total < chars * 3) return [];
  const taken: T[] = [];
  let count = 0;
  for (const piece of pieces) {
    if (count >= chars) break;
    taken.push(piece);
    count += piece.end - piece.start;
  }
  return taken.length < pieces.length ? taken : [];
}

export interface SynthesisResult {
  durationSeconds: number;
  bytes: number;
  sampleRate: number;
  timings: TimingEntry[];
  segments: number;
  /** The voice encoded the MP3 itself (`encoded`), no PCM reaching this process. */
  encodedByVoice: boolean;
}

/** A text this long (characters) or longer is worth a second encoder stream. */
export const MIN_SEGMENT_CHARS = 8_000;

/** How many runs to encode at once: up to `parallelism`, each at least MIN_SEGMENT_CHARS long. */
export function segmentCount(chars: number, parallelism: number): number {
  return Math.max(1, Math.min(Math.max(1, parallelism), Math.floor(chars / MIN_SEGMENT_CHARS)));
}

/** Cuts pieces into `n` runs of consecutive pieces with about the same number of characters. */
export function splitRuns<T extends { start: number; end: number }>(pieces: readonly T[], n: number): T[][] {
  const total = pieces.reduce((sum, p) => sum + (p.end - p.start), 0);
  const runs: T[][] = [];
  let current: T[] = [];
  let done = 0;
  for (const piece of pieces) {
    current.push(piece);
    done += piece.end - piece.start;
    if (runs.length < n - 1 && done >= (total * (runs.length + 1)) / n) {
      runs.push(current);
      current = [];
    }
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

interface RunOutcome {
  key: string;
  sampleRate: number;
  /** PCM samples written. */
  samples: number;
  bytes: number;
  /** Timings relative to the run's first sample. */
  timings: TimingEntry[];
}

/**
 * The runs to encode: `segments` runs of about the same length, the opening (when there is one)
 * carved out of the first. The rest of the first run starts when the opening is done, the other
 * runs at once, so every run still ends at about the same time: `startOrder` is the order they start in.
 */
function planRuns(pieces: readonly Piece[], segments: number, opening: OpeningOptions | undefined) {
  const first = opening === undefined ? [] : openingPieces(pieces, opening.chars);
  const even = splitRuns(pieces, Math.max(1, Math.min(segments, pieces.length)));
  const firstRest = even[0]!.slice(first.length);
  const runs = first.length > 0 ? [first, ...(firstRest.length > 0 ? [firstRest] : []), ...even.slice(1)] : even;
  const openingRun = first.length > 0 ? 0 : -1;
  const startOrder =
    first.length > 0 && firstRest.length > 0 && runs.length > 2
      ? [0, ...runs.slice(2).map((_, i) => i + 2), 1]
      : runs.map((_, i) => i);
  return { runs, openingRun, startOrder };
}

/** Joins the encoded runs into `key`; each starts in the timing map where the frames of the runs before it end. */
async function joinRuns(
  storage: FileStorage,
  key: string,
  outcomes: RunOutcome[],
  openingRun: number,
  { segments, encodedByVoice }: { segments: number; encodedByVoice: boolean },
): Promise<SynthesisResult> {
  const rate = outcomes[0]!.sampleRate;
  // Join the runs; each starts where the frames of the runs before it end.
  const frameSamples: number[] = [];
  let bytes: number;
  try {
    bytes = await concatMp3(
      storage,
      outcomes.map((o) => o.key),
      key,
      { onSource: (_, info) => frameSamples.push(info.samples) },
    );
  } finally {
    // The opening stays: a reader may be listening to it (its book deletes it when joined).
    await Promise.all(
      outcomes.filter((_, i) => i !== openingRun).map((o) => storage.delete(o.key).catch(() => undefined)),
    );
  }
  const timings: TimingEntry[] = [];
  let offset = 0;
  for (const [i, o] of outcomes.entries()) {
    const shift = offset / rate;
    for (const t of o.timings) timings.push(shiftEntry(t, shift));
    if (i < outcomes.length - 1) offset += frameSamples[i]!;
  }
  const last = outcomes[outcomes.length - 1]!;
  const durationSeconds = (offset + last.samples) / rate;
  // Shifted entries are rounded twice (their run's map, then the shift): the map still ends
  // with the audio, to the millisecond.
  const end = Math.round(durationSeconds * 1000) / 1000;
  const final = timings.at(-1);
  if (final !== undefined) {
    final.end = end;
    for (const w of final.words ?? []) w.end = Math.min(w.end, end);
  }
  return {
    durationSeconds,
    bytes,
    sampleRate: rate,
    timings,
    // Streams encoded at once (an opening is one more run, not one more stream).
    segments: Math.min(outcomes.length, Math.max(1, segments)),
    encodedByVoice,
  };
}

export async function synthesizeToMp3(input: SynthesisInput): Promise<SynthesisResult> {
  const { pieces, storage, key, signal, opening } = input;
  // A job stopped before its synthesis began (the step's first awaits) never starts it: the
  // listener below only hears a stop that comes later.
  signal.throwIfAborted();
  const { runs, openingRun, startOrder } = planRuns(pieces, input.segments, opening);
  const totalChars = pieces.reduce((n, p) => n + (p.end - p.start), 0);
  let doneChars = 0;
  const partKey = (i: number) => (i === openingRun ? opening!.key : runs.length === 1 ? key : `${key}.part-${i + 1}`);
  // Runs encoding at once: `segments` (the opening is one of them while it runs), in startOrder.
  const limit = pLimit(Math.max(1, input.segments));
  const inner = new AbortController();
  const onAbort = () => inner.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let sampleRate: number | null = null;
  let encodedByVoice = false;

  async function encodeRun(run: readonly Piece[], index: number): Promise<RunOutcome> {
    inner.signal.throwIfAborted();
    let output: RunOutput | null = null;
    let samples = 0;
    const timings: TimingEntry[] = [];
    // Up to `lookahead` pieces are asked for ahead of the one being encoded; speech goes in in order.
    const ahead = Math.max(1, input.lookahead ?? 1);
    const asked: Promise<Spoken>[] = [];
    let next = 0;
    const ask = () => {
      while (asked.length < ahead && next < run.length) {
        const piece = run[next++]!;
        const speech = output!.speak(input.text.slice(piece.start, piece.end), inner.signal, piece.voice);
        speech.catch(() => undefined); // awaited in order below; a failure there stops the run
        asked.push(speech);
      }
    };
    try {
      const stream = (await input.encoded?.open(inner.signal)) ?? null;
      output =
        stream !== null
          ? encodedOutput(storage, partKey(index), stream, input.encoded!.speaker(stream))
          : pcmOutput(storage, partKey(index), input.speak, input.pool);
      if (stream !== null) encodedByVoice = true;
      for (const piece of run) {
        inner.signal.throwIfAborted();
        ask();
        const speech = await asked.shift()!;
        sampleRate ??= speech.sampleRate;
        if (speech.sampleRate !== sampleRate) {
          throw new SampleRateChange(sampleRate, speech.sampleRate);
        }
        await output.take(speech);
        const t0 = samples / sampleRate;
        samples += speech.samples;
        const t1 = samples / sampleRate;
        const words = speech.words?.map((w) => ({
          ...w,
          charStart: w.charStart + piece.start,
          charEnd: w.charEnd + piece.start,
        }));
        timings.push(
          ...(words !== undefined && words.length > 0
            ? wordTimedEntries(piece.sentences, words, t0, t1)
            : proportionalTimings(piece.sentences, t0, t1)),
        );
        doneChars += piece.end - piece.start;
        await input.report(doneChars / totalChars);
      }
      inner.signal.throwIfAborted();
      const bytes = await output.finish();
      if (index === openingRun) await opening!.ready(samples / sampleRate!);
      return { key: partKey(index), sampleRate: sampleRate!, samples, bytes, timings };
    } catch (error) {
      inner.abort(error); // the other runs stop too
      await output?.abort().catch(() => undefined);
      throw error;
    }
  }

  try {
    const started = new Map(startOrder.map((i) => [i, limit(() => encodeRun(runs[i]!, i))]));
    const settled = await Promise.allSettled(runs.map((_, i) => started.get(i)!));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      // Runs that finished before another failed leave nothing behind either.
      await Promise.all(
        settled.filter((s) => s.status === 'fulfilled').map((s) => storage.delete(s.value.key).catch(() => undefined)),
      );
      // The first failure, not the "aborted" of the runs it stopped.
      const first = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !isAbort(s.reason));
      throw (first ?? failed).reason;
    }
    const outcomes = settled.map((s) => (s as PromiseFulfilledResult<RunOutcome>).value);
    const rate = outcomes[0]!.sampleRate;
    if (outcomes.length === 1) {
      const only = outcomes[0]!;
      return {
        durationSeconds: only.samples / rate,
        bytes: only.bytes,
        sampleRate: rate,
        timings: only.timings,
        segments: 1,
        encodedByVoice,
      };
    }
    return await joinRuns(storage, key, outcomes, openingRun, { segments: input.segments, encodedByVoice });
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: unknown }).code === 'aborted');
}

/** The voice changed its sample rate between two requests. */
export class SampleRateChange extends Error {
  constructor(
    readonly before: number,
    readonly after: number,
  ) {
    super(`The voice changed sample rate mid-text (${before} Hz, then ${after} Hz)`);
    this.name = 'SampleRateChange';
  }
}
