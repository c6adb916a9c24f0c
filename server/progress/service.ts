import { chaptersOf, isListenable, listsChapterJobs, type Book } from '../books/book';
import type { BookReader } from '../books/reader';
import { DomainError } from '../errors';
import { latestWins } from './coalesce';
import { groupCommit } from './group-commit';
import { isForeignKeyViolation } from '../db/types';
import type { ProgressRecord, ProgressRepository, ProgressWrite } from './repository';

/** A saved position as the API answers it: the progress row and its job's title. */
export type PlaybackProgress = ProgressRecord & { jobTitle: string };

export interface ProgressUpdate {
  positionSeconds: number;
  durationSeconds?: number | undefined;
  currentChapterId?: string | null | undefined;
  currentChapterPosition?: number | undefined;
}

export interface ProgressService {
  get(userId: string, jobId: string): Promise<PlaybackProgress | null>;
  save(userId: string, jobId: string, update: ProgressUpdate): Promise<PlaybackProgress>;
  reset(userId: string, jobId: string): Promise<void>;
  recent(userId: string, limit: number): Promise<PlaybackProgress[]>;
}

/** A listener who has heard this share of the book has finished it (credits, silence at the end). */
export const COMPLETED_AT_PERCENT = 95;

export const JOB_NOT_FOUND = 'Job not found';

/** Rows read beyond the recent list's length, for chapter places that are left out of it. */
const RECENT_SLACK = 50;

export function createProgressService(deps: {
  repository: ProgressRepository;
  /**
   * Books (their status, length and title) are read through server/books' reader (the jobs
   * repository); with finished books kept (jobs/kept-books.ts), a listener's saves every few
   * seconds write the place and read nothing.
   */
  jobs: Pick<BookReader, 'findBook' | 'titles' | 'chapterJobs'>;
  now: () => Date;
}): ProgressService {
  const { repository, jobs, now } = deps;
  // One listener's saves of one book are written one at a time, the newest of those waiting next;
  // everyone's saves that arrive while a statement runs are written together in the next one.
  const saving = latestWins<PlaybackProgress>();
  const write = groupCommit((writes: ProgressWrite[]) => repository.upsertMany(writes));

  async function ownedJob(userId: string, jobId: string): Promise<Book> {
    const job = await jobs.findBook(userId, jobId);
    if (job === null) throw new DomainError('not_found', JOB_NOT_FOUND);
    return job;
  }

  return {
    async get(userId, jobId) {
      const job = await ownedJob(userId, jobId);
      const record = await repository.find(userId, jobId);
      return record === null ? null : { ...record, jobTitle: job.title };
    },

    save(userId, jobId, update) {
      return saving(`${userId}/${jobId}`, async () => {
        const asked = await ownedJob(userId, jobId);
        if (asked.parentJobId !== null) return saveChapterAsBook(userId, asked, update);
        return saveBook(userId, asked, update);
      });
    },

    async reset(userId, jobId) {
      await ownedJob(userId, jobId);
      await repository.delete(userId, jobId);
    },

    async recent(userId, limit) {
      // Places saved for a book's chapter jobs (by clients older than the book's own place) are
      // not books of their own: `titles` names books and texts only, so they drop out here. A few
      // more rows than asked for are read so that such places do not shorten the list.
      const records = await repository.recent(userId, limit + RECENT_SLACK);
      const titles = await jobs.titles(
        userId,
        records.map((r) => r.jobId),
      );
      // A job deleted between the two reads takes its progress with it (foreign-key cascade).
      return records
        .flatMap((r) => {
          const jobTitle = titles.get(r.jobId);
          return jobTitle === undefined ? [] : [{ ...r, jobTitle }];
        })
        .slice(0, limit);
    },
  };

  /**
   * A place reported for one of a book's chapter jobs (how the first clients played a book still
   * converting) is the book's place: the chapter's start in the book plus the offset in it. The
   * answer is the book's saved progress.
   */
  async function saveChapterAsBook(userId: string, chapter: Book, update: ProgressUpdate): Promise<PlaybackProgress> {
    const book = chapter.parentJobId === null ? null : await jobs.findBook(userId, chapter.parentJobId);
    if (book === null) throw new DomainError('not_found', JOB_NOT_FOUND);
    const chapters = chaptersOf(book, listsChapterJobs(book) ? await jobs.chapterJobs(userId, book.id) : []);
    const info = chapters.find((c) => c.id === chapter.id || c.order === chapter.chapterOrder);
    const start = info?.start ?? 0;
    const offset = Math.max(0, update.positionSeconds);
    const total = chapters.reduce((sum, c) => sum + c.duration, 0);
    return saveBook(userId, book, {
      positionSeconds: start + offset,
      durationSeconds: total > 0 ? total : undefined,
      currentChapterId: info?.id ?? chapter.id,
      currentChapterPosition: offset,
    });
  }

  async function saveBook(userId: string, job: Book, update: ProgressUpdate): Promise<PlaybackProgress> {
    const jobId = job.id;
    // A book still converting is listened to from its ready chapters (or its first chapter's
    // opening); its place is kept too.
    if (!isListenable(job)) {
      throw new DomainError('conflict', 'Progress can only be saved for a completed audiobook');
    }
    // The job's own duration is the truth; the client's figure only stands in when it is unknown.
    const known = job.durationSeconds !== null && job.durationSeconds > 0 ? job.durationSeconds : null;
    const given = update.durationSeconds !== undefined && update.durationSeconds > 0 ? update.durationSeconds : null;
    const duration = known ?? given;
    const position = duration === null ? update.positionSeconds : Math.min(update.positionSeconds, duration);
    const exact = duration === null ? 0 : Math.min(100, Math.max(0, (position / duration) * 100));
    const percentage = Math.round(exact * 100) / 100;
    // A book deleted since it was read (from the cache, or just before) has no place to keep.
    const saved = await write({
      userId,
      jobId,
      positionSeconds: position,
      durationSeconds: duration,
      percentageComplete: percentage,
      currentChapterId: update.currentChapterId ?? null,
      currentChapterPosition: update.currentChapterPosition ?? 0,
      isCompleted: percentage >= COMPLETED_AT_PERCENT,
      at: now(),
    }).catch((error: unknown) => {
      if (isForeignKeyViolation(error)) throw new DomainError('not_found', JOB_NOT_FOUND);
      throw error;
    });
    return { ...saved, jobTitle: job.title };
  }
}
