/**
 * Counts failed sign-ins per key (an email, a client IP) in a fixed window that starts at the
 * first failure. Kept in memory: limits reset when the server restarts and are not shared
 * between several server processes, which is acceptable for a single-process deployment.
 */
export interface LoginThrottle {
  /** Seconds until the most-blocked of the keys may try again, or 0 when none is blocked. */
  retryAfterSeconds(keys: readonly ThrottleKey[]): number;
  recordFailure(keys: readonly ThrottleKey[]): void;
  reset(key: ThrottleKey): void;
}

export interface ThrottleKey {
  key: string;
  maxAttempts: number;
}

interface Window {
  failures: number;
  endsAt: number;
}

/** Prune expired windows once the map grows past this, so the store cannot grow without bound. */
const PRUNE_THRESHOLD = 10_000;

export function createLoginThrottle(options: { windowSeconds: number; now: () => Date }): LoginThrottle {
  const windowMs = options.windowSeconds * 1000;
  const windows = new Map<string, Window>();
  const nowMs = () => options.now().getTime();

  function live(key: string, at: number): Window | undefined {
    const window = windows.get(key);
    if (window !== undefined && window.endsAt <= at) {
      windows.delete(key);
      return undefined;
    }
    return window;
  }

  function prune(at: number) {
    if (windows.size < PRUNE_THRESHOLD) return;
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
  }

  return {
    retryAfterSeconds(keys) {
      const at = nowMs();
      let wait = 0;
      for (const { key, maxAttempts } of keys) {
        const window = live(key, at);
        if (window !== undefined && window.failures >= maxAttempts) {
          wait = Math.max(wait, Math.ceil((window.endsAt - at) / 1000));
        }
      }
      return wait;
    },
    recordFailure(keys) {
      const at = nowMs();
      prune(at);
      for (const { key } of keys) {
        const window = live(key, at);
        if (window === undefined) windows.set(key, { failures: 1, endsAt: at + windowMs });
        else window.failures += 1;
      }
    },
    reset({ key }) {
      windows.delete(key);
    },
  };
}
