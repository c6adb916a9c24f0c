/**
 * The one retry policy of the conversion engine. A failure that may pass later is retried at one
 * layer only: a voice provider's request by the voice client (tts/retry.ts), whose final error
 * says it was already retried, and any other step failure by the job runner; the queue (pg-boss)
 * does not retry messages at all (a worker that dies is found by the lease sweep instead). Both
 * spend the same budget per step: RETRY_BUDGET.attempts attempts at most, and no further attempt
 * once the time since the first one plus the next wait would pass RETRY_BUDGET.totalMs. Each retry
 * is logged with its cause; when the budget is spent the step, and its job, fail with the last one.
 */
export interface RetryBudget {
  /** Attempts in all, the first one included. */
  attempts: number;
  /** No attempt starts later than this after the first one. */
  totalMs: number;
  /** The first wait; each further wait doubles, with jitter. */
  baseDelayMs: number;
  /** The longest single wait, a server's Retry-After included. */
  maxDelayMs: number;
}

export const RETRY_BUDGET: Readonly<RetryBudget> = {
  attempts: 4,
  totalMs: 120_000,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
};

/**
 * The wait before the next attempt after `made` attempts that began `elapsedMs` ago (honouring a
 * server's `hintMs`, e.g. Retry-After, up to maxDelayMs), or null when the budget is spent.
 */
export function nextRetryDelay(budget: RetryBudget, made: number, elapsedMs: number, hintMs?: number): number | null {
  if (made >= budget.attempts) return null;
  const backoff = budget.baseDelayMs * 2 ** Math.max(0, made - 1) * (0.75 + Math.random() * 0.5);
  const wait = Math.min(budget.maxDelayMs, hintMs ?? backoff);
  return elapsedMs + wait > budget.totalMs ? null : wait;
}
