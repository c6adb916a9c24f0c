/**
 * Sign-in throttling. An attempt is counted when it starts, before the password is hashed, in
 * one synchronous step: concurrent guesses cannot all pass the check before any of them is
 * counted. Three counters, each in a fixed window that starts at its first attempt:
 *
 * - (account, client address): `maxAttempts` failures, then 429 until the window ends. Only the
 *   address that guessed is blocked, so nobody can lock the owner out from elsewhere.
 * - client address: `maxAttempts * ADDRESS_FACTOR` failures across accounts (several people may
 *   share an address), then 429 until the window ends.
 * - account: after `maxAttempts * ACCOUNT_FACTOR` failures from any addresses, each further
 *   attempt has to wait a delay that doubles with every failure (1 s, 2 s, 4 s ... up to
 *   MAX_ACCOUNT_DELAY_SECONDS): guessing from many addresses slows to a crawl, while the owner
 *   can still sign in after a short wait.
 *
 * A successful sign-in takes its attempt back (and clears its account/address counter); an
 * attempt refused because the hashing queue was full still counts for its client; one that failed
 * for another reason (the database) is taken back entirely. Kept in memory: limits reset when the server restarts and are not shared between
 * server processes, which suits the single API process this server runs as.
 */
export interface LoginThrottle {
  /** Counts an attempt, or says how long to wait when one of its limits is reached. */
  begin(account: string, address: string): LoginGate;
}

export type LoginGate = { allowed: true; attempt: LoginAttempt } | { allowed: false; retryAfterSeconds: number };

export interface LoginAttempt {
  /** The password was right. */
  succeeded(): void;
  /** The password was wrong or the account unknown: the attempt stays counted. */
  failed(): void;
  /**
   * The server was too busy to check the password (the hashing queue was full). The attempt still
   * counts for its (account, address) pair and its address, so refusals cannot be used to get more
   * guesses checked, but not towards the account's delays, since no password was checked.
   */
  refusedBusy(): void;
  /** The password could not be checked because something failed: the attempt is taken back. */
  notChecked(): void;
}

/** A client address may fail this many times the per-account limit, across accounts. */
export const ADDRESS_FACTOR = 4;
/** Failures on one account, from any addresses, before its attempts are spaced out. */
export const ACCOUNT_FACTOR = 2;
export const MAX_ACCOUNT_DELAY_SECONDS = 60;

interface Counter {
  attempts: number;
  endsAt: number;
  /** Account counters only: no attempt before this time. */
  nextAt: number;
}

/** Prune expired windows once the map grows past this, so the store cannot grow without bound. */
const PRUNE_THRESHOLD = 10_000;

export function createLoginThrottle(options: {
  windowSeconds: number;
  maxAttempts: number;
  now: () => Date;
}): LoginThrottle {
  const windowMs = options.windowSeconds * 1000;
  const counters = new Map<string, Counter>();
  const nowMs = () => options.now().getTime();
  const pairLimit = options.maxAttempts;
  const addressLimit = options.maxAttempts * ADDRESS_FACTOR;
  const accountFree = options.maxAttempts * ACCOUNT_FACTOR;

  function live(key: string, at: number): Counter | undefined {
    const counter = counters.get(key);
    if (counter !== undefined && counter.endsAt <= at) {
      counters.delete(key);
      return undefined;
    }
    return counter;
  }

  function count(key: string, at: number): Counter {
    const counter = live(key, at) ?? { attempts: 0, endsAt: at + windowMs, nextAt: 0 };
    counter.attempts += 1;
    counters.set(key, counter);
    return counter;
  }

  /** Takes one attempt back, unless its window has been replaced meanwhile. */
  function uncount(key: string, counter: Counter): void {
    if (counters.get(key) === counter && counter.attempts > 0) counter.attempts -= 1;
  }

  function prune(at: number) {
    if (counters.size < PRUNE_THRESHOLD) return;
    for (const [key, counter] of counters) if (counter.endsAt <= at) counters.delete(key);
  }

  function accountDelayMs(failuresOverFree: number): number {
    return Math.min(2 ** (failuresOverFree - 1), MAX_ACCOUNT_DELAY_SECONDS) * 1000;
  }

  return {
    begin(account, address) {
      const at = nowMs();
      prune(at);
      const pairKey = `pair:${account}\n${address}`;
      const addressKey = `addr:${address}`;
      const accountKey = `acct:${account}`;

      let waitMs = 0;
      const pair = live(pairKey, at);
      if (pair !== undefined && pair.attempts >= pairLimit) waitMs = Math.max(waitMs, pair.endsAt - at);
      const byAddress = live(addressKey, at);
      if (byAddress !== undefined && byAddress.attempts >= addressLimit)
        waitMs = Math.max(waitMs, byAddress.endsAt - at);
      const byAccount = live(accountKey, at);
      if (byAccount !== undefined && byAccount.nextAt > at) waitMs = Math.max(waitMs, byAccount.nextAt - at);
      if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };

      const pairCounter = count(pairKey, at);
      const addressCounter = count(addressKey, at);
      const accountCounter = count(accountKey, at);
      const previousNextAt = accountCounter.nextAt;
      // Past the free failures, this attempt holds the account's next slot while it is checked.
      if (accountCounter.attempts > accountFree)
        accountCounter.nextAt = at + accountDelayMs(accountCounter.attempts - accountFree);

      let settled = false;
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        action();
      };
      return {
        allowed: true,
        attempt: {
          succeeded: () =>
            settle(() => {
              if (counters.get(pairKey) === pairCounter) counters.delete(pairKey);
              uncount(addressKey, addressCounter);
              uncount(accountKey, accountCounter);
            }),
          failed: () => settle(() => undefined),
          refusedBusy: () =>
            settle(() => {
              uncount(accountKey, accountCounter);
              if (counters.get(accountKey) === accountCounter) accountCounter.nextAt = previousNextAt;
            }),
          notChecked: () =>
            settle(() => {
              uncount(pairKey, pairCounter);
              uncount(addressKey, addressCounter);
              uncount(accountKey, accountCounter);
              if (counters.get(accountKey) === accountCounter) accountCounter.nextAt = previousNextAt;
            }),
        },
      };
    },
  };
}
