/**
 * How long a text takes to narrate and what it costs, before anything is converted.
 *
 * Both tables live here, in one place, so they are easy to update (docs/formats.md points here).
 *
 * SPEAKING_RATES: characters per second of narration (text.length / audio seconds).
 * - The offline eSpeak-NG voices were measured on this code base's own pipeline (the sentence
 *   chunking of the synthesize step, default rate 175 wpm) over the sample texts in
 *   bench/samples/: `npm run bench -- estimate` prints the measured rate and the estimate's error
 *   next to these figures, so a change in the engine shows up there.
 * - The cloud voices are measured the same way by the bench when their API key is set; the
 *   figures below are the ones to use until then: a steady narration of about 155 words per
 *   minute, which is what both services' default voices speak at on English prose. A voice
 *   server's voices (Kokoro and its kind) read at about that pace too.
 *
 * SPEECH_SAMPLE_RATES: the sample rate each engine's speech comes at; its MP3 is encoded at that
 * rate's constant bitrate (defaultKbps, server/audio/encoder-session.ts: 48 kbit/s for eSpeak-NG's
 * 22.05 kHz, 64 kbit/s for the 24 kHz of the cloud voices and the voice server). With the speaking
 * rate it gives a text's audio size before it is converted (the storage quota's estimate, space.ts).
 *
 * PRICES_PER_MILLION_CHARACTERS: US dollars per million characters of input text, list prices
 * of the models this server uses by default (OpenAI bills gpt-4o-mini-tts by audio tokens; the
 * figure is its published ~$0.015 per minute at the rate above).
 */
import { defaultKbps } from '../audio/mp3';
import { offlineVoiceFor } from '../tts/espeak';
import { DEFAULT_VOICES, type VoiceSettings } from '../tts/select';
import { OPENAI_DEFAULT_MODEL, OPENAI_PCM_SAMPLE_RATE } from '../tts/openai';
import { ELEVENLABS_DEFAULT_MODEL, ELEVENLABS_PCM_SAMPLE_RATE } from '../tts/elevenlabs';
import type { Provider } from './types';

export type CostProvider = Provider;

/** Characters per second, by engine and voice ('*' = any other voice of that engine). */
export const SPEAKING_RATES: Readonly<
  Record<'espeak-ng' | 'openai' | 'elevenlabs' | 'openai_compatible', Readonly<Record<string, number>>>
> = {
  'espeak-ng': { 'en-us+f3': 17.8, 'en-us+m3': 18.0, 'en-gb+f4': 18.0, 'en-gb+m3': 18.0, '*': 17.9 },
  openai: { '*': 15.0 },
  elevenlabs: { '*': 14.8 },
  openai_compatible: { '*': 15.0 },
};

/** Hz of each engine's speech (the voice server answers 24 kHz PCM, as the cloud voices do). */
export const SPEECH_SAMPLE_RATES: Readonly<Record<keyof typeof SPEAKING_RATES, number>> = {
  'espeak-ng': 22_050,
  openai: OPENAI_PCM_SAMPLE_RATE,
  elevenlabs: ELEVENLABS_PCM_SAMPLE_RATE,
  openai_compatible: 24_000,
};

/** US dollars per million characters, by provider and model ('*' = a model not listed). */
export const PRICES_PER_MILLION_CHARACTERS: Readonly<Record<CostProvider, Readonly<Record<string, number>>>> = {
  offline: { 'espeak-ng': 0 },
  openai_compatible: { '*': 0 },
  openai: { 'gpt-4o-mini-tts': 16.7, 'tts-1': 15, 'tts-1-hd': 30, '*': 30 },
  elevenlabs: { eleven_multilingual_v2: 100, eleven_v3: 100, eleven_turbo_v2_5: 50, eleven_flash_v2_5: 50, '*': 100 },
};

export interface CostEstimate {
  provider: CostProvider;
  model: string;
  usd: number;
}

function rateOf(engine: keyof typeof SPEAKING_RATES, voice: string): number {
  const table = SPEAKING_RATES[engine];
  return table[voice.toLowerCase()] ?? table['*'] ?? 15;
}

/** The engine and voice that would actually speak (the offline stand-in without a key). */
function speaker(
  voices: VoiceSettings,
  provider: Provider,
  voiceId?: string,
): { engine: keyof typeof SPEAKING_RATES; voice: string } {
  if (provider === 'openai_compatible') return { engine: 'openai_compatible', voice: voiceId?.trim() ?? '' };
  if (provider === 'offline') return { engine: 'espeak-ng', voice: voiceId?.trim() || DEFAULT_VOICES.offline };
  const hasKey = (k: string | undefined) => typeof k === 'string' && k.trim() !== '';
  const cloud = provider === 'openai' ? hasKey(voices.openaiApiKey) : hasKey(voices.elevenlabsApiKey);
  if (!cloud) return { engine: 'espeak-ng', voice: offlineVoiceFor(provider, voiceId) };
  return { engine: provider, voice: voiceId?.trim() || DEFAULT_VOICES[provider] };
}

/** Characters per second of the voice that would actually speak (the offline stand-in without a key). */
export function speakingRate(voices: VoiceSettings, provider: Provider, voiceId?: string): number {
  const { engine, voice } = speaker(voices, provider, voiceId);
  return rateOf(engine, voice);
}

/** Kilobits per second of the MP3 that voice's speech is encoded to. */
export function speechKbps(voices: VoiceSettings, provider: Provider, voiceId?: string): number {
  return defaultKbps(SPEECH_SAMPLE_RATES[speaker(voices, provider, voiceId).engine]);
}

export function estimateSeconds(characters: number, charsPerSecond: number): number {
  return Math.round((characters / charsPerSecond) * 10) / 10;
}

function price(provider: CostProvider, model: string, characters: number): number {
  const table = PRICES_PER_MILLION_CHARACTERS[provider];
  const perMillion = table[model] ?? table['*'] ?? 0;
  return Math.round(((characters * perMillion) / 1_000_000) * 100) / 100;
}

/** The cost of narrating `characters` with each provider this server can use (offline always; a voice server is free). */
export function estimateCosts(voices: VoiceSettings, characters: number): CostEstimate[] {
  const out: CostEstimate[] = [{ provider: 'offline', model: 'espeak-ng', usd: 0 }];
  if (voices.voiceServer !== undefined) {
    out.push({ provider: 'openai_compatible', model: voices.voiceServer.model, usd: 0 });
  }
  if (voices.openaiApiKey?.trim()) {
    const model = voices.openaiModel ?? OPENAI_DEFAULT_MODEL;
    out.push({ provider: 'openai', model, usd: price('openai', model, characters) });
  }
  if (voices.elevenlabsApiKey?.trim()) {
    const model = voices.elevenlabsModel ?? ELEVENLABS_DEFAULT_MODEL;
    out.push({ provider: 'elevenlabs', model, usd: price('elevenlabs', model, characters) });
  }
  return out;
}
