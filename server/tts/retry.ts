import { TtsError, type EngineName } from './types';

export interface RetryOptions {
  /** Retries after the first attempt for 429 / 5xx / network errors (default 4). */
  maxRetries?: number;
  /** First backoff delay in ms; doubles per retry, with jitter (default 500). */
  baseDelayMs?: number;
  /** Cap for a single wait, including a server's Retry-After (default 20,000). */
  maxDelayMs?: number;
}

export interface ResolvedRetry {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export function resolveRetry(r: RetryOptions = {}): ResolvedRetry {
  const maxRetries = Math.max(0, Math.floor(r.maxRetries ?? 4));
  const baseDelayMs = Math.max(0, r.baseDelayMs ?? 500);
  const maxDelayMs = Math.max(baseDelayMs, r.maxDelayMs ?? 20_000);
  return { maxRetries, baseDelayMs, maxDelayMs };
}

/** What went wrong with one HTTP attempt. */
export interface AttemptFailure {
  kind: 'status' | 'network' | 'timeout' | 'aborted';
  status?: number;
  /** Provider's own message, if any. */
  detail?: string;
  retryAfterMs?: number;
  cause: unknown;
}

/** Parses Retry-After (seconds or HTTP date) / retry-after-ms headers. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined | null): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isRetryable(f: AttemptFailure): boolean {
  if (f.kind === 'network' || f.kind === 'timeout') return true;
  if (f.kind === 'status' && f.status !== undefined) return f.status === 429 || f.status === 408 || f.status >= 500;
  return false;
}

/**
 * Runs `attempt` with bounded exponential backoff. `classify` turns whatever the SDK threw into
 * an AttemptFailure. Total waiting is at most maxRetries * maxDelayMs.
 */
export async function withRetries<T>(
  engine: EngineName,
  providerLabel: string,
  retry: ResolvedRetry,
  attempt: () => Promise<T>,
  classify: (e: unknown) => AttemptFailure,
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 0; ; n++) {
    let failure: AttemptFailure;
    try {
      return await attempt();
    } catch (e) {
      if (e instanceof TtsError) throw e;
      failure = classify(e);
    }
    if (failure.kind === 'aborted' || signal?.aborted) {
      throw new TtsError(`${providerLabel} request was cancelled`, {
        retryable: false,
        code: 'aborted',
        engine,
        attempts: n + 1,
        cause: failure.cause,
      });
    }
    if (!isRetryable(failure)) throw finalError(engine, providerLabel, failure, n + 1, false);
    if (n >= retry.maxRetries) throw finalError(engine, providerLabel, failure, n + 1, true);
    const backoff = retry.baseDelayMs * 2 ** n;
    const jittered = backoff * (0.75 + Math.random() * 0.5);
    const wait = Math.min(retry.maxDelayMs, failure.retryAfterMs ?? jittered);
    try {
      await sleep(wait, signal);
    } catch (reason) {
      throw new TtsError(`${providerLabel} request was cancelled`, {
        retryable: false,
        code: 'aborted',
        engine,
        attempts: n + 1,
        cause: reason,
      });
    }
  }
}

function finalError(
  engine: EngineName,
  label: string,
  f: AttemptFailure,
  attempts: number,
  exhausted: boolean,
): TtsError {
  const retries = attempts - 1;
  const giveUp = exhausted ? `: retried ${retries} time${retries === 1 ? '' : 's'}, giving up` : '';
  const detail = f.detail ? ` ${f.detail}` : '';
  const base = { engine, attempts, cause: f.cause };
  if (f.kind === 'network' || f.kind === 'timeout') {
    const what = f.kind === 'timeout' ? 'timed out' : `could not be reached${f.detail ? ` (${f.detail})` : ''}`;
    return new TtsError(`${label} ${what}${giveUp}`, { ...base, retryable: true, code: 'network' });
  }
  const status = f.status ?? 0;
  if (status === 429) {
    return new TtsError(`${label} rate limit${giveUp}${detail ? ` (last answer:${detail})` : ''}`, {
      ...base,
      status,
      retryable: true,
      code: 'rate_limited',
    });
  }
  if (status >= 500 || status === 408) {
    return new TtsError(`${label} is unavailable (${status})${giveUp}${detail ? ` (last answer:${detail})` : ''}`, {
      ...base,
      status,
      retryable: true,
      code: 'server',
    });
  }
  if (status === 401 || status === 403) {
    return new TtsError(
      `${label} rejected the request: ${status}${detail || (status === 401 ? ' invalid API key' : ' forbidden')}`,
      {
        ...base,
        status,
        retryable: false,
        code: 'auth',
      },
    );
  }
  return new TtsError(`${label} rejected the request: ${status}${detail}`, {
    ...base,
    status,
    retryable: false,
    code: 'bad_request',
  });
}
