import { DomainError } from '../errors';

/**
 * Bounds the password hashing the server does at once. Each scrypt hash takes about 0.3 s of a
 * core and 32 MB; without a bound, 150 simultaneous sign-ins queue up behind each other and a real
 * sign-in waits over a minute. Here at most `concurrency` hashes run, at most `maxQueued` wait, and
 * one client address holds at most `maxPerAddress` of those places, so a single client cannot fill
 * the queue. Anything beyond gets a rate_limited error at once, with a Retry-After of when a place
 * is likely to be free again.
 */
export interface HashingQueue {
  /**
   * Takes a place for `address` at once (synchronously), or throws DomainError('rate_limited')
   * with retryAfterSeconds. The caller must run exactly one task with the place.
   */
  admit(address: string): HashingPlace;
}

export interface HashingPlace {
  /** Waits for a hashing slot, runs the task and gives the place back. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A starting guess for one hash at OWASP cost, until the first measured one. */
const INITIAL_ESTIMATE_MS = 300;

export function createHashingQueue(options: {
  concurrency: number;
  maxQueued: number;
  maxPerAddress: number;
}): HashingQueue {
  let active = 0;
  const waiting: (() => void)[] = [];
  const perAddress = new Map<string, number>();
  let averageMs = INITIAL_ESTIMATE_MS;

  /**
   * When a place is likely to be free again: one hash's time per slot. (Waiting for the whole queue
   * to drain would only help a flood that ignores Retry-After anyway.)
   */
  function retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(averageMs / options.concurrency / 1000));
  }

  function release(address: string): void {
    const held = (perAddress.get(address) ?? 1) - 1;
    if (held <= 0) perAddress.delete(address);
    else perAddress.set(address, held);
    const next = waiting.shift();
    if (next === undefined) active -= 1;
    else next(); // the slot passes straight to the next waiter
  }

  return {
    admit(address) {
      const held = perAddress.get(address) ?? 0;
      const mustWait = active >= options.concurrency;
      if (held >= options.maxPerAddress || (mustWait && waiting.length >= options.maxQueued)) {
        const wait = retryAfterSeconds();
        throw new DomainError(
          'rate_limited',
          `The server is busy with other sign-ins. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
          { retryAfterSeconds: wait },
        );
      }
      perAddress.set(address, held + 1);
      // The slot (or the place in line) is taken now, so concurrent callers see it at once.
      const slot = mustWait ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve();
      if (!mustWait) active += 1;
      let used = false;
      return {
        async run(task) {
          if (used) throw new Error('A hashing place runs one task');
          used = true;
          await slot;
          const started = performance.now();
          try {
            return await task();
          } finally {
            averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
            release(address);
          }
        },
      };
    },
  };
}
