/** Mono 16-bit signed PCM. */
export interface Speech {
  samples: Int16Array;
  sampleRate: number;
}

export type EngineName = 'espeak-ng' | 'openai' | 'elevenlabs';

export interface TtsEngine {
  readonly name: EngineName;
  /**
   * Longest text (in UTF-16 code units, i.e. `text.length`) sent in one `synthesize` call. The
   * pipeline groups whole sentences up to it; sentence timings inside one call are estimated by
   * character share, so a smaller value gives finer timings at the cost of more calls.
   */
  readonly maxCharsPerRequest: number;
  synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech>;
}

export type TtsErrorCode =
  | 'invalid_input' // empty text, text over the limit, bad voice name
  | 'auth' // 401/403
  | 'bad_request' // other 4xx
  | 'rate_limited' // 429 after all retries
  | 'server' // 5xx after all retries
  | 'network' // connection failure / timeout after all retries
  | 'aborted' // the caller's AbortSignal fired
  | 'engine'; // the offline engine failed

/**
 * Error thrown by every engine. `message` is written for the user (it can be stored on the job and
 * shown as is); `retryable` says whether trying the same request again later may succeed.
 */
export class TtsError extends Error {
  override readonly name = 'TtsError';
  readonly retryable: boolean;
  readonly code: TtsErrorCode;
  readonly engine: EngineName;
  /** HTTP status of the last failed request, if any. */
  readonly status?: number;
  /** Number of requests made (1 + retries), when an HTTP provider was called. */
  readonly attempts?: number;

  constructor(
    message: string,
    opts: {
      retryable: boolean;
      code: TtsErrorCode;
      engine: EngineName;
      status?: number;
      attempts?: number;
      cause?: unknown;
    },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.retryable = opts.retryable;
    this.code = opts.code;
    this.engine = opts.engine;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.attempts !== undefined) this.attempts = opts.attempts;
  }
}

export function isTtsError(e: unknown): e is TtsError {
  return e instanceof TtsError;
}

/** Duration of a Speech in seconds. */
export function speechSeconds(s: Speech): number {
  return s.samples.length / s.sampleRate;
}
