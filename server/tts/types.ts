import { DomainError, type DomainErrorKind } from '../errors';

/** Mono 16-bit signed PCM. */
export interface Speech {
  samples: Int16Array;
  sampleRate: number;
  /**
   * When the engine knows them: the words of the text it was given, in order, with when each is
   * spoken (seconds from the first sample) and where it is in that text (UTF-16 offsets).
   */
  words?: WordTiming[];
}

/**
 * Speech an engine encoded to MP3 where it made it (the offline voice's kept-running hosts built
 * with LAME): the MP3 bytes it added to its stream, and how much speech that was.
 */
export interface EncodedSpeech {
  mp3: Uint8Array;
  /** Samples spoken, at `sampleRate` (the MP3's frames hold them, give or take LAME's delay). */
  samples: number;
  sampleRate: number;
  words?: WordTiming[];
}

/** One MP3 stream an engine encodes itself: speech in, in order; `finish` returns the last bytes. */
export interface EncodedSpeechStream {
  readonly sampleRate: number;
  speak(text: string, signal?: AbortSignal): Promise<EncodedSpeech>;
  finish(): Promise<Uint8Array>;
  /** Drops the stream (a conversion given up). */
  close(): void;
}

export interface WordTiming {
  start: number;
  end: number;
  charStart: number;
  charEnd: number;
}

export type EngineName = 'espeak-ng' | 'openai' | 'elevenlabs' | 'openai_compatible';

export interface TtsEngine {
  readonly name: EngineName;
  /**
   * Longest text (in UTF-16 code units, i.e. `text.length`) sent in one `synthesize` call. The
   * pipeline groups whole sentences up to it; sentence timings inside one call are estimated by
   * character share, so a smaller value gives finer timings at the cost of more calls.
   */
  readonly maxCharsPerRequest: number;
  /**
   * Each request holds one sentence (longer ones are split at words), so every sentence's time in
   * the audio is exact. Without it the pipeline groups whole sentences up to maxCharsPerRequest.
   */
  readonly sentencePerRequest?: boolean;
  /** Requests worth sending at once for one text (the engine bounds its own total); default 1. */
  readonly concurrency?: number;
  synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech>;
  /**
   * Opens an MP3 stream (constant bitrate `kbpsFor(its sample rate)`) the engine encodes as it
   * speaks, so no PCM leaves it; resolves null when it cannot here (the caller then encodes
   * `synthesize`'s PCM itself).
   */
  openEncodedStream?(
    voiceId: string,
    kbpsFor: (sampleRate: number) => number,
    signal?: AbortSignal,
  ): Promise<EncodedSpeechStream | null>;
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

/** The domain kind of each engine failure (how the HTTP edge would answer it; see server/errors.ts). */
const KIND_BY_CODE: Record<TtsErrorCode, DomainErrorKind> = {
  invalid_input: 'invalid',
  auth: 'upstream_failed',
  bad_request: 'upstream_failed',
  rate_limited: 'unavailable',
  server: 'upstream_failed',
  network: 'upstream_failed',
  aborted: 'unavailable',
  engine: 'unavailable',
};

/**
 * Error thrown by every engine. `message` is written for the user (it can be stored on the job and
 * shown as is); `retryable` says whether trying the same request again later may succeed (the
 * engine decides it: a 5xx after the engine's own retries is, a refused key is not).
 */
export class TtsError extends DomainError {
  override readonly name = 'TtsError';
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
    super(KIND_BY_CODE[opts.code], message, {
      retryable: opts.retryable,
      ...(opts.cause !== undefined && { cause: opts.cause }),
    });
    this.code = opts.code;
    this.engine = opts.engine;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.attempts !== undefined) this.attempts = opts.attempts;
  }
}

export function isTtsError(e: unknown): e is TtsError {
  return e instanceof TtsError;
}
