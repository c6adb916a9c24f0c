import { isMainThread } from 'node:worker_threads';

/**
 * Asks for a full garbage collection of this thread's heap, run as a task of its own just after
 * the current one, when the process exposes `gc()`: the compiled server does (SERVER_NODE_FLAGS in
 * scripts/build-server.mjs); tests and tools running the source without --expose-gc skip it. The
 * collection is not incremental: it pauses the thread, some 50 to 90 ms on the server's heap of
 * 50 to 70 MB, so it is asked for only where a book's memory needs it, never while a text
 * converts (docs/adr/0052-forced-collections-only-between-chapters.md).
 *
 * The server lets its old generation double before V8 collects it on its own (the same flags; it
 * saves about half the CPU of a long conversion), so garbage that outlives a chapter waits: a 1 MB
 * book's chapters grew V8's committed heap from about 50 to 71 MB. The server asks for a collection
 * where a stretch of such garbage has just ended: after each chapter of a book, and before a
 * tutoring analysis's thread loads its NLP models (docs/adr/0052-forced-collections-only-between-chapters.md).
 */
export function collectGarbageSoon(): void {
  (globalThis as { gc?: (options: { type: 'major'; execution: 'async' }) => void }).gc?.({
    type: 'major',
    execution: 'async',
  });
}

/**
 * A full collection of this worker thread's heap, now, when the process exposes `gc()`. It pauses
 * only this thread; on the main thread (the API's) it does nothing. For a thread that has just
 * loaded a library whose setting up leaves much garbage behind (compromise unpacking its lexicon:
 * some 10 MB), so what the thread does next grows its heap from what is live, not on top of it.
 */
export function collectThreadGarbageNow(): void {
  if (isMainThread) return;
  (globalThis as { gc?: () => void }).gc?.();
}
