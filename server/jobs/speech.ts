/**
 * What the synthesize step asks a voice for one piece of a book: the piece as the listener's
 * pronunciations say to read it (the book's text itself never changes), in as many requests as
 * the engine's limit needs once the words are replaced, with word timings placed back on the
 * book's own words.
 */
import type { EncoderPool } from '../audio/encoder-pool';
import { defaultKbps } from '../audio/mp3';
import { rewrite, type Pronunciation, type Rules } from '../pronunciations/rules';
import { splitIntoChunks } from '../tts/chunking';
import type { EncodedSpeech, EncodedSpeechStream, Speech, TtsEngine, WordTiming } from '../tts/types';
import type { EncodedSpeaking } from './synthesis';

/**
 * Reads `text` in as many requests of at most `max` characters as it needs, the words of each
 * placed on the whole text and after the speech before them; `join` makes one result of the parts.
 * `atOnce`: every part is asked for before this returns to its caller (a stream's requests must
 * reach it in the order of the text, before the next piece's); else one after another.
 */
async function inRequests<T extends { samples: unknown; sampleRate: number; words?: WordTiming[] }>(
  text: string,
  max: number,
  say: (part: string) => Promise<T>,
  length: (speech: T) => number,
  join: (parts: T[], words: WordTiming[] | undefined) => T,
  atOnce = false,
): Promise<T> {
  if (text.length <= max) return say(text);
  // Replacements made the piece longer than one request may be: read it in parts, joined.
  const chunks = splitIntoChunks(text, max);
  const asked = atOnce ? chunks.map((chunk) => say(chunk.text)) : [];
  for (const speech of asked) speech.catch(() => undefined); // awaited in order below
  const parts: T[] = [];
  const words: WordTiming[] = [];
  let seconds = 0;
  for (const [i, chunk] of chunks.entries()) {
    const speech = await (asked[i] ?? say(chunk.text));
    for (const w of speech.words ?? []) {
      words.push({
        start: w.start + seconds,
        end: w.end + seconds,
        charStart: w.charStart + chunk.start,
        charEnd: w.charEnd + chunk.start,
      });
    }
    seconds += length(speech) / speech.sampleRate;
    parts.push(speech);
  }
  return join(parts, parts.every((p) => p.words !== undefined) ? words : undefined);
}

/** Speech for a piece as the reader's pronunciations say to read it, its words on the piece's text. */
async function asPronounced<T extends { words?: WordTiming[] }>(
  text: string,
  rules: Rules | null,
  say: (spoken: string) => Promise<T>,
): Promise<T> {
  const spoken = rewrite(text, rules);
  const speech = await say(spoken.spoken);
  return speech.words === undefined ? speech : { ...speech, words: spoken.toOriginal(speech.words) };
}

export function createSpeaker(engine: TtsEngine, voiceId: string, rules: Rules | null) {
  const joinPcm = (parts: Speech[], words: WordTiming[] | undefined): Speech => {
    const samples = new Int16Array(parts.reduce((n, p) => n + p.samples.length, 0));
    let offset = 0;
    for (const p of parts) {
      samples.set(p.samples, offset);
      offset += p.samples.length;
    }
    return { samples, sampleRate: parts[0]!.sampleRate, ...(words && { words }) };
  };
  return function speak(text: string, signal: AbortSignal): Promise<Speech> {
    return asPronounced(text, rules, (spoken) =>
      inRequests(
        spoken,
        engine.maxCharsPerRequest,
        (part) => engine.synthesize(part, voiceId, signal),
        (speech) => speech.samples.length,
        joinPcm,
      ),
    );
  };
}

/**
 * The same for an MP3 stream the engine encodes itself: each piece's MP3 bytes. A piece's requests
 * all reach the stream when `speak` is called (before it returns), so pieces asked for one after
 * another are encoded in that order.
 */
function createEncodedSpeaker(engine: TtsEngine, stream: EncodedSpeechStream, rules: Rules | null) {
  const joinMp3 = (parts: EncodedSpeech[], words: WordTiming[] | undefined): EncodedSpeech => ({
    mp3: Buffer.concat(parts.map((p) => p.mp3)),
    samples: parts.reduce((n, p) => n + p.samples, 0),
    sampleRate: parts[0]!.sampleRate,
    ...(words && { words }),
  });
  return function speak(text: string, signal: AbortSignal): Promise<EncodedSpeech> {
    return asPronounced(text, rules, (spoken) =>
      inRequests(
        spoken,
        engine.maxCharsPerRequest,
        (part) => stream.speak(part, signal),
        (speech) => speech.samples,
        joinMp3,
        true,
      ),
    );
  };
}

/** What encoded a text's MP3 (the synthesize step's `encoder`): its voice itself, or the pool. */
export function encoderName(byVoice: boolean, pool: EncoderPool | undefined): string {
  if (byVoice) return 'LAME (libmp3lame) in the eSpeak-NG host';
  return pool?.describe() ?? 'LAME WebAssembly, in-process';
}

/**
 * MP3 streams the voice encodes itself, when it does: the offline voice on its native path, whose
 * hosts encode with libmp3lame (docs/adr/0003-two-speech-paths.md). Other voices send PCM, which
 * the server's encoder threads encode.
 */
export function encodedSpeaking(engine: TtsEngine, voiceId: string, rules: Rules | null): EncodedSpeaking | undefined {
  const open = engine.openEncodedStream;
  if (open === undefined) return undefined;
  return {
    open: (signal) => open.call(engine, voiceId, defaultKbps, signal),
    speaker: (stream) => createEncodedSpeaker(engine, stream, rules),
  };
}

/** What the synthesize step records of the entries that applied (step metadata `pronunciations`). */
export interface AppliedPronunciation {
  text: string;
  say_as: string;
}

export const appliedRecord = (entries: readonly Pronunciation[]): AppliedPronunciation[] =>
  entries.map((e) => ({ text: e.text, say_as: e.sayAs }));
