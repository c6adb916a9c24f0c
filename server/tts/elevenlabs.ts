import type { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { resolveRetry, retryAfterMs, withRetries, type AttemptFailure, type RetryOptions } from './retry';
import { TtsError, type Speech, type TtsEngine } from './types';
import { pcm16leToSamples } from './wav';

export const ELEVENLABS_DEFAULT_MODEL = 'eleven_multilingual_v2';
export const ELEVENLABS_DEFAULT_VOICE = 'adam';
export const ELEVENLABS_PCM_SAMPLE_RATE = 24_000;

/** Characters per request by model (docs/adr/0011-cloud-voices-split-at-request-limits.md); unknown models get the most conservative. */
export const ELEVENLABS_MODEL_LIMITS: Readonly<Record<string, number>> = {
  eleven_multilingual_v2: 10_000,
  eleven_flash_v2_5: 40_000,
  eleven_turbo_v2_5: 40_000,
};
export const ELEVENLABS_UNKNOWN_MODEL_LIMIT = 5_000;

type ElevenLabsSdk = typeof import('@elevenlabs/elevenlabs-js');
let sdk: Promise<ElevenLabsSdk> | undefined;
/** The SDK is large (about 80 MB resident once loaded): it loads with the first request, never without a key. */
const loadSdk = (): Promise<ElevenLabsSdk> => (sdk ??= import('@elevenlabs/elevenlabs-js'));

/** Premade voices addressable by name; anything else is passed through as a voice id. */
export const ELEVENLABS_VOICE_IDS: Readonly<Record<string, string>> = {
  adam: 'pNInz6obpgDQGcFmaJgB',
  rachel: '21m00Tcm4TlvDq8ikWAM',
};

export function elevenLabsVoiceId(voice: string): string {
  const v = voice.trim();
  return ELEVENLABS_VOICE_IDS[v.toLowerCase()] ?? v;
}

export function elevenLabsMaxChars(model: string): number {
  return ELEVENLABS_MODEL_LIMITS[model] ?? ELEVENLABS_UNKNOWN_MODEL_LIMIT;
}

export interface ElevenLabsEngineOptions {
  apiKey: string;
  /** Defaults to ELEVENLABS_BASE_URL, then https://api.elevenlabs.io. */
  baseUrl?: string;
  /** Default eleven_multilingual_v2. */
  model?: string;
  /** Per-request timeout (default 240 s). */
  timeoutMs?: number;
  /** Retries for 429 / 5xx / network errors (our loop; the SDK's own retries are switched off). */
  retry?: RetryOptions;
}

export interface ElevenLabsEngine extends TtsEngine {
  readonly name: 'elevenlabs';
  readonly model: string;
}

function detailOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  if (body && typeof body === 'object') {
    const detail = (body as { detail?: unknown }).detail;
    if (typeof detail === 'string') return detail;
    if (detail && typeof detail === 'object') {
      const m = (detail as { message?: unknown }).message;
      if (typeof m === 'string') return m;
    }
    const m = (body as { message?: unknown }).message;
    if (typeof m === 'string') return m;
  }
  return undefined;
}

function classify({ ElevenLabsError, ElevenLabsTimeoutError }: ElevenLabsSdk, e: unknown): AttemptFailure {
  if (e instanceof ElevenLabsTimeoutError) return { kind: 'timeout', cause: e };
  if (e instanceof ElevenLabsError) {
    if (typeof e.statusCode === 'number') {
      return {
        kind: 'status',
        status: e.statusCode,
        detail: detailOf(e.body),
        retryAfterMs: retryAfterMs(e.rawResponse?.headers),
        cause: e,
      };
    }
    const c = e.cause as { code?: string; cause?: { code?: string } } | undefined;
    return { kind: 'network', detail: c?.code ?? c?.cause?.code ?? e.message, cause: e };
  }
  if (e instanceof Error && e.name === 'AbortError') return { kind: 'aborted', cause: e };
  return { kind: 'network', detail: e instanceof Error ? e.message : String(e), cause: e };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) {
    parts.push(part);
    total += part.length;
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

export function createElevenLabsEngine(options: ElevenLabsEngineOptions): ElevenLabsEngine {
  if (!options.apiKey) throw new Error('createElevenLabsEngine: apiKey is required');
  const model = options.model ?? ELEVENLABS_DEFAULT_MODEL;
  const maxChars = elevenLabsMaxChars(model);
  const retry = resolveRetry(options.retry);
  const baseUrl = options.baseUrl ?? process.env.ELEVENLABS_BASE_URL ?? undefined;
  const timeoutInSeconds = (options.timeoutMs ?? 240_000) / 1000;
  let client: ElevenLabsClient | undefined;

  async function synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech> {
    if (text.trim() === '') {
      throw new TtsError('Nothing to synthesize: the text is empty', {
        retryable: false,
        code: 'invalid_input',
        engine: 'elevenlabs',
      });
    }
    if (text.length > maxChars) {
      throw new TtsError(
        `Text too long for ElevenLabs (${model}): ${text.length} characters, the limit is ${maxChars} per request`,
        { retryable: false, code: 'invalid_input', engine: 'elevenlabs' },
      );
    }
    const voice = elevenLabsVoiceId(voiceId || ELEVENLABS_DEFAULT_VOICE);
    const loaded = await loadSdk();
    client ??= new loaded.ElevenLabsClient({
      apiKey: options.apiKey,
      ...(baseUrl ? { baseUrl } : {}),
      maxRetries: 0,
      timeoutInSeconds,
    });
    const api = client;
    return withRetries(
      'elevenlabs',
      'ElevenLabs',
      retry,
      async () => {
        const stream = await api.textToSpeech.convert(
          voice,
          { text, modelId: model, outputFormat: 'pcm_24000' },
          { maxRetries: 0, timeoutInSeconds, ...(signal ? { abortSignal: signal } : {}) },
        );
        const bytes = await readAll(stream);
        return { samples: pcm16leToSamples(bytes), sampleRate: ELEVENLABS_PCM_SAMPLE_RATE };
      },
      (e) => classify(loaded, e),
      signal,
    );
  }

  return { name: 'elevenlabs', model, maxCharsPerRequest: maxChars, synthesize };
}
