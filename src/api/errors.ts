/**
 * The client's one error model. Every failed API call (the generated hooks, the stores) rejects
 * with an ApiError that says what the server said, in the contract's ErrorBody terms, and whether
 * trying again can help; screens turn any error into words with errorMessage().
 */
import type { FieldErrorOutput } from './gen/model';

/** Statuses worth another try: no answer at all (0), a timeout, rate limiting, a server-side failure. */
function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** An error answer from the API (status > 0) or a failure to reach it (status 0). */
export class ApiError extends Error {
  readonly status: number;
  /** The body's `detail`, when the server sent the contract's ErrorBody. */
  readonly detail: string | undefined;
  /** The server's own explanation to show (`message`, else `detail`), when it gave one. */
  readonly serverMessage: string | undefined;
  /** The request's id (body `request_id`, else the `x-request-id` header), to quote in a report. */
  readonly requestId: string | undefined;
  /** Per-field reasons of a validation error. */
  readonly fieldErrors: FieldErrorOutput[];
  /** Whether the same request may succeed later: the server's say when it gives one, else by status. */
  readonly retryable: boolean;
  readonly body: unknown;

  constructor(
    status: number,
    body: unknown,
    { requestId, cause }: { requestId?: string | null; cause?: unknown } = {},
  ) {
    const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
    const serverMessage = text(fields.message) ?? text(fields.detail);
    super(serverMessage ?? (status ? `Request failed with status ${status}` : 'The server could not be reached'), {
      cause,
    });
    this.name = 'ApiError';
    this.status = status;
    this.detail = text(fields.detail);
    this.serverMessage = serverMessage;
    this.requestId = text(fields.request_id) ?? (requestId || undefined);
    this.fieldErrors = Array.isArray(fields.errors) ? (fields.errors as FieldErrorOutput[]) : [];
    this.retryable = typeof fields.retryable === 'boolean' ? fields.retryable : isRetryableStatus(status);
    this.body = body;
  }

  /** No such resource for this user: 404, or 422 for an address that cannot name one. */
  get notFound(): boolean {
    return this.status === 404 || this.status === 422;
  }
}

/** Whether a failed call is worth repeating (React Query's retry, a store's second try). */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && error.retryable;
}

/** The server's own words for a failure, when it sent any. */
export function serverReason(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

/**
 * The text to show for a failed call: the server's message when it sent one, else the caller's
 * default. An answer that did not match the contract is the caller's default too: the schema
 * library's words ("Invalid input: expected string…") are for developers, so they go to the console.
 */
export function errorMessage(error: unknown, fallback: string): string {
  const reason = serverReason(error);
  if (reason) return reason;
  if (isZodError(error)) console.error('An answer did not match the contract:', error.issues);
  return fallback;
}

/** A zod validation error, recognised without importing zod (which loads on demand). */
function isZodError(error: unknown): error is { issues: { message: string }[] } {
  return error instanceof Error && error.name === 'ZodError' && Array.isArray((error as { issues?: unknown }).issues);
}
