import { letFreeSpeechBlocksGo } from '../audio/pcm-memory';
import { collectGarbageSoon } from '../garbage';
import { threadWithSmallNursery } from '../thread-nursery';
import type { PeopleAndPlaces } from './people-and-places';
import type { TutoringAnalysis } from './tutoring';

/** A module beside the caller's file when run from source (.ts), beside the compiled server (.mjs). */
export const moduleBeside = (name: string, callerUrl: string): string =>
  new URL(callerUrl.endsWith('.ts') ? `./${name}.ts` : `./${name}.mjs`, callerUrl).href;

const besideThis = (name: string): string => moduleBeside(name, import.meta.url);
const FIRST_HALF = { moduleUrl: besideThis('people-and-places'), call: 'findPeopleAndPlaces' };
const SECOND_HALF = { moduleUrl: besideThis('tutoring'), call: 'analyseFound' };
const WORKER_URL = new URL('./analysis-worker.mjs', import.meta.url);

/**
 * The tutoring analysis (characters, setting, themes, questions) in short-lived worker threads, so
 * its NLP models never stay resident in the server: its first half (samples, people and places,
 * with compromise) in one thread, then its second half (characters, themes, setting, questions,
 * with retext) in another, so the two libraries are never loaded at once
 * (docs/adr/0055-analysis-in-two-threads-one-after-the-other.md). The result is the same as ./analyse.ts's analyseText
 * in one thread. Rejects if a thread fails; the running thread is stopped when `signal` aborts.
 *
 * The text may be given as its UTF-8 bytes: they are handed to the first thread, not copied (the
 * array is detached here), and decoded there, so a long book's text is never held as a string
 * by the server's thread.
 */
export async function analyseInWorker(
  text: string | Uint8Array,
  signal?: AbortSignal,
  now = new Date(),
): Promise<TutoringAnalysis> {
  const found = await inThread<PeopleAndPlaces | null>(FIRST_HALF, text, now, signal);
  return inThread<TutoringAnalysis>(SECOND_HALF, found, now, signal);
}

/**
 * Gives back what a book's synthesis left before its analysis's thread loads its models: its
 * garbage (../garbage.ts) and its free blocks of speech (../audio/pcm-memory.ts). Called when the
 * analysis comes after the speech (a book's); not for a text's analysis, which starts with its
 * synthesis, when there is nothing to collect and the collection's pause (some 50 to 90 ms of the
 * main thread) would only keep the API waiting.
 */
export function freeWhatSpeechLeft(): void {
  collectGarbageSoon();
  letFreeSpeechBlocksGo();
}

/**
 * `call` of `moduleUrl`, given `input` and `now`, in a short-lived thread at a lower priority
 * (./analysis-worker.mjs), so batch text work never holds the server's event loop: this analysis's
 * halves, and a cast book's attribution (server/cast). `what` names the work in a failure.
 */
export function inBatchThread<T>(
  task: { moduleUrl: string; call: string },
  input: unknown,
  options: { now?: Date; signal?: AbortSignal; what: string },
): Promise<T> {
  return inThread<T>(task, input, options.now ?? new Date(), options.signal, options.what);
}

function inThread<T>(
  half: { moduleUrl: string; call: string },
  input: unknown,
  now: Date,
  signal: AbortSignal | undefined,
  what = 'The text analysis',
): Promise<T> {
  signal?.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    // Only an array that owns its whole buffer is handed over (a pooled Buffer's is shared).
    const owns = input instanceof Uint8Array && input.byteOffset === 0 && input.byteLength === input.buffer.byteLength;
    // A small young generation: the models are long-lived, so a big nursery only holds garbage
    // (some 6 MB less at each thread's peak; ../thread-nursery.ts).
    const worker = threadWithSmallNursery(WORKER_URL, {
      workerData: { ...half, input, now: now.toISOString() },
      transferList: owns ? [input.buffer as ArrayBuffer] : [],
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    let settled = false;
    // Settled once the thread has exited: its heap is gone before the next half's thread starts,
    // so the two never hold memory at once (a book's analysis is its peak).
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate().finally(fn);
    };
    const onAbort = (): void => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: T) => settle(() => resolve(result)));
    worker.once('error', (error) => settle(() => reject(new Error(`${what} failed: ${error.message}`))));
    worker.once('exit', (code) => settle(() => reject(new Error(`${what} stopped unexpectedly (exit code ${code})`))));
  });
}
