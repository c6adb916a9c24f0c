import { nextRetryDelay, RETRY_BUDGET } from '../retry-policy';
import { TtsError, type EngineName } from './types';

/**
 * The voice client's side of the one retry policy (server/retry-policy.ts): its budget, and who
 * is told of each retry with its cause. The defaults are the policy's.
 */
export interface RetryOptions {
  /** Retries after the first attempt for 429 / 5xx / network errors (default: the budget's attempts - 1). */
  maxRetries?: number;
  /** First backoff delay in ms; doubles per retry, with jitter. */
  baseDelayMs?: number;
  /** Cap for a single wait, including a server's Retry-After. */
  maxDelayMs?: number;
  /** No retry starts later than this after the first attempt. */
  totalMs?: number;
  /** Told before each retry: what failed and how long until the next attempt. */
  onRetry?: (retry: { engine: EngineName; attempt: number; waitMs: number; cause: string }) => void;
}

export interface ResolvedRetry {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  totalMs: number;
  onRetry?: RetryOptions['onRetry'];
}

export function resolveRetry(r: RetryOptions = {}): ResolvedRetry {
  const maxRetries = Math.max(0, Math.floor(r.maxRetries ?? RETRY_BUDGET.attempts - 1));
  const baseDelayMs = Math.max(0, r.baseDelayMs ?? RETRY_BUDGET.baseDelayMs);
  const maxDelayMs = Math.max(baseDelayMs, r.maxDelayMs ?? RETRY_BUDGET.maxDelayMs);
  const totalMs = Math.max(0, r.totalMs ?? RETRY_BUDGET.totalMs);
  return { maxRetries, baseDelayMs, maxDelayMs, totalMs, ...(r.onRetry !== undefined && { onRetry: r.onRetry }) };
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
  const started = Date.now();
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
    const wait = nextRetryDelay(
      {
        attempts: retry.maxRetries + 1,
        totalMs: retry.totalMs,
        baseDelayMs: retry.baseDelayMs,
        maxDelayMs: retry.maxDelayMs,
      },
      n + 1,
      Date.now() - started,
      failure.retryAfterMs,
    );
    if (wait === null) throw finalError(engine, providerLabel, failure, n + 1, true);
    retry.onRetry?.({
      engine,
      attempt: n + 1,
      waitMs: Math.round(wait),
      cause: describeFailure(providerLabel, failure),
    });
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

/** One failed attempt in words, for the log line of a retry. */
function describeFailure(label: string, f: AttemptFailure): string {
  if (f.kind === 'status') return `${label} answered ${f.status ?? '?'}${f.detail ? `: ${f.detail}` : ''}`;
  if (f.kind === 'timeout') return `${label} timed out`;
  return `${label} could not be reached${f.detail ? ` (${f.detail})` : ''}`;
}

function finalError(
  engine: EngineName,
  label: string,
  f: AttemptFailure,
  attempts: number,
  exhausted: boolean,
): TtsError {
  const retries = attempts - 1;
  // A first attempt that used the whole time budget (a voice server that hangs) left no time to try again.
  const giveUp = !exhausted
    ? ''
    : retries === 0
      ? ': tried once, and no time was left to try again; giving up'
      : `: retried ${retries} time${retries === 1 ? '' : 's'}, giving up`;
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
