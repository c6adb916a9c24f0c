import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { resolveRetry, retryAfterMs, withRetries, type AttemptFailure, type RetryOptions } from './retry';
import { TtsError, type Speech, type TtsEngine } from './types';
import { pcm16leToSamples } from './wav';

export const OPENAI_MAX_CHARS = 4096;
/** OpenAI's `pcm` response format: 24 kHz, 16-bit signed little-endian, mono. */
export const OPENAI_PCM_SAMPLE_RATE = 24_000;
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini-tts';
export const OPENAI_DEFAULT_VOICE = 'alloy';

export interface OpenAiEngineOptions {
  apiKey: string;
  /** Defaults to OPENAI_BASE_URL, then https://api.openai.com/v1. */
  baseURL?: string;
  /** 'gpt-4o-mini-tts' (default), 'tts-1', 'tts-1-hd'. */
  model?: string;
  /** Per-request timeout (default 120 s). */
  timeoutMs?: number;
  /** Retries for 429 / 5xx / network errors. Our loop, not the SDK's (whose backoff is fixed). */
  retry?: RetryOptions;
  /** Optional style instructions (gpt-4o-mini-tts only). */
  instructions?: string;
  speed?: number;
}

export interface OpenAiEngine extends TtsEngine {
  readonly name: 'openai';
  readonly model: string;
}

function detailOf(e: APIError): string | undefined {
  const err = e.error as { message?: unknown } | undefined;
  if (err && typeof err.message === 'string' && err.message) return err.message;
  return undefined;
}

function classify(e: unknown): AttemptFailure {
  if (e instanceof APIUserAbortError) return { kind: 'aborted', cause: e };
  if (e instanceof APIConnectionTimeoutError) return { kind: 'timeout', cause: e };
  if (e instanceof APIConnectionError) {
    const c = e.cause as { code?: string; message?: string } | undefined;
    return { kind: 'network', detail: c?.code ?? c?.message, cause: e };
  }
  if (e instanceof APIError && typeof e.status === 'number') {
    return { kind: 'status', status: e.status, detail: detailOf(e), retryAfterMs: retryAfterMs(e.headers), cause: e };
  }
  if (e instanceof Error && e.name === 'AbortError') return { kind: 'aborted', cause: e };
  return { kind: 'network', detail: e instanceof Error ? e.message : String(e), cause: e };
}

export function createOpenAiEngine(options: OpenAiEngineOptions): OpenAiEngine {
  if (!options.apiKey) throw new Error('createOpenAiEngine: apiKey is required');
  const model = options.model ?? OPENAI_DEFAULT_MODEL;
  const retry = resolveRetry(options.retry);
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL ?? undefined;
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(baseURL ? { baseURL } : {}),
    maxRetries: 0,
    timeout: options.timeoutMs ?? 120_000,
  });

  async function synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech> {
    if (text.trim() === '') {
      throw new TtsError('Nothing to synthesize: the text is empty', {
        retryable: false,
        code: 'invalid_input',
        engine: 'openai',
      });
    }
    if (text.length > OPENAI_MAX_CHARS) {
      throw new TtsError(
        `Text too long for OpenAI: ${text.length} characters, the limit is ${OPENAI_MAX_CHARS} per request`,
        { retryable: false, code: 'invalid_input', engine: 'openai' },
      );
    }
    const voice = voiceId.trim() || OPENAI_DEFAULT_VOICE;
    return withRetries(
      'openai',
      'OpenAI',
      retry,
      async () => {
        const res = await client.audio.speech.create(
          {
            model,
            voice,
            input: text,
            response_format: 'pcm',
            ...(options.instructions ? { instructions: options.instructions } : {}),
            ...(options.speed ? { speed: options.speed } : {}),
          },
          signal ? { signal } : undefined,
        );
        const bytes = new Uint8Array(await res.arrayBuffer());
        return { samples: pcm16leToSamples(bytes), sampleRate: OPENAI_PCM_SAMPLE_RATE };
      },
      classify,
      signal,
    );
  }

  return { name: 'openai', model, maxCharsPerRequest: OPENAI_MAX_CHARS, synthesize };
}
