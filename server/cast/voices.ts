/**
 * Giving a book's characters their voices: each a voice of the book's own voice source (the voice
 * catalog's voices of its provider), distinct from the narrator's and from each other as far as
 * the source has voices, the characters who speak most choosing first (those whose gender is
 * known first among equals). A voice whose gender is
 * known (an eSpeak-NG variant's name, a Kokoro id's `f`/`m`) goes to a character of that gender
 * first; a voice of unknown gender suits anyone.
 */
import type { CatalogVoice } from '../voices/catalog';
import type { CastGender } from './types';

/** What a voice's listing says of its gender: "US English, female"; Kokoro's af_heart (f) and am_adam (m). */
export function voiceGender(voice: Pick<CatalogVoice, 'provider' | 'id' | 'name'>): CastGender {
  if (voice.provider === 'offline') {
    if (/\bfemale\b/i.test(voice.name)) return 'female';
    if (/\bmale\b/i.test(voice.name)) return 'male';
    return 'unknown';
  }
  if (voice.provider === 'openai_compatible') {
    const kokoro = /^[a-z]([fm])_/i.exec(voice.id);
    if (kokoro) return kokoro[1]!.toLowerCase() === 'f' ? 'female' : 'male';
  }
  return 'unknown';
}

export interface CastingCall {
  id: string;
  gender: CastGender;
  /** Quoted spans the character speaks: who speaks most chooses first. */
  lines: number;
}

/**
 * A voice for every character, by id. `available`: the source's voices (the narrator's among
 * them or not). Without any voice but the narrator's, everyone reads in the narrator's voice.
 */
export function assignVoices(
  narratorVoice: string,
  characters: readonly CastingCall[],
  available: readonly Pick<CatalogVoice, 'provider' | 'id' | 'name'>[],
): Map<string, string> {
  const pool = available
    .filter((v) => v.id !== narratorVoice)
    .map((v) => ({ id: v.id, gender: voiceGender(v), uses: 0 }));
  // Among characters with as many lines, those whose gender is known choose first: the voices of
  // their gender are theirs before a character who could take any voice is given one.
  const known = (c: CastingCall) => (c.gender === 'unknown' ? 1 : 0);
  const order = [...characters].sort((a, b) => b.lines - a.lines || known(a) - known(b));
  const chosen = new Map<string, string>();
  // How well a voice suits a character: the same known gender, then a voice of unknown gender,
  // then one of the other gender; among equals, the least used one (pool order breaks ties).
  const fit = (voice: (typeof pool)[number], gender: CastGender) => {
    if (gender === 'unknown' || voice.gender === 'unknown') return 1;
    return voice.gender === gender ? 0 : 2;
  };
  for (const character of order) {
    let best: (typeof pool)[number] | undefined;
    for (const voice of pool) {
      if (best === undefined) {
        best = voice;
        continue;
      }
      const better =
        voice.uses < best.uses ||
        (voice.uses === best.uses && fit(voice, character.gender) < fit(best, character.gender));
      if (better) best = voice;
    }
    if (best === undefined) {
      chosen.set(character.id, narratorVoice);
      continue;
    }
    best.uses += 1;
    chosen.set(character.id, best.id);
  }
  return chosen;
}
