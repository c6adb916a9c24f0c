import { Worker } from 'node:worker_threads';

/** password-policy.ts beside this file when run from source, password-policy.mjs beside the compiled server. */
const MODULE_URL = new URL(
  import.meta.url.endsWith('.ts') ? './password-policy.ts' : './password-policy.mjs',
  import.meta.url,
).href;
const WORKER_URL = new URL('./password-policy-worker.mjs', import.meta.url);

export interface PasswordChecker {
  /** Null when the password is strong enough; otherwise the reason, in words to show the user. */
  weakReason(password: string, email: string): Promise<string | null>;
  /** Whether the rating thread is running (it ends after `idleMs` without a check). */
  readonly running: boolean;
  close(): Promise<void>;
}

interface Pending {
  resolve(reason: string | null): void;
  reject(error: Error): void;
}

/**
 * The password strength rule (password-policy.ts) in a worker thread started with the first check
 * and ended after `idleMs` without one: sign-ups and password changes are rare, and the estimator's
 * dictionaries (about 60 MB with the thread) would otherwise stay in the server's memory for good.
 * A cold check takes about half a second more (starting the thread, unpacking the dictionaries);
 * a burst of sign-ups keeps the thread warm. Checks queue in the one thread, in order; if it fails,
 * the waiting checks are rejected and the next check starts a new one.
 */
export function createPasswordChecker({ idleMs = 5_000 }: { idleMs?: number } = {}): PasswordChecker {
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error): void => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };

  const stop = async (): Promise<void> => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    const current = worker;
    worker = null;
    failAll(new Error('The password check was stopped (the server is shutting down)')); // none wait when idle
    if (current) await current.terminate();
  };

  const start = (): Worker => {
    const thread = new Worker(WORKER_URL, {
      workerData: { moduleUrl: MODULE_URL },
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    thread.unref();
    thread.on('message', (message: { id: number; reason?: string | null; error?: string }) => {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error !== undefined) waiting.reject(new Error(`The password check failed: ${message.error}`));
      else waiting.resolve(message.reason ?? null);
      if (pending.size === 0) armIdleTimer();
    });
    // A thread stopped on purpose (idle, closed) is no longer `worker`: its end fails nothing.
    thread.once('error', (error) => {
      if (worker !== thread) return;
      worker = null;
      failAll(new Error(`The password check failed: ${error.message}`));
    });
    thread.once('exit', () => {
      if (worker !== thread) return;
      worker = null;
      failAll(new Error('The password check stopped unexpectedly'));
    });
    return thread;
  };

  const armIdleTimer = (): void => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stop(), idleMs);
    idleTimer.unref();
  };

  return {
    weakReason(password, email) {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      worker ??= start();
      const id = nextId++;
      return new Promise<string | null>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker!.postMessage({ id, password, email });
      });
    },
    get running() {
      return worker !== null;
    },
    close: stop,
  };
}
