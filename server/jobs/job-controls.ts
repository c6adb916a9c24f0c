/** Cancelling and retrying a job, a book's chapters with it. */
import { DomainError } from '../errors';
import { dispatchJob, ownedJob, viewJobById, type JobServiceDeps } from './job-access';
import type { JobView } from './job-view';
import { isActive } from './types';

/** Cancels the job and its unfinished chapters; their work stops within a second. */
export async function cancelJob(deps: JobServiceDeps, userId: string, jobId: string): Promise<JobView> {
  const { repo, queue } = deps;
  const job = await ownedJob(repo, userId, jobId);
  if (!isActive(job.status)) throw new DomainError('conflict', `Cannot cancel a job that is ${job.status}`);
  const cancelled = await repo.cancelWithChapters(jobId);
  deps.onCancelled?.(cancelled);
  // A chapter cancelled on its own fails its book (which can then be retried).
  if (job.parentJobId !== null) await queue.send(job.parentJobId);
  else await deps.scheduler?.dispatch(); // its place among the user's running jobs is free
  return viewJobById(repo, jobId);
}

/** A FAILED job resumes from its failed step; for a book, only failed (or cancelled) chapters run again. */
export async function retryJob(deps: JobServiceDeps, userId: string, jobId: string): Promise<JobView> {
  const { repo, queue, quotas } = deps;
  const job = await ownedJob(repo, userId, jobId);
  if (job.status !== 'FAILED') {
    throw new DomainError('conflict', `Only a failed job can be retried (this one is ${job.status})`);
  }
  // A chapter whose book failed because of it: retrying the book re-runs exactly the failed chapters.
  const parent = job.parentJobId === null ? null : await repo.jobs.get(job.parentJobId);
  const target = parent !== null && parent.status === 'FAILED' ? parent : job;
  await deps.storageHealth?.assertRoom();
  await repo.transaction(async (tx) => {
    if (target.parentJobId === null) await quotas.assertQueueRoom(tx, userId);
    // The space its unfinished parts reserved counts again, within the quota.
    const what = target.jobType === 'book_processing' ? 'book' : 'text';
    await quotas.keepWithin(tx, userId, what, () => tx.resetForRetry(target.id));
  });
  // A book or a text waits for its turn again; a chapter of a running book goes straight back to its book's work.
  if (target.parentJobId === null) await dispatchJob(deps, target.id);
  else await queue.send(target.id);
  return viewJobById(repo, jobId);
}
