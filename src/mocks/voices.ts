import { bypass } from 'msw';
import { getGetVoiceSampleMockHandler } from '../api/gen/endpoints/voices/get-voice-sample.msw';
import { getListVoicesMockHandler } from '../api/gen/endpoints/voices/list-voices.msw';
import type { Voice, VoiceList, VoiceSource } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';
import { SAMPLE_AUDIO_URL } from './audio';

/**
 * The voices and samples the voice picker shows: a Kokoro voice server (or not), the cloud voices
 * of a server with keys, and the offline voice's eSpeak-NG variants.
 */
const voice = (provider: Voice['provider'], id: string, name: string, language: string): Voice => ({
  provider,
  id,
  name,
  language,
  sample_url: `/api/v1/voices/${provider}/${encodeURIComponent(id)}/sample`,
  default: false,
});

const OFFLINE: Voice[] = [
  voice('offline', 'en-us+f3', 'US English, female', 'en-US'),
  voice('offline', 'en-us+m3', 'US English, male', 'en-US'),
  voice('offline', 'en-gb+f4', 'UK English, female', 'en-GB'),
  voice('offline', 'en-gb+m3', 'UK English, male', 'en-GB'),
];

const KOKORO: Voice[] = [
  voice('openai_compatible', 'af_heart', 'Heart', 'en-US'),
  voice('openai_compatible', 'af_bella', 'Bella', 'en-US'),
  voice('openai_compatible', 'bm_george', 'George', 'en-GB'),
  voice('openai_compatible', 'ff_siwis', 'Siwis', 'fr-FR'),
];

const CLOUD: Voice[] = [
  voice('openai', 'alloy', 'Alloy', 'en'),
  voice('openai', 'nova', 'Nova', 'en'),
  voice('elevenlabs', 'adam', 'Adam', 'en'),
  voice('elevenlabs', 'rachel', 'Rachel', 'en'),
];

const withDefault = (voices: Voice[], id: string) => voices.map((v) => ({ ...v, default: v.id === id }));

/**
 * What GET /voices answers: `server` ready (Kokoro's voices first, Heart the default), down (its
 * group says so, the offline voice is the default) or absent; `cloud` adds the OpenAI and
 * ElevenLabs voices of a server with keys (Alloy the default when there is no voice server).
 */
export function voiceListFixture(options: { server?: 'ready' | 'down' | 'none'; cloud?: boolean } = {}): VoiceList {
  const server = options.server ?? 'ready';
  const sources: VoiceSource[] = [];
  const voices: Voice[] = [];
  if (server !== 'none') {
    sources.push({
      provider: 'openai_compatible',
      name: 'Kokoro',
      status: server === 'ready' ? 'ready' : 'unreachable',
      ...(server === 'down' && { detail: 'Kokoro is not reachable right now' }),
    });
    if (server === 'ready') voices.push(...KOKORO);
  }
  if (options.cloud) {
    sources.push({ provider: 'openai', name: 'OpenAI', status: 'ready' });
    sources.push({ provider: 'elevenlabs', name: 'ElevenLabs', status: 'ready' });
    voices.push(...CLOUD);
  }
  sources.push({ provider: 'offline', name: 'Offline voice', status: 'ready' });
  voices.push(...OFFLINE);
  const fallback = server === 'ready' ? 'af_heart' : options.cloud ? 'alloy' : 'en-us+f3';
  return { voices: withDefault(voices, fallback), sources };
}

export function voicesHandler(options: ReplyOptions & { list?: VoiceList } = {}) {
  return getListVoicesMockHandler(
    answer(options, () => options.list ?? voiceListFixture({ server: 'none', cloud: true })),
  );
}

/** A voice's sample: the stories' sample MP3 (a minute of tones), fetched past the mocks. */
export function voiceSampleHandler(options: ReplyOptions & { onSample?: (provider: string, id: string) => void } = {}) {
  return getGetVoiceSampleMockHandler(
    answer(options, async ({ params }) => {
      options.onSample?.(String(params.provider), String(params.voiceId));
      return (await fetch(bypass(SAMPLE_AUDIO_URL))).arrayBuffer();
    }),
  );
}
