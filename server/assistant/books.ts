/**
 * What the assistant reads about the user's books: finished jobs, their source text with its
 * sentence timing map, their tutoring analysis and the listener's saved position. Read-only: the
 * rows come from the jobs and progress repositories (the owners of those tables), the files from storage.
 */
import type { Book } from '../jobs/book';
import type { JobsTable } from '../jobs/repository';
import { timingKey } from '../jobs/storage-keys';
import type { TimingEntry } from '../jobs/timing';
import type { ProgressRepository } from '../progress/repository';
import type { FileStorage } from '../storage/types';
import { isUuid } from '../uuid';

export interface BookText {
  /** The job's whole source text (never hand it out unbounded: see tools.heardText). */
  text: string;
  /** Sentences in time order, with UTF-16 offsets into `text`. */
  timing: TimingEntry[];
}

export interface BookSource {
  /** The user's COMPLETED books (not chapter jobs), newest first. */
  listCompleted(userId: string): Promise<Book[]>;
  /** The job when it is the user's and COMPLETED; null otherwise (indistinguishable). */
  findCompleted(userId: string, jobId: string): Promise<Book | null>;
  /** Source text and timing map; null when either is missing. */
  text(userId: string, jobId: string): Promise<BookText | null>;
  /** The saved listening position in seconds; null when never played. */
  savedPosition(userId: string, jobId: string): Promise<number | null>;
}

function record(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

/** A timing map's well-formed entries in time order (a malformed entry is skipped, not fatal). */
export function parseTiming(value: unknown): TimingEntry[] {
  // The pipeline writes an array; older fixtures wrote {sentences: [...]}.
  const list = Array.isArray(value)
    ? value
    : Array.isArray(record(value).sentences)
      ? (record(value).sentences as unknown[])
      : [];
  return list
    .flatMap((e: unknown) => {
      const r = record(e);
      const start = num(r.start);
      const end = num(r.end);
      const cs = num(r.char_start);
      const ce = num(r.char_end);
      return start !== null && end !== null && cs !== null && ce !== null
        ? [{ start, end, char_start: cs, char_end: ce }]
        : [];
    })
    .sort((a, b) => a.start - b.start || a.char_start - b.char_start);
}

async function readAll(storage: FileStorage, key: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of storage.read(key))
    parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/** Books read through the jobs repository and the progress repository, the owners of those tables. */
export function createBookSource(
  jobs: Pick<JobsTable, 'findBook' | 'completedBooks'>,
  progress: Pick<ProgressRepository, 'find'>,
  storage: FileStorage,
): BookSource {
  async function completed(userId: string, jobId: string): Promise<Book | null> {
    const book = await jobs.findBook(userId, jobId);
    return book !== null && book.status === 'COMPLETED' ? book : null;
  }

  return {
    async listCompleted(userId) {
      return jobs.completedBooks(userId, 500);
    },
    async findCompleted(userId, jobId) {
      return completed(userId, jobId);
    },
    async text(userId, jobId) {
      const job = await completed(userId, jobId);
      if (job === null || job.inputFileKey === null || job.outputFileKey === null) return null;
      try {
        const [text, timing] = await Promise.all([
          readAll(storage, job.inputFileKey),
          readAll(storage, timingKey(job.outputFileKey)),
        ]);
        return { text, timing: parseTiming(JSON.parse(timing)) };
      } catch {
        return null;
      }
    },
    async savedPosition(userId, jobId) {
      if (!isUuid(jobId)) return null;
      return (await progress.find(userId, jobId))?.positionSeconds ?? null;
    },
  };
}

/** An in-memory BookSource for tests and benchmarks. */
export function memoryBookSource(
  books: { userId: string; book: Book; text?: BookText; position?: number }[],
): BookSource & { setPosition(userId: string, jobId: string, seconds: number): void } {
  const find = (userId: string, jobId: string) => books.find((b) => b.userId === userId && b.book.id === jobId);
  return {
    async listCompleted(userId) {
      return books.filter((b) => b.userId === userId).map((b) => b.book);
    },
    async findCompleted(userId, jobId) {
      return find(userId, jobId)?.book ?? null;
    },
    async text(userId, jobId) {
      return find(userId, jobId)?.text ?? null;
    },
    async savedPosition(userId, jobId) {
      return find(userId, jobId)?.position ?? null;
    },
    setPosition(userId, jobId, seconds) {
      const b = find(userId, jobId);
      if (b) b.position = seconds;
    },
  };
}
