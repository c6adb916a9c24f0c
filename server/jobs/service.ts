/**
 * The jobs domain behind the routes: creating, previewing, reading, cancelling, retrying and
 * deleting jobs, and storing uploads. Knows nothing of HTTP. Each use case lives in a module of
 * its own (create-job.ts, preview.ts, job-reads.ts, job-controls.ts, job-removal.ts, upload.ts);
 * this object puts them together over one set of dependencies (job-access.ts).
 */
import { createJob } from './create-job';
import type { JobServiceDeps } from './job-access';
import { jobReads } from './job-reads';
import { cancelJob, retryJob } from './job-controls';
import { removeJob, removeUpload } from './job-removal';
import type { CreateJobInput } from './job-source';
import type { JobView } from './job-view';
import { previewJob } from './preview';
import { storeUpload } from './upload';

export function createJobService(deps: JobServiceDeps) {
  const cancel = (userId: string, jobId: string) => cancelJob(deps, userId, jobId);
  const remove = (userId: string, jobId: string) => removeJob(deps, userId, jobId);
  return {
    create: (userId: string, input: CreateJobInput) => createJob(deps, userId, input),

    /** What `create` would make of the same request, without creating anything. */
    preview: (userId: string, input: CreateJobInput) => previewJob(deps, userId, input),

    ...jobReads(deps),

    /** Cancels the job and its unfinished chapters; their work stops within a second. */
    cancel,

    /**
     * DELETE /jobs/{id}: cancels an unfinished job (its view); with `remove`, deletes a finished one
     * (null). Deleting needs that explicit intent, so a cancel that arrives just after the job
     * finished answers 409 instead of removing the reader's book.
     */
    async cancelOrRemove(userId: string, jobId: string, options: { remove: boolean }): Promise<JobView | null> {
      if (!options.remove) return cancel(userId, jobId);
      await remove(userId, jobId);
      return null;
    },

    /** A FAILED job resumes from its failed step; for a book, only failed (or cancelled) chapters run again. */
    retry: (userId: string, jobId: string) => retryJob(deps, userId, jobId),

    /** A finished top-level job is deleted for good, with its chapters, files and unused upload. */
    remove,

    /** Deletes one of the user's uploads; one that a job was made from goes with that job. */
    removeUpload: (userId: string, fileKey: string) => removeUpload(deps, userId, fileKey),

    /** Validates, reads and stores an uploaded book for the user; throws IngestError for files it refuses. */
    upload: (userId: string, filename: string, bytes: Uint8Array) => storeUpload(deps, userId, filename, bytes),

    /** What the user's data holds (reservations of unfinished jobs included) and their storage quota. */
    storageUse: (userId: string) => deps.quotas.storageUse(userId),
  };
}

export type JobService = ReturnType<typeof createJobService>;
