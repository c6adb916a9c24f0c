import type { JobSummaryOutput, PlaybackProgressOutput } from '../../api/gen/model';
import { bookTitle, chapterCount, convertingLabel, isListenable, jobDuration } from '../../entities/job';
import { isFinished, listenedPercent } from '../../entities/progress';
import { jobProvider, type TtsProvider } from '../../entities/provider';

/** A library book is read from the job list's summaries (GET /jobs). */
type JobOutput = JobSummaryOutput;

/**
 * The library's view of a completed job (docs/product.md#library), with the two
 * defects of the earlier client fixed (docs/decisions.md#defects-of-the-earlier-client-fixed): `progress` is the reader's real listening progress (from the
 * progress records, not always 0) and `duration` is in seconds.
 */
export interface LibraryBook {
  id: string;
  title: string;
  createdAt: string;
  /** The voice asked for: the library's OpenAI / ElevenLabs filter. */
  ttsProvider: TtsProvider;
  /** The engine that really spoke (`result_data.tts_engine`: espeak-ng, openai, elevenlabs), once known. */
  ttsEngine: string | null;
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
  /** 'Converting · 3 of 12 chapters ready' for a book whose first chapters can be played already; else null. */
  converting: string | null;
}

export type LibraryFilter = 'all' | 'openai' | 'elevenlabs' | 'in_progress' | 'completed';
export type LibrarySort = 'createdAt' | 'title' | 'duration' | 'progress';
export type LibraryView = 'grid' | 'list';

export const filterOptions: { value: LibraryFilter; label: string }[] = [
  { value: 'all', label: 'All Books' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'elevenlabs', label: 'ElevenLabs' },
  { value: 'in_progress', label: 'In Progress' },
  { value: 'completed', label: 'Completed' },
];

export const sortOptions: { value: LibrarySort; label: string }[] = [
  { value: 'createdAt', label: 'Date Added' },
  { value: 'title', label: 'Title' },
  { value: 'duration', label: 'Duration' },
  { value: 'progress', label: 'Progress' },
];

export function toLibraryBook(job: JobOutput, record: PlaybackProgressOutput | undefined): LibraryBook {
  const duration = jobDuration(job);
  return {
    id: job.id,
    title: bookTitle(job),
    createdAt: job.created_at,
    ttsProvider: jobProvider(job),
    ttsEngine: job.result_data.tts_engine ?? null,
    chapters: chapterCount(job),
    duration,
    progress: listenedPercent(record, duration),
    position: record?.position_seconds ?? 0,
    hasProgress: Boolean(record) && (record?.position_seconds ?? 0) > 0,
    finished: isFinished(record, duration),
    description: job.description,
    converting: convertingLabel(job),
  };
}

/** Listenable jobs (finished, or converting with a chapter ready) joined with the reader's progress records (the newest record per job wins). */
export function toLibraryBooks(jobs: readonly JobOutput[], records: readonly PlaybackProgressOutput[]): LibraryBook[] {
  const byJob = new Map<string, PlaybackProgressOutput>();
  for (const record of records) {
    const known = byJob.get(record.job_id);
    if (!known || known.last_played_at < record.last_played_at) byJob.set(record.job_id, record);
  }
  return jobs.filter(isListenable).map((job) => toLibraryBook(job, byJob.get(job.id)));
}

export function matchesFilter(book: LibraryBook, filter: LibraryFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'openai':
    case 'elevenlabs':
      return book.ttsProvider === filter;
    case 'in_progress':
      return !book.finished && book.progress > 0;
    case 'completed':
      return book.finished;
  }
}

export function matchesSearch(book: LibraryBook, search: string): boolean {
  const query = search.trim().toLowerCase();
  return !query || book.title.toLowerCase().includes(query) || (book.description ?? '').toLowerCase().includes(query);
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

export function summarize(books: readonly LibraryBook[]) {
  return {
    total: books.length,
    duration: books.reduce((sum, book) => sum + book.duration, 0),
    openai: books.filter((book) => book.ttsProvider === 'openai').length,
    elevenlabs: books.filter((book) => book.ttsProvider === 'elevenlabs').length,
  };
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
