import { DomainError, type DomainErrorKind } from '../errors';

/**
 * Errors raised while acquiring text (fetching a page, reading an upload, extracting an article).
 * The message is written for the end user: it is shown as a job step's error or as an HTTP error
 * body. Its kind is one of the domain's (server/errors.ts); a page that did not answer in time
 * (upstream_timeout) is the only one the job runner tries again.
 */
type IngestErrorKind = Extract<
  DomainErrorKind,
  'malformed' | 'too_large' | 'unsupported' | 'invalid' | 'upstream_failed' | 'upstream_timeout'
>;

export class IngestError extends DomainError {
  declare readonly kind: IngestErrorKind;

  constructor(kind: IngestErrorKind, message: string, options?: { cause?: unknown }) {
    super(kind, message, options);
    this.name = 'IngestError';
  }
}

/** Formats a byte count the way the messages do: 10 MiB -> "10 MB". */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  const kb = bytes / 1024;
  if (kb >= 1) return `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB`;
  return `${bytes} bytes`;
}
