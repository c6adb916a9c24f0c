/**
 * Worker threads with a small young generation, under a server started with its own.
 *
 * The server runs with `--max-semi-space-size=4` (scripts/build-server.mjs), which V8 applies to
 * every isolate of the process: a worker's `resourceLimits.maxYoungGenerationSizeMb` is then
 * ignored (V8 lets the flag win), and each thread's young generation grows to 8 MB. For a thread
 * that loads an NLP library and builds a syntax tree, that was 5 to 8 MB more at its peak (the
 * tutoring analysis's threads, a book's peak: docs/adr/0056-analysis-threads-small-young-generation.md).
 * So the flag is set to 1 MB while such a thread's isolate is created
 * (V8 reads it then, and only then) and set back once the thread is online. Where the process has
 * no such flag, the thread's resourceLimits apply as Node documents and nothing is changed.
 */
import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** A thread's semi-space, in MB: 2 MB of young generation. */
const THREAD_SEMI_SPACE_MB = 1;

/**
 * The process's --max-semi-space-size in MB; 0 when none. NODE_OPTIONS comes first: Node applies
 * it before the command line, so the command line's value wins, as it does here (the last one).
 */
export function processSemiSpaceMb(
  args: readonly string[] = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv],
): number {
  let mb = 0;
  for (const [i, arg] of args.entries()) {
    const flag = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/.exec(arg);
    if (flag) mb = Number(flag[1] ?? args[i + 1]) || 0;
  }
  return mb;
}

/** Threads being started with the small setting: the process's own is restored when none is. */
let starting = 0;

function setSemiSpace(mb: number): void {
  try {
    setFlagsFromString(`--max-semi-space-size=${mb}`);
  } catch {
    // a runtime that refuses flags after start: the thread gets the process's size
  }
}

/** `new Worker(url, options)`, its young generation at most 2 MB even under the process's flag. */
export function threadWithSmallNursery(url: URL, options: WorkerOptions): Worker {
  const processMb = processSemiSpaceMb();
  if (processMb <= THREAD_SEMI_SPACE_MB) return new Worker(url, options);
  starting += 1;
  setSemiSpace(THREAD_SEMI_SPACE_MB);
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    starting -= 1;
    if (starting === 0) setSemiSpace(processMb);
  };
  try {
    const worker = new Worker(url, options);
    worker.once('online', restore);
    worker.once('error', restore);
    worker.once('exit', restore);
    return worker;
  } catch (error) {
    restore();
    throw error;
  }
}
