/**
 * What the assistant reads about the user's books: finished jobs, their source text with its
 * sentence timing map, their tutoring analysis and the listener's saved position. Read-only: the
 * rows come from the jobs and progress repositories (the owners of those tables), the files from storage.
 */
import type { JobRepository } from '../jobs/repository';
import type { JobRecord } from '../jobs/types';
import type { ProgressRepository } from '../progress/repository';
import type { FileStorage } from '../storage/types';

export interface TimingEntry {
  start: number;
  end: number;
  char_start: number;
  char_end: number;
}

export interface BookAnalysis {
  themes: string[];
  characters: { name: string; role: string }[];
  setting: { time: string; place: string } | null;
  discussionQuestions: string[];
}

export interface BookChapter {
  title: string;
  order: number;
  duration: number | null;
}

/** A COMPLETED job of the user. */
export interface Book {
  id: string;
  title: string;
  description: string | null;
  durationSeconds: number | null;
  chapters: BookChapter[];
  analysis: BookAnalysis | null;
}

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function record(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

export function parseAnalysis(value: unknown): BookAnalysis | null {
  if (value === null || value === undefined) return null;
  const a = record(value);
  const characters = Array.isArray(a.characters)
    ? a.characters.flatMap((c: unknown) => {
        const r = record(c);
        return typeof r.name === 'string' && r.name.trim() !== ''
          ? [{ name: r.name.trim(), role: typeof r.role === 'string' ? r.role : 'character' }]
          : [];
      })
    : [];
  const setting = record(a.setting);
  return {
    themes: strings(a.themes),
    characters,
    setting:
      typeof setting.time === 'string' || typeof setting.place === 'string'
        ? { time: String(setting.time ?? ''), place: String(setting.place ?? '') }
        : null,
    discussionQuestions: strings(a.discussion_questions),
  };
}

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

function toBook(job: JobRecord): Book {
  const result = job.resultData;
  const chapters = (result.chapters ?? [])
    .map((c) => ({ title: c.title, order: c.order, duration: num(c.duration) }))
    .sort((a, b) => a.order - b.order);
  return {
    id: job.id,
    title: job.title,
    description: job.description,
    durationSeconds: num(job.duration) ?? num(result.duration_seconds) ?? num(result.duration),
    chapters,
    analysis: parseAnalysis(job.config.tutoring_analysis),
  };
}

async function readAll(storage: FileStorage, key: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of storage.read(key))
    parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/** Books read through the jobs repository and the progress repository, the owners of those tables. */
export function createBookSource(
  jobs: Pick<JobRepository, 'getForUser' | 'completedForUser'>,
  progress: Pick<ProgressRepository, 'find'>,
  storage: FileStorage,
): BookSource {
  async function completed(userId: string, jobId: string): Promise<JobRecord | null> {
    if (!UUID.test(jobId)) return null;
    const job = await jobs.getForUser(jobId, userId);
    return job !== null && job.status === 'COMPLETED' ? job : null;
  }

  return {
    async listCompleted(userId) {
      return (await jobs.completedForUser(userId, 500)).map(toBook);
    },
    async findCompleted(userId, jobId) {
      const job = await completed(userId, jobId);
      return job === null ? null : toBook(job);
    },
    async text(userId, jobId) {
      const job = await completed(userId, jobId);
      if (job === null || job.inputFileKey === null || job.outputFileKey === null) return null;
      try {
        const [text, timing] = await Promise.all([
          readAll(storage, job.inputFileKey),
          readAll(storage, `${job.outputFileKey}.timing.json`),
        ]);
        return { text, timing: parseTiming(JSON.parse(timing)) };
      } catch {
        return null;
      }
    },
    async savedPosition(userId, jobId) {
      if (!UUID.test(jobId)) return null;
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
