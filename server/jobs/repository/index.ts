/**
 * The jobs module's repository: one repository per table, each the ONLY code that reads or writes
 * its table (server/db/migrations/index.ts names every table's owner and
 * tests/unit/table-owners.test.ts keeps it so):
 *
 * - `jobs/`: `jobs`, its lease columns included (records, the list's pages, what the runner keeps);
 * - `job-steps.ts`: `job_steps`;
 * - `uploaded-files.ts`: `uploaded_files`;
 * - `upload-events.ts`: `upload_events`.
 *
 * Here they are put together on one executor, with the changes that span tables (a job and its
 * steps, a cancel and its running steps); `transaction(fn)` hands `fn` the same, bound to one
 * transaction (e.g. the quota check and the insert of a new job). Rows are decoded by `rows.ts`.
 *
 * The storage quota counts a user's downloads too: their bytes are asked of the `exports` table's
 * owner (server/exports/repository.ts) on the same executor, so one transaction counts them all.
 */
import type { Db, DbExecutor } from '../../db/types';
import { exportsTable } from '../../exports/repository';
import type { JobPlan } from '../types';
import { jobStepsTable } from './job-steps';
import { jobsTable, type NewJobRow } from './jobs/index';
import { lockOwner } from './owner-lock';
import { uploadEventsTable } from './upload-events';
import { uploadedFilesTable } from './uploaded-files';

export type { ListFilter } from './jobs/index';

/** A job to create, with the steps it will run. */
export interface NewJob extends NewJobRow {
  steps: readonly string[];
}

/** The tables' repositories on one executor, and the changes that span them (run those in a transaction). */
function stores(x: DbExecutor) {
  const jobs = jobsTable(x);
  const steps = jobStepsTable(x);
  const uploads = uploadedFilesTable(x);
  const uploadEvents = uploadEventsTable(x);
  return {
    jobs,
    steps,
    uploads,
    uploadEvents,

    /** Serialises the user's quota checks until the transaction ends (./owner-lock.ts). */
    lockOwner: (userId: string) => lockOwner(x, userId),

    /** Inserts a PENDING job and its pending steps; answers its id. */
    async insertJob(job: NewJob): Promise<string> {
      const { steps: names, ...row } = job;
      const id = await jobs.insert(row);
      await steps.insert(id, names, 1);
      return id;
    },

    /**
     * Bytes the user's data holds or has reserved (the storage quota): uploads, jobs (texts,
     * covers, audio and timing maps, reservations of unfinished ones) and downloads.
     */
    async storageUsed(userId: string): Promise<number> {
      // One after the other: a transaction's connection answers one query at a time.
      const uploaded = await uploads.bytesHeld(userId);
      const converted = await jobs.bytesHeld(userId);
      return uploaded + converted + (await exportsTable(x).bytesHeld(userId));
    },

    /** An active book's progress while its chapters run: their mean, kept between 8 and 99; also its running synthesize_chapters step's. */
    async setBookProgress(bookId: string, mean: number): Promise<void> {
      await jobs.setBookProgress(bookId, mean);
      await steps.setRunningProgress(bookId, 'synthesize_chapters', Math.min(100, mean));
    },

    /**
     * A COMPLETED job converted again in part: the given chapters (or, without chapters, the job
     * itself) back to PENDING with their synthesize and finalize steps pending, and the job's own
     * synthesize, synthesize_chapters, combine_audio and finalize steps pending, so a book joins
     * them again. Answers false when the job was no longer COMPLETED.
     */
    async resetForReconvert(jobId: string, chapterIds: readonly string[]): Promise<boolean> {
      if (!(await jobs.reopenCompleted(jobId, chapterIds))) return false;
      await steps.resetNamed([jobId], ['synthesize', 'synthesize_chapters', 'combine_audio', 'finalize']);
      if (chapterIds.length > 0) await steps.resetNamed(chapterIds, ['synthesize', 'finalize']);
      return true;
    },

    /** A FAILED job (and its failed or cancelled chapters) back to PENDING, failed and interrupted steps to pending. */
    async resetForRetry(jobId: string): Promise<void> {
      await steps.resetUnfinished(await jobs.resetFailed(jobId));
    },
  };
}

/** The repository's tables bound to one transaction. */
export type JobStore = ReturnType<typeof stores>;

export function createJobRepository(db: Db) {
  /** Runs `fn` in one transaction; its executor is handed along for other modules' tables counted with these (the quota's). */
  const transaction = <T>(fn: (tx: JobStore, executor: DbExecutor) => Promise<T>): Promise<T> =>
    db.transaction((tx) => fn(stores(tx), tx));
  return {
    ...stores(db),
    transaction,

    /**
     * Keeps the plan of a job whose text has just been read (a web page): in one transaction, it is
     * stored in the job's config and a book's job becomes a book_processing job whose steps from
     * `firstOrder` on are `tail` (its synthesize step goes).
     */
    async keepPlan(jobId: string, plan: JobPlan, tail: readonly string[], firstOrder: number): Promise<void> {
      await transaction(async (tx) => {
        await tx.jobs.mergeConfig(jobId, { plan });
        if (plan.kind !== 'book') return;
        await tx.jobs.markBook(jobId);
        await tx.steps.remove(jobId, 'synthesize');
        await tx.steps.insert(jobId, tail, firstOrder);
      });
    },

    /**
     * split_chapters carries out a book's plan: in one transaction, chapter jobs of an earlier try
     * go and `chapters` are inserted as the book's chapter jobs. With `bookReservedBytes`, the
     * book's reservation moves with them: each chapter holds the space of its own audio, the book
     * keeps that much (its joined audio).
     */
    async replaceChapters(
      bookId: string,
      chapters: (NewJob & { id: string })[],
      bookReservedBytes?: number,
    ): Promise<void> {
      await transaction(async (tx) => {
        await tx.jobs.deleteChapters(bookId);
        if (bookReservedBytes !== undefined) await tx.jobs.reserve(bookId, bookReservedBytes);
        // Chapters share their steps: rows go in a few multi-row statements, however long the book.
        const names = chapters[0]?.steps ?? [];
        if (chapters.some((c) => c.steps.join() !== names.join())) {
          for (const chapter of chapters) await tx.insertJob(chapter);
          return;
        }
        await tx.jobs.insertMany(chapters);
        await tx.steps.insertForJobs(
          chapters.map((c) => c.id),
          names,
        );
      });
    },

    /** Cancels the job and its unfinished chapters (running steps fail with "Cancelled"); answers the ids cancelled. */
    async cancelWithChapters(jobId: string): Promise<string[]> {
      return transaction(async (tx) => {
        const cancelled = await tx.jobs.cancelActive(jobId);
        await tx.steps.failRunning(cancelled, 'Cancelled');
        return cancelled;
      });
    },

    /** Deletes the user's job (its chapters, steps and progress go by cascade); answers the rows that went. */
    async deleteWithChapters(jobId: string, userId: string): Promise<{ id: string; outputFileKey: string | null }[]> {
      return transaction((tx) => tx.jobs.deleteOwned(jobId, userId));
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
