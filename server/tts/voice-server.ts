/**
 * A voice server beside Lectio: any speech server of the OpenAI protocol (Kokoro-FastAPI,
 * and others of the same shape), at TTS_SERVER_URL (its API base, e.g. http://localhost:8880/v1).
 *
 * - Voices: `GET {url}/audio/voices` answers `{"voices": [...]}` (ids, or `{id, name}` objects);
 *   a server without that route offers TTS_SERVER_VOICES. The list is asked again when it is
 *   older than a minute (ten seconds while the server does not answer), so voices added to the
 *   server appear without a restart.
 * - Speech: `POST {url}/audio/speech` with `{model, input, voice, response_format: 'wav',
 *   stream: false}`; one sentence per request, so each sentence's time in the audio is exact.
 * - Word timings: `POST {url without /v1}/dev/captioned_speech` (same body, `return_timestamps`)
 *   answers the audio in base64 and the words it spoke with their times; a server without that
 *   route (404, 405, 501) is asked for plain speech from then on.
 * - At most TTS_SERVER_CONCURRENCY requests at once per process (p-limit), whatever asks: every
 *   chapter being converted and the voice samples share them.
 * - 429, 5xx, timeouts and network failures are tried again with backoff (retry.ts); what is left
 *   fails with a message naming the server (TTS_SERVER_NAME), retryable, so the job's step is
 *   tried again and a retried job resumes where it stopped.
 */
import pLimit from 'p-limit';
import { alignCaptions, type CaptionToken } from './captions';
import { resolveRetry, withRetries, type RetryOptions } from './retry';
import { TtsError, type Speech, type TtsEngine } from './types';
import { AttemptError, classifyAttempt, request } from './voice-server-http';
import { parseWav, pcm16leToSamples } from './wav';

export interface VoiceServerOptions {
  /** The API base, e.g. http://localhost:8880/v1 (no trailing slash needed). */
  url: string;
  key?: string | undefined;
  model: string;
  /** Shown to users, and in messages. */
  name: string;
  concurrency: number;
  /** Offered when the server does not list its voices. */
  voices: readonly string[];
  retry?: RetryOptions | undefined;
  /** Deadline of one speech request (default 120 s). */
  timeoutMs?: number | undefined;
  /** Deadline of one voice-list request (default 5 s). */
  listTimeoutMs?: number | undefined;
  /** How long a voice list is trusted (default 60 s; a failed answer a sixth of that). */
  refreshMs?: number | undefined;
}

export interface VoiceServerState {
  reachable: boolean;
  /** Voice ids usable now (none while the server does not answer). */
  voices: string[];
  /** Why there are no voices, in words for the user. */
  detail?: string;
  checkedAt: number;
}

export interface VoiceServer {
  readonly name: string;
  /** The model name sent with every request (TTS_SERVER_MODEL). */
  readonly model: string;
  readonly engine: TtsEngine;
  /** The voice list, asked for when the last answer is stale (or at once with `fresh`). */
  voices(options?: { fresh?: boolean }): Promise<VoiceServerState>;
  /** The last answer at once (a stale one triggers a new question in the background); the first answer is awaited. */
  status(): Promise<VoiceServerState>;
}

/** Longest sentence piece sent in one request (a longer sentence is split between words). */
export const VOICE_SERVER_MAX_CHARS = 1000;
/** The sample rate assumed for headerless PCM (the OpenAI protocol's). */
const PCM_SAMPLE_RATE = 24_000;

const ENGINE = 'openai_compatible';

/** The server lacks the captions route: plain speech from now on. */
class CaptionsUnavailable extends TtsError {
  constructor() {
    super('The voice server gives no word timings', { retryable: false, code: 'bad_request', engine: ENGINE });
  }
}

function audioOf(bytes: Uint8Array, name: string): Speech {
  if (bytes.length >= 12 && Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF') {
    try {
      return parseWav(bytes);
    } catch (error) {
      throw new TtsError(`${name} answered audio that cannot be read: ${(error as Error).message}`, {
        retryable: false,
        code: 'bad_request',
        engine: ENGINE,
        cause: error,
      });
    }
  }
  // A server that ignores response_format and answers raw PCM (the protocol's 24 kHz mono).
  return { samples: pcm16leToSamples(bytes.slice()), sampleRate: PCM_SAMPLE_RATE };
}

/** `{voices: [...]}`, `{data: [...]}` or a bare array, of ids or `{id, name}` objects. */
function voiceIdsOf(bytes: Uint8Array): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return null;
  }
  const list = Array.isArray(parsed)
    ? parsed
    : ((parsed as { voices?: unknown; data?: unknown } | null)?.voices ?? (parsed as { data?: unknown } | null)?.data);
  if (!Array.isArray(list)) return null;
  const ids = list
    .map((v: unknown) =>
      typeof v === 'string' ? v : typeof (v as { id?: unknown })?.id === 'string' ? (v as { id: string }).id : '',
    )
    .map((id) => id.trim())
    .filter((id) => id !== '' && id.length <= 100);
  return [...new Set(ids)];
}

/** A captioned answer's speech: its audio (base64 WAV) with the words timed from its captions. */
function captionedSpeech(text: string, audio: string, timestamps: unknown, name: string): Speech {
  const speech = audioOf(Buffer.from(audio, 'base64'), name);
  const tokens: CaptionToken[] = (Array.isArray(timestamps) ? timestamps : []).flatMap((t: unknown) => {
    const o = t as { word?: unknown; start_time?: unknown; end_time?: unknown };
    return typeof o.word === 'string' && typeof o.start_time === 'number' && typeof o.end_time === 'number'
      ? [{ word: o.word, start: o.start_time, end: o.end_time }]
      : [];
  });
  return { ...speech, words: alignCaptions(text, tokens, speech.samples.length / speech.sampleRate) };
}

/** Text the voice server can be asked to read: not empty, and within one request's limit. */
function assertSpeakable(text: string, name: string): void {
  if (text.trim() === '') {
    throw new TtsError('Nothing to synthesize: the text is empty', {
      retryable: false,
      code: 'invalid_input',
      engine: ENGINE,
    });
  }
  if (text.length > VOICE_SERVER_MAX_CHARS) {
    throw new TtsError(
      `Text too long for ${name}: ${text.length} characters, the limit is ${VOICE_SERVER_MAX_CHARS} per request`,
      { retryable: false, code: 'invalid_input', engine: ENGINE },
    );
  }
}

export function createVoiceServer(options: VoiceServerOptions): VoiceServer {
  const base = options.url.replace(/\/+$/, '');
  const root = base.replace(/\/v1$/, '');
  const { name, key, model } = options;
  const retry = resolveRetry(options.retry);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const listTimeoutMs = options.listTimeoutMs ?? 5_000;
  const refreshMs = options.refreshMs ?? 60_000;
  const limit = pLimit(options.concurrency);
  let captions: 'unknown' | 'yes' | 'no' = 'unknown';

  async function captioned(text: string, voice: string, signal?: AbortSignal): Promise<Speech> {
    let answer;
    try {
      answer = await request({
        method: 'POST',
        url: `${root}/dev/captioned_speech`,
        key,
        timeoutMs,
        signal,
        body: { model, input: text, voice, response_format: 'wav', stream: false, return_timestamps: true },
      });
    } catch (error) {
      const status = error instanceof AttemptError ? error.failure.status : undefined;
      if (captions !== 'yes' && (status === 404 || status === 405 || status === 501)) throw new CaptionsUnavailable();
      throw error;
    }
    let body: { audio?: unknown; timestamps?: unknown };
    try {
      body = JSON.parse(Buffer.from(answer.bytes).toString('utf8')) as typeof body;
    } catch {
      body = {};
    }
    if (typeof body.audio !== 'string') {
      if (captions === 'yes') {
        throw new TtsError(`${name} answered word timings without audio`, {
          retryable: true,
          code: 'server',
          engine: ENGINE,
        });
      }
      throw new CaptionsUnavailable();
    }
    captions = 'yes';
    return captionedSpeech(text, body.audio, body.timestamps, name);
  }

  async function plain(text: string, voice: string, signal?: AbortSignal): Promise<Speech> {
    const answer = await request({
      method: 'POST',
      url: `${base}/audio/speech`,
      key,
      timeoutMs,
      signal,
      body: { model, input: text, voice, response_format: 'wav', stream: false },
    });
    return audioOf(answer.bytes, name);
  }

  async function synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech> {
    assertSpeakable(text, name);
    const voice = voiceId.trim();
    return limit(async () => {
      if (signal?.aborted) {
        throw new TtsError(`${name} request was cancelled`, { retryable: false, code: 'aborted', engine: ENGINE });
      }
      if (captions !== 'no') {
        try {
          return await withRetries(ENGINE, name, retry, () => captioned(text, voice, signal), classifyAttempt, signal);
        } catch (error) {
          if (!(error instanceof CaptionsUnavailable)) throw error;
          captions = 'no';
        }
      }
      return withRetries(ENGINE, name, retry, () => plain(text, voice, signal), classifyAttempt, signal);
    });
  }

  const engine: TtsEngine = {
    name: ENGINE,
    maxCharsPerRequest: VOICE_SERVER_MAX_CHARS,
    sentencePerRequest: true,
    concurrency: options.concurrency,
    synthesize,
  };

  return {
    name,
    model,
    engine,
    ...voiceList({ base, name, key, listTimeoutMs, refreshMs, configured: [...options.voices] }),
  };
}

/**
 * The voice server's voices: asked at most every `refreshMs` (a sixth of it while unreachable),
 * one question at a time; the configured list stands in when the server lists none.
 */
function voiceList(o: {
  base: string;
  name: string;
  key: string | undefined;
  listTimeoutMs: number;
  refreshMs: number;
  configured: string[];
}): Pick<VoiceServer, 'voices' | 'status'> {
  const { base, name, key, listTimeoutMs, refreshMs, configured } = o;
  let state: VoiceServerState | null = null;
  let asking: Promise<VoiceServerState> | null = null;

  async function ask(): Promise<VoiceServerState> {
    const checkedAt = Date.now();
    try {
      const answer = await request({ method: 'GET', url: `${base}/audio/voices`, key, timeoutMs: listTimeoutMs });
      const ids = voiceIdsOf(answer.bytes);
      if (ids !== null && ids.length > 0) return { reachable: true, voices: ids, checkedAt };
      return fromConfig(checkedAt, `${name} lists no voices`);
    } catch (error) {
      const failure = classifyAttempt(error);
      // Reachable, but without a voice list of its own.
      if (failure.kind === 'status' && (failure.status === 404 || failure.status === 405)) {
        return fromConfig(checkedAt, `${name} does not list its voices (set TTS_SERVER_VOICES)`);
      }
      return { reachable: false, voices: [], detail: `${name} is not reachable right now`, checkedAt };
    }
  }

  function fromConfig(checkedAt: number, detail: string): VoiceServerState {
    return configured.length > 0
      ? { reachable: true, voices: configured, checkedAt }
      : { reachable: true, voices: [], detail, checkedAt };
  }

  function refresh(): Promise<VoiceServerState> {
    asking ??= ask().then((answer) => {
      state = answer;
      asking = null;
      return answer;
    });
    return asking;
  }

  const stale = (s: VoiceServerState) => Date.now() - s.checkedAt >= (s.reachable ? refreshMs : refreshMs / 6);

  return {
    async voices(opts = {}) {
      if (opts.fresh || state === null || stale(state)) return refresh();
      return state;
    },
    async status() {
      if (state === null) return refresh();
      if (stale(state)) void refresh();
      return state;
    },
  };
}
