import { Worker } from 'node:worker_threads';
import type { TutoringAnalysis } from './tutoring';

/** tutoring.ts beside this file when run from source, tutoring.mjs beside the compiled server. */
const MODULE_URL = new URL(import.meta.url.endsWith('.ts') ? './tutoring.ts' : './tutoring.mjs', import.meta.url).href;
const WORKER_URL = new URL('./analysis-worker.mjs', import.meta.url);

/**
 * The tutoring analysis (characters, setting, themes, questions) in a short-lived worker thread,
 * so its NLP models never stay resident in the server. Rejects if the thread fails; the worker
 * is stopped when `signal` aborts.
 */
export function analyseInWorker(text: string, signal?: AbortSignal, now = new Date()): Promise<TutoringAnalysis> {
  signal?.throwIfAborted();
  return new Promise<TutoringAnalysis>((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { moduleUrl: MODULE_URL, text, now: now.toISOString() },
      // A small young generation: the models are long-lived, so a big nursery only holds garbage
      // (about 20 MB less at the analysis's peak).
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = (): void => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (analysis: TutoringAnalysis) => settle(() => resolve(analysis)));
    worker.once('error', (error) => settle(() => reject(new Error(`The text analysis failed: ${error.message}`))));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`The text analysis stopped unexpectedly (exit code ${code})`))),
    );
  });
}
