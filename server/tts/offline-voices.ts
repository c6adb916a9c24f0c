/**
 * The offline voice's choices: eSpeak-NG's English voices with a few of its variants (`+f3` is
 * the third female variant, `+m3` the third male one, `+Annie` and `+klatt4` variants of their
 * own). Every one is in both the native binary's data and the WebAssembly build's. The default,
 * US English with the f3 variant, is the one we find clearest over a long listen (the variants
 * with breath or creak tire the ear), and the voice that has always stood in for OpenAI's alloy.
 */
export interface OfflineVoice {
  id: string;
  name: string;
  /** BCP 47. */
  language: string;
}

export const OFFLINE_VOICES: readonly OfflineVoice[] = [
  { id: 'en-us+f3', name: 'US English, female', language: 'en-US' },
  { id: 'en-us+m3', name: 'US English, male', language: 'en-US' },
  { id: 'en-gb+f4', name: 'UK English, female', language: 'en-GB' },
  { id: 'en-gb+m3', name: 'UK English, male', language: 'en-GB' },
  { id: 'en-us+Annie', name: 'US English, Annie (softer)', language: 'en-US' },
  { id: 'en-us+klatt4', name: 'US English, Klatt (smoother)', language: 'en-US' },
];

export const OFFLINE_DEFAULT_VOICE = 'en-us+f3';

/** The listed offline voice a request names (ignoring case), or undefined. */
export function findOfflineVoice(id: string): OfflineVoice | undefined {
  const wanted = id.trim().toLowerCase();
  return OFFLINE_VOICES.find((v) => v.id.toLowerCase() === wanted);
}
