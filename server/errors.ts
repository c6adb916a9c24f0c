/**
 * The one error model of the server's domains. A DomainError says what went wrong in words a user
 * can read (shown as is, as an HTTP error's `detail` or a job step's error), which KIND of failure
 * it is, and whether trying the same thing again later may succeed (`retryable`: the job runner
 * retries a step on it). Domains never pick HTTP statuses: http/errors.ts maps each kind to its
 * status in one table. docs/data-model.md lists the kinds.
 */
export type DomainErrorKind =
  /** The request cannot be read as sent (e.g. not a web address at all). 400. */
  | 'malformed'
  /** No valid credentials. 401. */
  | 'unauthenticated'
  /** Known caller, not allowed (sign-up closed, a media link expired). 403. */
  | 'forbidden'
  /** Does not exist, or is not the caller's (the two are indistinguishable). 404. */
  | 'not_found'
  /** Not in this state (cancel a finished job, save progress of an unfinished one). 409. */
  | 'conflict'
  /** A file or page over its size limit. 413. */
  | 'too_large'
  /** A per-user storage quota would be passed. 413. */
  | 'quota_exceeded'
  /** A kind of file or page that cannot be converted. 415. */
  | 'unsupported'
  /** Understood but refused: too short, empty, damaged, a private address. 422. */
  | 'invalid'
  /** Too many at once or too often; `retryAfterSeconds` says when to try again. 429. */
  | 'rate_limited'
  /** Another server (a web page's site, a voice provider) answered with a failure. 502. */
  | 'upstream_failed'
  /** A part of this service (the file store, a voice engine) is down for now. 503. */
  | 'unavailable'
  /** Another server did not answer in time. 504. */
  | 'upstream_timeout'
  /** The server's own storage is full: nothing new is accepted until space is freed. 507. */
  | 'insufficient_storage';

/** Kinds where the same attempt may succeed later; an error can say otherwise for itself. */
const RETRYABLE_KINDS: ReadonlySet<DomainErrorKind> = new Set(['rate_limited', 'unavailable', 'upstream_timeout']);

export interface DomainErrorOptions {
  /** Whether trying again later may succeed; defaults by kind (RETRYABLE_KINDS). */
  retryable?: boolean;
  /** For rate_limited and unavailable: seconds until another attempt may succeed. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: DomainErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = kind;
    this.retryable = options.retryable ?? RETRYABLE_KINDS.has(kind);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
