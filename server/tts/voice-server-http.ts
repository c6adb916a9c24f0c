/**
 * The HTTP side of a voice server (an OpenAI-compatible speech API such as Kokoro-FastAPI): one
 * request with its own deadline, and every way it can fail turned into the AttemptFailure the
 * retry loop (retry.ts) decides on. Plain `fetch`: the three routes we call (speech, captioned
 * speech, the voice list) are JSON in and JSON or bytes out, and the OpenAI SDK knows only the first.
 */
import { retryAfterMs, type AttemptFailure } from './retry';

/** A failed attempt, carrying what the retry loop needs to know about it. */
export class AttemptError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.detail ?? failure.kind);
    this.name = 'AttemptError';
  }
}

export function classifyAttempt(error: unknown): AttemptFailure {
  if (error instanceof AttemptError) return error.failure;
  return { kind: 'network', detail: error instanceof Error ? error.message : String(error), cause: error };
}

/** The server's own words from an error body: FastAPI's {detail: {message}} or {detail: "..."}, OpenAI's {error: {message}}. */
export function detailOf(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const text = body.trim().slice(0, 300);
    return text === '' || text.startsWith('<') ? undefined : text;
  }
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string' && value !== '') return value.slice(0, 300);
    if (Array.isArray(value)) return pick((value[0] as { msg?: unknown } | undefined)?.msg);
    if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      return pick(o.message) ?? pick(o.detail) ?? pick(o.error);
    }
    return undefined;
  };
  return pick(parsed);
}

/** What a network failure was, in a word an operator recognises (ECONNREFUSED, ENOTFOUND). */
function networkDetail(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : undefined;
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  url: string;
  key?: string | undefined;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * One request: resolves with the response body of a 2xx answer; rejects with an AttemptError
 * (status, network, timeout, aborted) otherwise, the body read within the same deadline.
 */
export async function request(options: RequestOptions): Promise<{ bytes: Uint8Array; contentType: string }> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: '*/*' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined && options.key !== '') headers.authorization = `Bearer ${options.key}`;
  try {
    const response = await fetch(options.url, {
      method: options.method,
      headers,
      signal,
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!response.ok) {
      throw new AttemptError({
        kind: 'status',
        status: response.status,
        detail: detailOf(Buffer.from(bytes).toString('utf8')),
        retryAfterMs: retryAfterMs(response.headers),
        cause: undefined,
      });
    }
    return { bytes, contentType: response.headers.get('content-type') ?? '' };
  } catch (error) {
    if (error instanceof AttemptError) throw error;
    if (options.signal?.aborted) throw new AttemptError({ kind: 'aborted', cause: error });
    if (timeout.aborted) throw new AttemptError({ kind: 'timeout', cause: error });
    throw new AttemptError({ kind: 'network', detail: networkDetail(error), cause: error });
  }
}
