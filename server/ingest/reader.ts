/**
 * The document reader: uploads and web pages are parsed in a worker thread of their own
 * (reader-worker.mjs running reader-tasks.ts), never on the server's event loop, so a large or
 * hostile file (a zip bomb, a 2,000-page PDF, an HTML page of deeply nested markup) delays no
 * other request. Tasks run one at a time, in order; the thread starts with the first one and ends
 * after `idleMs` without any (its parsers hold tens of MB while loaded).
 *
 * Bounds: a task that runs longer than `timeoutMs`, or that needs more than `maxHeapMb` of memory,
 * ends the thread and is refused as a file too large or complex to read (422): the server itself
 * never runs out of memory on a file. The next task starts a new thread.
 */
import { Worker } from 'node:worker_threads';
import type { BookPlan } from './chapters';
import type { ParsedDocument } from './document';
import { IngestError } from './errors';
import type { ReaderTasks } from './reader-tasks';

const MODULE_URL = new URL(
  import.meta.url.endsWith('.ts') ? './reader-tasks.ts' : './reader-tasks.mjs',
  import.meta.url,
).href;
const WORKER_URL = new URL('./reader-worker.mjs', import.meta.url);

export interface ReaderOptions {
  idleMs?: number;
  timeoutMs?: number;
  maxHeapMb?: number;
}

type TaskName = keyof ReaderTasks;

interface Task {
  id: number;
  task: TaskName;
  args: unknown[];
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const tooHard = () =>
  new IngestError(
    'invalid',
    'The file is too large or too complex to read (it needed more time or memory than a book does); it was not stored',
  );

const unreadable = () =>
  new IngestError(
    'invalid',
    'The file could not be read: it is damaged or not what its name says. Check the file and upload it again',
  );

export interface DocumentReader {
  readUpload(bytes: Uint8Array, filename: string): Promise<ParsedDocument>;
  extractArticle(
    html: string,
    url: string,
    contentType: 'text/html' | 'text/plain',
  ): Promise<{ title: string; text: string }>;
  /** A long text's chapters (planBook), found away from the event loop. */
  planBook(title: string, text: string): Promise<BookPlan>;
  /** Whether the thread is running. */
  readonly running: boolean;
  close(): Promise<void>;
}

export function createDocumentReader(options: ReaderOptions = {}): DocumentReader {
  const idleMs = options.idleMs ?? 10_000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxHeapMb = options.maxHeapMb ?? 512;
  let worker: Worker | null = null;
  let current: Task | null = null;
  let deadline: NodeJS.Timeout | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  const waiting: Task[] = [];
  let nextId = 1;

  const stopThread = (thread: Worker) => {
    if (worker === thread) worker = null;
    void thread.terminate();
  };

  const finish = (task: Task, outcome: () => void) => {
    if (current !== task) return;
    current = null;
    if (deadline) clearTimeout(deadline);
    deadline = null;
    outcome();
    pump();
  };

  const start = (): Worker => {
    const thread = new Worker(WORKER_URL, {
      workerData: { moduleUrl: MODULE_URL },
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 },
    });
    thread.on('message', (message: { id?: number; value?: unknown; error?: { kind?: string; message: string } }) => {
      const task = current;
      if (task === null || message.id !== task.id) return;
      if (message.error === undefined) finish(task, () => task.resolve(message.value));
      else {
        const { kind, message: text } = message.error;
        // Anything but a refusal of the reader's own is a parser tripping over the file's content.
        const error =
          kind !== undefined
            ? new IngestError(kind as ConstructorParameters<typeof IngestError>[0], text)
            : unreadable();
        finish(task, () => task.reject(error));
      }
    });
    const failed = (error: Error) => {
      if (worker !== thread) return;
      worker = null;
      const task = current;
      // Out of memory, or a crash while reading: the file is what made it fail.
      if (task !== null) finish(task, () => task.reject(/memory/i.test(error.message) ? tooHard() : error));
    };
    thread.on('error', (error) => failed(error));
    thread.on('exit', (code) => failed(new Error(`the document reader stopped (exit code ${code})`)));
    return thread;
  };

  function pump(): void {
    if (current !== null) return;
    const task = waiting.shift();
    if (task === undefined) {
      if (worker !== null) {
        worker.unref();
        if (idleTimer) clearTimeout(idleTimer);
        const idle = worker;
        idleTimer = setTimeout(() => stopThread(idle), idleMs);
        idleTimer.unref();
      }
      return;
    }
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    worker ??= start();
    worker.ref();
    current = task;
    const thread = worker;
    deadline = setTimeout(() => {
      stopThread(thread);
      finish(task, () => task.reject(tooHard()));
    }, timeoutMs);
    thread.postMessage({ id: task.id, task: task.task, args: task.args });
  }

  const run = <T>(task: TaskName, args: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ id: nextId++, task, args, resolve: resolve as (v: unknown) => void, reject });
      pump();
    });

  return {
    readUpload: (bytes, filename) => run<ParsedDocument>('readUpload', [bytes, filename]),
    extractArticle: (html, url, contentType) => run('extractArticle', [html, url, contentType]),
    planBook: (title, text) => run<BookPlan>('planBook', [title, text]),
    get running() {
      return worker !== null;
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      for (const task of waiting.splice(0)) task.reject(new Error('The document reader was closed'));
      const thread = worker;
      worker = null;
      if (current !== null) {
        const task = current;
        finish(task, () => task.reject(new Error('The document reader was closed')));
      }
      if (thread !== null) await thread.terminate();
    },
  };
}

let shared: DocumentReader | undefined;

/** The process-wide reader (its thread starts on first use and ends when idle). */
export function documentReader(): DocumentReader {
  shared ??= createDocumentReader();
  return shared;
}
