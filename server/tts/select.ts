import { createElevenLabsEngine, ELEVENLABS_DEFAULT_VOICE } from './elevenlabs';
import { offlineVoiceFor, type CloudProvider } from './espeak';
import { OFFLINE_DEFAULT_VOICE } from './offline-voices';
import { createOpenAiEngine, OPENAI_DEFAULT_VOICE } from './openai';
import type { RetryOptions } from './retry';
import { TtsError, type TtsEngine } from './types';
import type { VoiceServer } from './voice-server';

/** Who speaks: a cloud voice (the offline one stands in without its key), the offline voice itself, or the voice server. */
export type Provider = CloudProvider | 'offline' | 'openai_compatible';

export interface VoiceSettings {
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  openaiModel?: string;
  elevenlabsApiKey?: string;
  elevenlabsBaseUrl?: string;
  elevenlabsModel?: string;
  /** Retry policy for the cloud engines. */
  retry?: RetryOptions;
  /** Request timeout for the cloud engines. */
  timeoutMs?: number;
  /** The offline engine (eSpeak-NG on the speech path the process chose at start). */
  offline?: TtsEngine;
  /** The voice server beside Lectio (TTS_SERVER_URL), when there is one. */
  voiceServer?: VoiceServer;
}

/** The voice of each provider when a request names none (the voice server's depends on its list). */
export const DEFAULT_VOICES: Readonly<Record<Exclude<Provider, 'openai_compatible'>, string>> = {
  openai: OPENAI_DEFAULT_VOICE,
  elevenlabs: ELEVENLABS_DEFAULT_VOICE,
  offline: OFFLINE_DEFAULT_VOICE,
};

export interface EngineSelection {
  engine: TtsEngine;
  /** The voice to pass to engine.synthesize (an eSpeak voice when standIn). */
  voiceId: string;
  /** true when the offline engine speaks in place of the requested provider. */
  standIn: boolean;
  provider: Provider;
  /** The voice the user asked for (or the provider default). */
  requestedVoiceId: string;
}

function hasKey(k: string | undefined): k is string {
  return typeof k === 'string' && k.trim() !== '';
}

const cache = new Map<string, TtsEngine>();
function cached(key: string, make: () => TtsEngine): TtsEngine {
  let e = cache.get(key);
  if (!e) {
    e = make();
    cache.set(key, e);
  }
  return e;
}

/**
 * The cloud engine when its key is set, else the offline engine with a stand-in voice; the offline
 * engine itself for `offline`; the voice server for `openai_compatible` (a job asking for it on a
 * server without one fails with a message saying so).
 */
export function selectEngine(settings: VoiceSettings, provider: Provider, voiceId?: string): EngineSelection {
  if (provider === 'openai_compatible') {
    const server = settings.voiceServer;
    if (server === undefined) {
      throw new TtsError('This server has no voice server (TTS_SERVER_URL) to read with', {
        retryable: false,
        code: 'invalid_input',
        engine: 'openai_compatible',
      });
    }
    const voice = voiceId?.trim() ?? '';
    if (voice === '') {
      throw new TtsError(`No ${server.name} voice was chosen`, {
        retryable: false,
        code: 'invalid_input',
        engine: 'openai_compatible',
      });
    }
    return { engine: server.engine, voiceId: voice, standIn: false, provider, requestedVoiceId: voice };
  }
  const requestedVoiceId = voiceId?.trim() || DEFAULT_VOICES[provider];
  const common = { retry: settings.retry, timeoutMs: settings.timeoutMs };
  if (provider === 'openai' && hasKey(settings.openaiApiKey)) {
    const opts = { apiKey: settings.openaiApiKey, baseURL: settings.openaiBaseUrl, model: settings.openaiModel };
    const engine = cached(JSON.stringify(['openai', opts, common]), () =>
      createOpenAiEngine({
        apiKey: opts.apiKey,
        ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
        ...(opts.model ? { model: opts.model } : {}),
        ...(common.retry ? { retry: common.retry } : {}),
        ...(common.timeoutMs ? { timeoutMs: common.timeoutMs } : {}),
      }),
    );
    return { engine, voiceId: requestedVoiceId, standIn: false, provider, requestedVoiceId };
  }
  if (provider === 'elevenlabs' && hasKey(settings.elevenlabsApiKey)) {
    const opts = {
      apiKey: settings.elevenlabsApiKey,
      baseUrl: settings.elevenlabsBaseUrl,
      model: settings.elevenlabsModel,
    };
    const engine = cached(JSON.stringify(['elevenlabs', opts, common]), () =>
      createElevenLabsEngine({
        apiKey: opts.apiKey,
        ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
        ...(opts.model ? { model: opts.model } : {}),
        ...(common.retry ? { retry: common.retry } : {}),
        ...(common.timeoutMs ? { timeoutMs: common.timeoutMs } : {}),
      }),
    );
    return { engine, voiceId: requestedVoiceId, standIn: false, provider, requestedVoiceId };
  }
  const engine = settings.offline;
  if (engine === undefined) {
    throw new TtsError('This process has no offline voice to read with', {
      retryable: false,
      code: 'engine',
      engine: 'espeak-ng',
    });
  }
  if (provider === 'offline') return { engine, voiceId: requestedVoiceId, standIn: false, provider, requestedVoiceId };
  return { engine, voiceId: offlineVoiceFor(provider, requestedVoiceId), standIn: true, provider, requestedVoiceId };
}

/** True when any cloud provider would be stood in for by the offline engine (no key for it). */
export function isDemoMode(settings: VoiceSettings): boolean {
  return !hasKey(settings.openaiApiKey) || !hasKey(settings.elevenlabsApiKey);
}
