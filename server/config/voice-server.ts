import { ConfigError, httpUrl, integer, list, section, text, textOr } from './declare';

/** A voice id as a speech server names it: letters, digits and a few joiners (Kokoro: af_heart, am_adam+af_sky). */
const VOICE_ID = /^[\p{L}\p{N}_.+()-]{1,100}$/u;

/** The OpenAI-compatible speech server beside Lectio, when TTS_SERVER_URL is set. */
export interface VoiceServerConfig {
  /** The API base without a trailing slash, e.g. http://localhost:8880/v1. */
  url: string;
  key: string | undefined;
  model: string;
  /** What users see as the source's name. */
  name: string;
  /** Requests sent at once by one process. */
  concurrency: number;
  /** Voice ids to offer when the server does not list its own. */
  voices: string[];
}

/**
 * An OpenAI-compatible speech server run beside Lectio (Kokoro-FastAPI, and other servers of the
 * same protocol): its neural voices are a voice source of their own (provider `openai_compatible`).
 */
export const voiceServerSection = section({
  title: 'Voice server',
  variables: {
    ttsServerUrl: httpUrl(
      'TTS_SERVER_URL',
      '(unset: no voice server)',
      'Base URL of an OpenAI-compatible speech API run beside Lectio, e.g. http://localhost:8880/v1 (Kokoro-FastAPI). Its voices (GET {url}/audio/voices) become a voice source of their own; speech comes from POST {url}/audio/speech, word timings for the read-along from POST {url without /v1}/dev/captioned_speech when the server offers it.',
    ),
    ttsServerKey: text(
      'TTS_SERVER_KEY',
      {},
      'Bearer key sent to TTS_SERVER_URL, when the server asks for one (local servers usually do not).',
    ),
    ttsServerModel: textOr(
      'TTS_SERVER_MODEL',
      { default: 'kokoro' },
      'The model name sent with every speech request to TTS_SERVER_URL.',
    ),
    ttsServerName: textOr(
      'TTS_SERVER_NAME',
      { default: 'Voice server' },
      'What users see as the name of this voice source (e.g. "Kokoro").',
    ),
    ttsServerConcurrency: integer(
      'TTS_SERVER_CONCURRENCY',
      { min: 1, max: 32, default: 2 },
      'Speech requests one process sends to TTS_SERVER_URL at the same time (1-32), across every book it converts. A CPU-only server gains little above its core count.',
    ),
    ttsServerVoices: list(
      'TTS_SERVER_VOICES',
      {
        shown: '(the server says)',
        bad: (entry) => !VOICE_ID.test(entry),
        problem: (bad) => `TTS_SERVER_VOICES lists voice names that are not valid: ${bad}`,
      },
      "Comma-separated voice ids to offer when the server does not answer GET {url}/audio/voices (e.g. af_heart,bf_emma). Unset: the server's own list, refreshed every minute.",
    ),
  },
  rawOnly: [
    'ttsServerUrl',
    'ttsServerKey',
    'ttsServerModel',
    'ttsServerName',
    'ttsServerConcurrency',
    'ttsServerVoices',
  ],
  derive: (vars): { voiceServer: VoiceServerConfig | undefined } => {
    if (vars.ttsServerUrl === undefined) {
      if (vars.ttsServerVoices.length > 0 || vars.ttsServerKey !== undefined) {
        throw new ConfigError('TTS_SERVER_VOICES or TTS_SERVER_KEY is set but TTS_SERVER_URL is not: name the server');
      }
      return { voiceServer: undefined };
    }
    return {
      voiceServer: {
        url: vars.ttsServerUrl.replace(/\/+$/, ''),
        key: vars.ttsServerKey,
        model: vars.ttsServerModel,
        name: vars.ttsServerName,
        concurrency: vars.ttsServerConcurrency,
        voices: vars.ttsServerVoices,
      },
    };
  },
});
