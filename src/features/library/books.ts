import type { JobSummaryOutput, PlaybackProgressOutput } from '../../api/gen/model';
import { bookTitle, chapterCount, isListenable, jobDuration, readyText } from '../../entities/job';
import { isFinished, listenedPercent } from '../../entities/progress';
import { voiceLabel } from '../../entities/provider';
import { formatDuration, formatTimeLeft } from '../../entities/time';

/** A library book is read from the job list's summaries (GET /jobs). */
type JobOutput = JobSummaryOutput;

/**
 * The library's view of a listenable job (docs/product.md#library), with the two defects of the
 * earlier client fixed (docs/adr/0009-earlier-client-defects-fixed.md): `progress` is the
 * reader's real listening progress (from the progress records, not always 0) and `duration` is in
 * seconds.
 */
export interface LibraryBook {
  id: string;
  title: string;
  /** From the book's file (an EPUB's metadata), when it named one. */
  author: string | null;
  createdAt: string;
  /**
   * The voice that really spoke (entities/provider.ts voiceLabel): "Offline voice", "OpenAI",
   * "ElevenLabs", or any other source by its own name. The summary and the voice filter count it.
   */
  voice: string;
  chapters: number;
  /** Seconds. */
  duration: number;
  /** Percent listened, 0..100. */
  progress: number;
  /** Where the reader stopped, seconds; 0 when never played. */
  position: number;
  hasProgress: boolean;
  /** The saved place is at the end (entities/progress.ts): the card says Finished and offers Listen again. */
  finished: boolean;
  description: string | null;
  /** '3 of 12 chapters ready' ('First minutes ready') for a book that plays while it converts; else null. */
  converting: string | null;
  /** Where the reader is, in a few words: '2h 10m left', 'Finished', 'Not started', or `converting`. */
  status: string;
  /** Kept on this device: it plays without a connection. */
  kept: boolean;
}

/**
 * The filters: what the reader did with a book, the books kept on this device, or the voice that
 * read it (`voice:Offline voice`).
 */
export type LibraryFilter = 'all' | 'in_progress' | 'finished' | 'not_started' | 'kept' | `voice:${string}`;
export type LibrarySort = 'createdAt' | 'title' | 'duration' | 'progress';
export type LibraryView = 'grid' | 'list';

/**
 * The filter's options: the listening states, "On this device" once a book is kept, then one per
 * voice the books were read with.
 */
export function filterOptions(books: readonly LibraryBook[]): { value: LibraryFilter; label: string }[] {
  return [
    { value: 'all', label: 'All books' },
    { value: 'in_progress', label: 'In progress' },
    { value: 'not_started', label: 'Not started' },
    { value: 'finished', label: 'Finished' },
    ...(books.some((book) => book.kept) ? [{ value: 'kept' as const, label: 'On this device' }] : []),
    ...voicesOf(books).map(({ voice }) => ({ value: `voice:${voice}` as const, label: voice })),
  ];
}

export const sortOptions: { value: LibrarySort; label: string }[] = [
  { value: 'createdAt', label: 'Date added' },
  { value: 'title', label: 'Title' },
  { value: 'duration', label: 'Length' },
  { value: 'progress', label: 'Progress' },
];

/**
 * '3 of 12 chapters ready' (or 'First minutes ready' while only the first chapter's opening plays)
 * while a book converts (its status is not COMPLETED, some chapters not ready); else null.
 */
function convertingText(
  job: Pick<JobOutput, 'status' | 'chapter_count' | 'chapters_ready' | 'listenable'>,
): string | null {
  const ready = job.chapters_ready;
  if (job.status === 'COMPLETED' || ready === undefined || ready >= job.chapter_count) return null;
  return readyText(job);
}

export function toLibraryBook(
  job: JobOutput,
  record: PlaybackProgressOutput | undefined,
  demoMode = false,
  kept = false,
): LibraryBook {
  const duration = jobDuration(job);
  const position = record?.position_seconds ?? 0;
  const hasProgress = Boolean(record) && position > 0;
  const finished = isFinished(record, duration);
  const converting = convertingText(job);
  const status = converting ?? listeningStatus(finished, hasProgress, duration, position);
  return {
    id: job.id,
    title: bookTitle(job),
    author: job.config.author?.trim() || null,
    createdAt: job.created_at,
    voice: voiceLabel(job, demoMode).label,
    chapters: chapterCount(job),
    duration,
    progress: listenedPercent(record, duration),
    position,
    hasProgress,
    finished,
    description: job.description,
    converting,
    status,
    kept,
  };
}

/** 'Finished', '2h 10m left', 'Not started · 3h 5m'. */
export function listeningStatus(finished: boolean, hasProgress: boolean, duration: number, position: number): string {
  if (finished) return 'Finished';
  if (hasProgress) return `${formatTimeLeft(Math.max(0, duration - position))} left`;
  return duration > 0 ? `Not started · ${formatDuration(duration)}` : 'Not started';
}

/**
 * Listenable jobs (finished, or converting with a chapter or the first chapter's opening ready) joined with the reader's progress
 * records (the newest record per job wins). `demoMode`: nothing spoke yet means the offline voice.
 */
export function toLibraryBooks(
  jobs: readonly JobOutput[],
  records: readonly PlaybackProgressOutput[],
  demoMode = false,
  kept: ReadonlySet<string> = new Set(),
): LibraryBook[] {
  const byJob = new Map<string, PlaybackProgressOutput>();
  for (const record of records) {
    const known = byJob.get(record.job_id);
    if (!known || known.last_played_at < record.last_played_at) byJob.set(record.job_id, record);
  }
  return jobs.filter(isListenable).map((job) => toLibraryBook(job, byJob.get(job.id), demoMode, kept.has(job.id)));
}

export function matchesFilter(book: LibraryBook, filter: LibraryFilter): boolean {
  if (filter.startsWith('voice:')) return book.voice === filter.slice('voice:'.length);
  switch (filter) {
    case 'in_progress':
      return !book.finished && book.progress > 0;
    case 'not_started':
      return !book.finished && !book.hasProgress;
    case 'finished':
      return book.finished;
    case 'kept':
      return book.kept;
    default:
      return true;
  }
}

export function matchesSearch(book: LibraryBook, search: string): boolean {
  const query = search.trim().toLowerCase();
  return (
    !query ||
    book.title.toLowerCase().includes(query) ||
    (book.author ?? '').toLowerCase().includes(query) ||
    (book.description ?? '').toLowerCase().includes(query)
  );
}

const comparators: Record<LibrarySort, (a: LibraryBook, b: LibraryBook) => number> = {
  // Newest first, longest first, most listened first; titles A to Z.
  createdAt: (a, b) => b.createdAt.localeCompare(a.createdAt),
  title: (a, b) => a.title.localeCompare(b.title, undefined, { sensitivity: 'base' }),
  duration: (a, b) => b.duration - a.duration,
  progress: (a, b) => b.progress - a.progress,
};

export function selectBooks(
  books: readonly LibraryBook[],
  { search, filter, sort }: { search: string; filter: LibraryFilter; sort: LibrarySort },
): LibraryBook[] {
  return books
    .filter((book) => matchesFilter(book, filter) && matchesSearch(book, search))
    .sort((a, b) => comparators[sort](a, b) || a.title.localeCompare(b.title));
}

/** How many books each voice read, most first (ties by name). */
function voicesOf(books: readonly LibraryBook[]): { voice: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const book of books) counts.set(book.voice, (counts.get(book.voice) ?? 0) + 1);
  return [...counts]
    .map(([voice, count]) => ({ voice, count }))
    .sort((a, b) => b.count - a.count || a.voice.localeCompare(b.voice));
}

export function summarize(books: readonly LibraryBook[]) {
  return {
    total: books.length,
    duration: books.reduce((sum, book) => sum + book.duration, 0),
    voices: voicesOf(books),
  };
}

/** The library's summary in one line: '4 books · 1h 30m · Offline voice 2 · OpenAI 1 · ElevenLabs 1'. */
export function summaryLine(books: readonly LibraryBook[]): string {
  const { total, duration, voices } = summarize(books);
  return [
    total === 1 ? '1 book' : `${total} books`,
    formatDuration(duration),
    ...voices.map(({ voice, count }) => `${voice} ${count}`),
  ].join(' · ');
}

const VIEW_KEY = 'lectio.library.view';

/** The grid/list choice, remembered in the browser. */
export function readLibraryView(storage: Pick<Storage, 'getItem'> | null = safeLocalStorage()): LibraryView {
  return storage?.getItem(VIEW_KEY) === 'list' ? 'list' : 'grid';
}

export function writeLibraryView(
  view: LibraryView,
  storage: Pick<Storage, 'setItem'> | null = safeLocalStorage(),
): void {
  storage?.setItem(VIEW_KEY, view);
}

function safeLocalStorage(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}
