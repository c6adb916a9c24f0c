import { DomainError } from '../errors';
import { isListenable, type Book } from '../jobs/book';
import type { JobsTable } from '../jobs/repository';
import type { ProgressRecord, ProgressRepository } from './repository';

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

export function createProgressService(deps: {
  repository: ProgressRepository;
  /** Books (their status, length and title) are read through the jobs repository, the owner of the jobs table. */
  jobs: Pick<JobsTable, 'findBook' | 'titles'>;
  now: () => Date;
}): ProgressService {
  const { repository, jobs, now } = deps;

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

    async save(userId, jobId, update) {
      const job = await ownedJob(userId, jobId);
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
      const saved = await repository.upsert({
        userId,
        jobId,
        positionSeconds: position,
        durationSeconds: duration,
        percentageComplete: percentage,
        currentChapterId: update.currentChapterId ?? null,
        currentChapterPosition: update.currentChapterPosition ?? 0,
        isCompleted: percentage >= COMPLETED_AT_PERCENT,
        at: now(),
      });
      return { ...saved, jobTitle: job.title };
    },

    async reset(userId, jobId) {
      await ownedJob(userId, jobId);
      await repository.delete(userId, jobId);
    },

    async recent(userId, limit) {
      const records = await repository.recent(userId, limit);
      const titles = await jobs.titles(
        userId,
        records.map((r) => r.jobId),
      );
      // A job deleted between the two reads takes its progress with it (foreign-key cascade).
      return records.flatMap((r) => {
        const jobTitle = titles.get(r.jobId);
        return jobTitle === undefined ? [] : [{ ...r, jobTitle }];
      });
    },
  };
}
