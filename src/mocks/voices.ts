import { bypass } from 'msw';
import { getReconvertJobMockHandler } from '../api/gen/endpoints/jobs/jobs.msw';
import {
  getGetPronunciationsMockHandler,
  getPutPronunciationsMockHandler,
} from '../api/gen/endpoints/pronunciations/pronunciations.msw';
import { getGetVoiceSampleMockHandler, getListVoicesMockHandler } from '../api/gen/endpoints/voices/voices.msw';
import type { Pronunciation, ReconvertResult, Voice, VoiceList, VoiceSource } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';
import { SAMPLE_AUDIO_URL } from './audio';

/**
 * The voices, samples and pronunciations the voice picker and the book page's pronunciation
 * editor show: a Kokoro voice server (or not), the cloud voices of a server with keys, and the
 * offline voice's eSpeak-NG variants.
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

export function pronunciationsHandler(options: ReplyOptions & { entries?: Pronunciation[] } = {}) {
  return getGetPronunciationsMockHandler(answer(options, () => options.entries ?? []));
}

/** PUT /pronunciations: answers the list as sent (trimmed); `onPut` sees each list. */
export function putPronunciationsHandler(options: ReplyOptions & { onPut?: (list: Pronunciation[]) => void } = {}) {
  return getPutPronunciationsMockHandler(
    answer(options, async ({ request }) => {
      const list = ((await request.clone().json()) as Pronunciation[]).map((e) => ({
        text: e.text.trim(),
        say_as: e.say_as.trim(),
      }));
      options.onPut?.(list);
      return list;
    }),
  );
}

/** POST /jobs/{jobId}/reconvert: re-converts `chapters` (none by default) of the sample book. */
export function reconvertHandler(options: ReplyOptions & { chapters?: number[] } = {}) {
  return getReconvertJobMockHandler(
    answer(options, (): ReconvertResult => {
      const chapters = options.chapters ?? [];
      return { chapters, status: chapters.length > 0 ? 'PENDING' : 'COMPLETED' };
    }),
  );
}
