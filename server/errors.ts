/**
 * Errors the domain raises. They say what went wrong in words a user can read and which kind
 * of failure it is; the HTTP layer (http/errors.ts) alone decides the status code.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  /** A per-user storage quota would be passed (413). */
  | 'quota_exceeded';

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  /** For rate_limited: seconds until another attempt may succeed. */
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: DomainErrorKind, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
