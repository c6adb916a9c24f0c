import { Worker } from 'node:worker_threads';
import type { TutoringAnalysis } from './tutoring';

/** tutoring.ts beside this file when run from source, tutoring.mjs beside the compiled server. */
const MODULE_URL = new URL(import.meta.url.endsWith('.ts') ? './tutoring.ts' : './tutoring.mjs', import.meta.url).href;
const WORKER_URL = new URL('./analysis-worker.mjs', import.meta.url);

/**
 * The tutoring analysis (characters, setting, themes, questions) in a short-lived worker thread,
 * so its NLP models never stay resident in the server. Rejects if the thread fails; the worker
 * is stopped when `signal` aborts.
 *
 * The text may be given as its UTF-8 bytes: they are handed to the thread, not copied (the
 * array is detached here), and decoded there, so a long book's text is never held as a string
 * by the server's thread.
 */
export function analyseInWorker(
  text: string | Uint8Array,
  signal?: AbortSignal,
  now = new Date(),
): Promise<TutoringAnalysis> {
  signal?.throwIfAborted();
  return new Promise<TutoringAnalysis>((resolve, reject) => {
    // Only an array that owns its whole buffer is handed over (a pooled Buffer's is shared).
    const owns = typeof text !== 'string' && text.byteOffset === 0 && text.byteLength === text.buffer.byteLength;
    const transfer = owns ? [text.buffer as ArrayBuffer] : [];
    const worker = new Worker(WORKER_URL, {
      workerData: { moduleUrl: MODULE_URL, text, now: now.toISOString() },
      transferList: transfer,
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
