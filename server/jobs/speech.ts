/**
 * What the synthesize step asks a voice for one piece of a book: the piece as the listener's
 * pronunciations say to read it (the book's text itself never changes), in as many requests as
 * the engine's limit needs once the words are replaced, with word timings placed back on the
 * book's own words.
 */
import { rewrite, type Pronunciation, type Rules } from '../pronunciations/rules';
import { splitIntoChunks } from '../tts/chunking';
import type { Speech, TtsEngine, WordTiming } from '../tts/types';

export function createSpeaker(engine: TtsEngine, voiceId: string, rules: Rules | null) {
  async function inRequests(text: string, signal: AbortSignal): Promise<Speech> {
    if (text.length <= engine.maxCharsPerRequest) return engine.synthesize(text, voiceId, signal);
    // Replacements made the piece longer than one request may be: read it in parts, joined.
    const parts: Speech[] = [];
    const words: WordTiming[] = [];
    let seconds = 0;
    for (const chunk of splitIntoChunks(text, engine.maxCharsPerRequest)) {
      const speech = await engine.synthesize(chunk.text, voiceId, signal);
      for (const w of speech.words ?? []) {
        words.push({
          start: w.start + seconds,
          end: w.end + seconds,
          charStart: w.charStart + chunk.start,
          charEnd: w.charEnd + chunk.start,
        });
      }
      seconds += speech.samples.length / speech.sampleRate;
      parts.push(speech);
    }
    const samples = new Int16Array(parts.reduce((n, p) => n + p.samples.length, 0));
    let offset = 0;
    for (const p of parts) {
      samples.set(p.samples, offset);
      offset += p.samples.length;
    }
    const timed = parts.every((p) => p.words !== undefined);
    return { samples, sampleRate: parts[0]!.sampleRate, ...(timed && { words }) };
  }

  return async function speak(text: string, signal: AbortSignal): Promise<Speech> {
    const spoken = rewrite(text, rules);
    const speech = await inRequests(spoken.spoken, signal);
    return speech.words === undefined ? speech : { ...speech, words: spoken.toOriginal(speech.words) };
  };
}

/** What the synthesize step records of the entries that applied (step metadata `pronunciations`). */
export interface AppliedPronunciation {
  text: string;
  say_as: string;
}

export const appliedRecord = (entries: readonly Pronunciation[]): AppliedPronunciation[] =>
  entries.map((e) => ({ text: e.text, say_as: e.sayAs }));
