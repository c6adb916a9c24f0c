/**
 * How much storage a conversion will keep, estimated up front from its text so the quota can
 * reserve it before anything is written (./quotas.ts): characters -> seconds of speech at the
 * speaking rate of the voice that will read it (the preview's listening time, ./estimate.ts) ->
 * bytes of MP3 at the bitrate that voice's speech is encoded at, plus the sentence timing map kept
 * beside it. A book keeps its text twice (its own and each chapter's) and its audio twice (each
 * chapter's MP3 and the joined one).
 */
import type { VoiceSettings } from '../tts/select';
import { speakingRate, speechKbps } from './estimate';
import type { Provider } from './types';

/**
 * Bytes of timing map per character of text: each sentence's and, when the voice times them,
 * each word's start, end and character span as JSON (a word of about six characters takes some
 * 65 bytes).
 */
export const TIMING_BYTES_PER_CHARACTER = 12;

/** What a voice makes of a character: its speaking rate and the bitrate of its MP3. */
export interface VoiceFigures {
  charsPerSecond: number;
  kbps: number;
}

/** The figures of the voice that would actually read (the offline stand-in without a cloud key). */
export function voiceFigures(voices: VoiceSettings, provider: Provider, voiceId?: string): VoiceFigures {
  return { charsPerSecond: speakingRate(voices, provider, voiceId), kbps: speechKbps(voices, provider, voiceId) };
}

/** About how many bytes the MP3 and timing map of `characters` of text take. */
export function audioBytes(characters: number, voice: VoiceFigures): number {
  const seconds = characters / voice.charsPerSecond;
  return Math.ceil((seconds * voice.kbps * 1000) / 8 + characters * TIMING_BYTES_PER_CHARACTER);
}

/**
 * The space a new conversion reserves for what it has yet to write: a text's audio; a book's
 * chapter texts (`textBytes`, written when it is split), its chapters' audio and its joined audio.
 */
export function reservationOf(
  kind: 'text' | 'book',
  text: { characters: number; bytes: number },
  voice: VoiceFigures,
): number {
  const audio = audioBytes(text.characters, voice);
  return kind === 'book' ? text.bytes + 2 * audio : audio;
}
