/**
 * Every voice a book can be read with now, grouped by source (GET /api/v1/voices), and the check
 * a new job's voice goes through. Sources, in the order a listener should meet them: the voice
 * server beside Lectio (neural voices, free), OpenAI and ElevenLabs when their keys are set, and
 * the offline voice, always there.
 */
import { DomainError } from '../errors';
import { ELEVENLABS_VOICE_IDS } from '../tts/elevenlabs';
import { findOfflineVoice, OFFLINE_DEFAULT_VOICE, OFFLINE_VOICES } from '../tts/offline-voices';
import { DEFAULT_VOICES, type Provider, type VoiceSettings } from '../tts/select';

export interface CatalogVoice {
  provider: Provider;
  id: string;
  name: string;
  /** BCP 47 ('und' when the source does not say). */
  language: string;
  default: boolean;
}

export interface CatalogSource {
  provider: Provider;
  name: string;
  status: 'ready' | 'unreachable';
  detail?: string;
}

export interface VoiceCatalog {
  list(): Promise<{ voices: CatalogVoice[]; sources: CatalogSource[] }>;
  /** The voice as listed now, or undefined. */
  find(provider: Provider, id: string): Promise<CatalogVoice | undefined>;
  /** The voice a new job gets (see JobServiceDeps.chooseVoice). */
  choose(provider: Provider, voiceId: string | undefined): Promise<string>;
}

/** OpenAI's voices for speech (gpt-4o-mini-tts speaks them all). */
const OPENAI_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'];

/** Kokoro's voice ids say their language and voice: a (US English), b (UK English), ...; f female, m male. */
const KOKORO_LANGUAGES: Readonly<Record<string, string>> = {
  a: 'en-US',
  b: 'en-GB',
  e: 'es',
  f: 'fr-FR',
  h: 'hi',
  i: 'it',
  j: 'ja',
  p: 'pt-BR',
  z: 'zh',
};
/** The voice most Kokoro listeners start with, when the server has it. */
const KOKORO_DEFAULT = 'af_heart';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** How a voice server's voice is shown: "Heart" and en-US for af_heart; the id as it is otherwise. */
export function serverVoice(id: string): { name: string; language: string } {
  const kokoro = /^([a-z])([fm])_([a-z0-9_]+)$/i.exec(id);
  const language = kokoro ? KOKORO_LANGUAGES[kokoro[1]!.toLowerCase()] : undefined;
  if (kokoro && language !== undefined) {
    return { name: kokoro[3]!.split('_').map(capitalise).join(' '), language };
  }
  return { name: id, language: 'und' };
}

const hasKey = (k: string | undefined) => typeof k === 'string' && k.trim() !== '';

export function createVoiceCatalog(settings: VoiceSettings): VoiceCatalog {
  const server = settings.voiceServer;

  async function list(): Promise<{ voices: CatalogVoice[]; sources: CatalogSource[] }> {
    const voices: Omit<CatalogVoice, 'default'>[] = [];
    const sources: CatalogSource[] = [];
    let preferred: { provider: Provider; id: string } | undefined;
    if (server !== undefined) {
      const state = await server.voices();
      const ready = state.voices.length > 0;
      sources.push({
        provider: 'openai_compatible',
        name: server.name,
        status: state.reachable ? 'ready' : 'unreachable',
        ...(state.detail !== undefined && { detail: state.detail }),
      });
      for (const id of state.voices) voices.push({ provider: 'openai_compatible', id, ...serverVoice(id) });
      if (ready) {
        preferred = {
          provider: 'openai_compatible',
          id: state.voices.includes(KOKORO_DEFAULT) ? KOKORO_DEFAULT : state.voices[0]!,
        };
      }
    }
    if (hasKey(settings.openaiApiKey)) {
      sources.push({ provider: 'openai', name: 'OpenAI', status: 'ready' });
      for (const id of OPENAI_VOICES) voices.push({ provider: 'openai', id, name: capitalise(id), language: 'en' });
      preferred ??= { provider: 'openai', id: DEFAULT_VOICES.openai };
    }
    if (hasKey(settings.elevenlabsApiKey)) {
      sources.push({ provider: 'elevenlabs', name: 'ElevenLabs', status: 'ready' });
      for (const id of Object.keys(ELEVENLABS_VOICE_IDS)) {
        voices.push({ provider: 'elevenlabs', id, name: capitalise(id), language: 'en' });
      }
      preferred ??= { provider: 'elevenlabs', id: DEFAULT_VOICES.elevenlabs };
    }
    sources.push({ provider: 'offline', name: 'Offline voice', status: 'ready' });
    for (const v of OFFLINE_VOICES) voices.push({ provider: 'offline', ...v });
    preferred ??= { provider: 'offline', id: OFFLINE_DEFAULT_VOICE };
    return {
      voices: voices.map((v) => ({ ...v, default: v.provider === preferred.provider && v.id === preferred.id })),
      sources,
    };
  }

  async function chooseServerVoice(voiceId: string | undefined): Promise<string> {
    if (server === undefined) {
      throw new DomainError('invalid', 'This server has no voice server: choose another voice provider');
    }
    let state = await server.voices();
    if (voiceId !== undefined && !state.voices.includes(voiceId)) state = await server.voices({ fresh: true });
    if (state.voices.length === 0) {
      throw new DomainError('unavailable', `${state.detail ?? `${server.name} offers no voices`}; try again later`, {
        retryable: true,
        retryAfterSeconds: 10,
      });
    }
    if (voiceId === undefined) return state.voices.includes(KOKORO_DEFAULT) ? KOKORO_DEFAULT : state.voices[0]!;
    if (state.voices.includes(voiceId)) return voiceId;
    const some = state.voices.slice(0, 5).join(', ');
    throw new DomainError(
      'invalid',
      `${server.name} has no voice "${voiceId}" (it has ${some}${state.voices.length > 5 ? ', ...' : ''})`,
    );
  }

  return {
    list,
    async find(provider, id) {
      const { voices } = await list();
      return voices.find((v) => v.provider === provider && v.id === id);
    },
    async choose(provider, voiceId) {
      if (provider === 'openai_compatible') return chooseServerVoice(voiceId);
      if (provider !== 'offline') return voiceId ?? DEFAULT_VOICES[provider];
      if (voiceId === undefined) return OFFLINE_DEFAULT_VOICE;
      const offline = findOfflineVoice(voiceId);
      if (offline === undefined) {
        const ids = OFFLINE_VOICES.map((v) => v.id).join(', ');
        throw new DomainError('invalid', `The offline voice has no variant "${voiceId}" (it has ${ids})`);
      }
      return offline.id;
    },
  };
}
