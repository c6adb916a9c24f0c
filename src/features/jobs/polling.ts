import { replaceEqualDeep } from '@tanstack/react-query';
import type { Job, JobListResponse, JobStep } from '../../api/gen/model';
import { isActiveStatus } from '../../entities/job';

/** Polling intervals (docs/product.md#polling). */
export const POLL_MS = {
  dashboard: 10_000,
  jobsList: 5_000,
  jobDetail: 3_000,
  default: 5_000,
} as const;

export function hasActiveJobs(jobs: readonly Pick<Job, 'status'>[] | undefined): boolean {
  return Boolean(jobs?.some((job) => isActiveStatus(job.status)));
}

type StepLike = Pick<JobStep, 'id' | 'status' | 'progress' | 'updated_at' | 'error_message'>;

function stepsChanged(a: readonly StepLike[] | undefined, b: readonly StepLike[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  if (left.length !== right.length) return true;
  return left.some((step, index) => {
    const other = right[index];
    return (
      !other ||
      step.id !== other.id ||
      step.status !== other.status ||
      step.progress !== other.progress ||
      step.updated_at !== other.updated_at ||
      step.error_message !== other.error_message
    );
  });
}

type JobLike = Pick<Job, 'id' | 'status' | 'progress' | 'updated_at'> & { steps?: readonly StepLike[] };

/** A polled job replaces the stored one only if status, progress, steps or updated_at changed (docs/product.md#polling). */
export function jobChanged<T extends JobLike>(previous: T, next: T): boolean {
  return (
    previous.id !== next.id ||
    previous.status !== next.status ||
    previous.progress !== next.progress ||
    previous.updated_at !== next.updated_at ||
    stepsChanged(previous.steps, next.steps)
  );
}

/**
 * The same rule for a page of jobs. A page whose membership or totals moved (a job was created
 * or deleted elsewhere) has changed too, or the list would go stale.
 */
export function jobListChanged(previous: JobListResponse, next: JobListResponse): boolean {
  if (
    previous.total !== next.total ||
    previous.page !== next.page ||
    previous.total_pages !== next.total_pages ||
    previous.jobs.length !== next.jobs.length
  ) {
    return true;
  }
  return previous.jobs.some((job, index) => {
    const other = next.jobs[index];
    return !other || jobChanged(job, other);
  });
}

/**
 * React Query `structuralSharing` functions built on a change test: an answer that changed
 * nothing the screens watch keeps the stored object (same reference, so nothing re-renders);
 * otherwise the new answer is merged with React Query's default deep sharing.
 */
export function keepUnlessChanged<T>(changed: (previous: T, next: T) => boolean) {
  return (previous: unknown, next: unknown): unknown => {
    if (previous !== undefined && next !== undefined && !changed(previous as T, next as T)) return previous;
    return replaceEqualDeep(previous, next);
  };
}

export const keepJobListUnlessChanged = keepUnlessChanged<JobListResponse>(jobListChanged);
export const keepJobUnlessChanged = keepUnlessChanged<Job>(jobChanged);
