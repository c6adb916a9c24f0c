/**
 * The user's library as the assistant speaks about it: which finished books they have, what they
 * listened to last and how far they are in each. Every read is scoped to the user (their jobs,
 * their playback progress); another user's book is never found.
 */
import MiniSearch from 'minisearch';
import { isListenable, type Book } from '../books/book';
import { isActive } from '../jobs/types';
import type { BookReader } from '../books/reader';
import type { BookSource } from '../books/source';
import type { ProgressRepository } from '../progress/repository';
import { indexTerm } from './heard-index';
import { formatTime, spokenList } from './text';

export interface ListeningEntry {
  jobId: string;
  positionSeconds: number;
  /** When the user last played it; null when the source keeps no time. */
  lastPlayedAt: Date | null;
  completed: boolean;
  /**
   * The book still converts (some of it can be played already): the listener may have played it
   * last, so "continue my last book" resumes it, but it is not in the assistant's library yet.
   */
  converting: Book | null;
}

export interface ListeningHistory {
  /** The user's playback progress on their books that can be played, most recently played first. */
  recent(userId: string, limit: number): Promise<ListeningEntry[]>;
}

/** How many of the most recent places on books still converting are looked at (each is one read). */
const CONVERTING_LOOKED_AT = 5;

/**
 * Listening history from the user's saved places (progress owns them) on their own books that can
 * be played: finished, or still converting with a chapter ready (server/books' reader, the jobs
 * repository, says which those are).
 */
export function createListeningHistory(
  progress: Pick<ProgressRepository, 'recent'>,
  jobs: Pick<BookReader, 'byIds' | 'findBook'>,
): ListeningHistory {
  return {
    async recent(userId, limit) {
      // Places on books that cannot be played (yet) are skipped, so read a few more than asked.
      const saved = await progress.recent(userId, limit + 20);
      const owned = (await jobs.byIds(saved.map((p) => p.jobId))).filter((j) => j.userId === userId);
      const finished = new Set(owned.filter((j) => j.status === 'COMPLETED').map((j) => j.id));
      const converting = new Map<string, Book>();
      for (const j of owned.filter((j) => isActive(j.status)).slice(0, CONVERTING_LOOKED_AT)) {
        const book = await jobs.findBook(userId, j.id);
        if (book !== null && book.parentJobId === null && isListenable(book)) converting.set(j.id, book);
      }
      return saved
        .filter((p) => finished.has(p.jobId) || converting.has(p.jobId))
        .slice(0, limit)
        .map((p) => ({
          jobId: p.jobId,
          positionSeconds: p.positionSeconds,
          lastPlayedAt: p.lastPlayedAt,
          completed: p.isCompleted,
          converting: converting.get(p.jobId) ?? null,
        }));
    },
  };
}

/** Listening history from a BookSource's saved positions (no play times: library order). */
export function historyFromBooks(books: BookSource): ListeningHistory {
  return {
    async recent(userId, limit) {
      const all = await books.listCompleted(userId);
      const entries: ListeningEntry[] = [];
      for (const b of all) {
        const position = await books.savedPosition(userId, b.id);
        if (position !== null)
          entries.push({
            jobId: b.id,
            positionSeconds: position,
            lastPlayedAt: null,
            completed: false,
            converting: null,
          });
        if (entries.length >= limit) break;
      }
      return entries;
    },
  };
}

export interface LibraryBook {
  job_id: string;
  title: string;
  description: string | null;
  duration_seconds: number | null;
  position_seconds: number | null;
  percentage: number | null;
  last_played_at: string | null;
  /** Still converting: some of it plays already, the rest as it is ready. */
  converting: boolean;
}

function percentage(position: number | null, duration: number | null): number | null {
  if (position === null || duration === null || duration <= 0) return null;
  return Math.min(100, Math.round((position / duration) * 100));
}

/** "not started yet", "just started", "54% in", "finished". */
export function progressPhrase(b: LibraryBook): string {
  if (b.position_seconds === null) return 'not started yet';
  const pct = b.percentage;
  if (pct === null) return `at ${formatTime(b.position_seconds)}`;
  if (pct >= 99) return 'finished';
  if (pct < 1) return 'just started';
  return `${pct}% in`;
}

/** Books of the library that best match a title or topic (BM25 over title, description and themes, fuzzy). */
export function matchBooks(books: readonly Book[], query: string): Book[] {
  const search = new MiniSearch<{ id: number; title: string; description: string; themes: string }>({
    fields: ['title', 'description', 'themes'],
    processTerm: (term) => indexTerm(term) ?? null,
    searchOptions: {
      boost: { title: 3 },
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      prefix: (term) => term.length >= 4,
    },
  });
  search.addAll(
    books.map((b, id) => ({
      id,
      title: b.title,
      description: b.description ?? '',
      themes: (b.analysis?.themes ?? []).join(' '),
    })),
  );
  return search.search(query).map((r) => books[r.id as number]!);
}

export interface LibraryQuery {
  userId: string;
  books: BookSource;
  history: ListeningHistory;
}

export async function libraryBooks(q: LibraryQuery): Promise<{ all: Book[]; entries: Map<string, ListeningEntry> }> {
  const [completed, recent] = await Promise.all([q.books.listCompleted(q.userId), q.history.recent(q.userId, 500)]);
  // A book's chapter jobs are parts of it, never books of their own.
  const all = completed.filter((b) => b.parentJobId === null);
  return { all, entries: new Map(recent.map((e) => [e.jobId, e])) };
}

export function describeBook(b: Book, entry: ListeningEntry | undefined): LibraryBook {
  const position = entry?.positionSeconds ?? null;
  return {
    job_id: b.id,
    title: b.title,
    description: b.description,
    duration_seconds: b.durationSeconds,
    position_seconds: position,
    percentage: entry?.completed === true ? 100 : percentage(position, b.durationSeconds),
    last_played_at: entry?.lastPlayedAt?.toISOString() ?? null,
    converting: b.status !== 'COMPLETED',
  };
}

/** The search_library tool: the whole library (no query), the recently played (recent), or matches. */
export async function searchLibrary(
  q: LibraryQuery,
  args: { query: string; max: number; recent: boolean },
): Promise<{ answer: string; data: Record<string, unknown> }> {
  const { all, entries } = await libraryBooks(q);
  const total = all.length;
  if (total === 0) {
    return {
      answer: 'Your library has no finished audiobooks yet. Convert a story first, then ask me about it.',
      data: { results: [], total_books: 0 },
    };
  }
  const query = args.query.trim();
  if (args.recent) {
    const played = [...entries.values()]
      .map((e) => ({ e, b: e.converting ?? all.find((b) => b.id === e.jobId) }))
      .filter((x): x is { e: ListeningEntry; b: Book } => x.b !== undefined)
      .slice(0, args.max)
      .map(({ e, b }) => describeBook(b, e));
    if (played.length === 0) {
      return {
        answer: `You haven't played any of your ${total} book${total === 1 ? '' : 's'} yet. Say "continue" and a title to start one.`,
        data: { results: [], total_books: total },
      };
    }
    const last = played[0]!;
    const others = played.slice(1, 3).map((b) => `${b.title} (${progressPhrase(b)})`);
    const answer =
      (last.converting
        ? `You were last listening to ${last.title}, at ${formatTime(last.position_seconds ?? 0)}; it is still converting.`
        : `You were last listening to ${last.title}, at ${formatTime(last.position_seconds ?? 0)}` +
          `${last.duration_seconds !== null ? ` of ${formatTime(last.duration_seconds)}` : ''} — ${progressPhrase(last)}.`) +
      (others.length > 0 ? ` Before that: ${spokenList(others)}.` : '') +
      ` Say "continue ${last.title}" to pick it up.`;
    return { answer, data: { results: played, total_books: total } };
  }
  const found = query === '' ? all : matchBooks(all, query);
  const results = found.slice(0, args.max).map((b) => describeBook(b, entries.get(b.id)));
  let answer: string;
  if (results.length === 0) answer = `I couldn't find a book matching "${query}" in your library.`;
  else if (query === '') {
    const listed = results.map((b) => `${b.title} (${progressPhrase(b)})`);
    answer =
      `You have ${total} book${total === 1 ? '' : 's'} in your library` +
      (results.length < total
        ? `; the newest are ${spokenList(listed)}, and ${total - results.length} more.`
        : `: ${spokenList(listed)}.`);
  } else
    answer = `I found ${results.length} book${results.length === 1 ? '' : 's'} for "${query}": ${spokenList(results.map((r) => r.title))}.`;
  return { answer, data: { results, total_books: total } };
}
