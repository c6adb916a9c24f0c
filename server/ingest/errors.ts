/**
 * Errors raised while acquiring text (fetching a page, reading an upload, extracting an article).
 * The message is written for the end user: it is shown as a job step's error or as an HTTP error
 * body. `status` is the HTTP status that best describes the failure.
 */
export type IngestStatus = 400 | 413 | 415 | 422 | 502 | 504;

export class IngestError extends Error {
  readonly status: IngestStatus;

  constructor(status: IngestStatus, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IngestError';
    this.status = status;
  }
}

export function isIngestError(value: unknown): value is IngestError {
  return value instanceof IngestError;
}

/** Formats a byte count the way the messages do: 10 MiB -> "10 MB". */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  const kb = bytes / 1024;
  if (kb >= 1) return `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB`;
  return `${bytes} bytes`;
}
