import type { TtsProvider, VoiceListOutput, VoiceOutput, VoiceSourceOutput } from '../../api/gen/model';

/** A voice as the upload form sends it (voice_config). */
export interface VoiceChoice {
  provider: TtsProvider;
  voiceId: string;
}

/** Where the last voice chosen is kept between visits (this browser only). */
export const VOICE_STORAGE_KEY = 'lectio.voice';

export function rememberVoice(choice: VoiceChoice, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()) {
  try {
    storage?.setItem(VOICE_STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // Private mode or a full store: the choice is simply not remembered.
  }
}

export function rememberedVoice(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): VoiceChoice | null {
  try {
    const raw = storage?.getItem(VOICE_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<VoiceChoice>;
    return typeof parsed.provider === 'string' && typeof parsed.voiceId === 'string'
      ? { provider: parsed.provider as TtsProvider, voiceId: parsed.voiceId }
      : null;
  } catch {
    return null;
  }
}

function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export const sameVoice = (a: VoiceChoice | null, b: { provider: string; id: string }) =>
  a !== null && a.provider === b.provider && a.voiceId === b.id;

/** The voice to start with: the current one if it is offered, else the remembered one, else the list's default. */
export function initialChoice(
  list: VoiceListOutput,
  current: VoiceChoice | null,
  remembered: VoiceChoice | null,
): VoiceChoice | null {
  for (const wanted of [current, remembered]) {
    const found = list.voices.find((v) => sameVoice(wanted, v));
    if (found) return { provider: found.provider, voiceId: found.id };
  }
  const fallback = list.voices.find((v) => v.default) ?? list.voices[0];
  return fallback ? { provider: fallback.provider, voiceId: fallback.id } : null;
}

export interface VoiceGroup {
  source: VoiceSourceOutput;
  voices: VoiceOutput[];
}

/** The voices under their sources, in the order the server lists the sources. */
export function groupVoices(list: VoiceListOutput): VoiceGroup[] {
  return list.sources.map((source) => ({
    source,
    voices: list.voices.filter((v) => v.provider === source.provider),
  }));
}

/** "en-GB" → "British English"; the tag itself where the browser has no name; nothing for 'und'. */
export function languageLabel(tag: string): string {
  if (tag === '' || tag === 'und') return '';
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
