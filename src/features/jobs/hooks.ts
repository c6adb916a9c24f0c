import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  getGetJobQueryKey,
  useCancelJob,
  useGetJob,
  useListJobs,
  useRetryJob,
} from '../../api/gen/endpoints/jobs/jobs';
import type { Job, JobCore, JobListResponse, ListJobsParams } from '../../api/gen/model';
import { errorMessage } from '../../api/errors';
import { invalidateJobLists, markCancelled, markDeleted } from './cache';
import { chaptersInOrder, isActiveStatus } from '../../entities/job';
import { hasActiveJobs, keepJobListUnlessChanged, keepJobUnlessChanged, POLL_MS } from './polling';

/** What a polled query exposes to a screen; `isLoading` is the first load only. */
export interface PolledResult<T> {
  data: T | undefined;
  error: unknown;
  /** No data yet and fetching: show the skeleton. Never true for a refetch. */
  isLoading: boolean;
  /** A background refresh (spec: the polling flag) — never a reason to hide what is shown. */
  isPolling: boolean;
  /** Showing the previous filters' page while the new one loads. */
  isPlaceholderData: boolean;
}

export interface PolledJobsOptions {
  intervalMs?: number;
  /** Poll only while this is true; default: while the page itself holds an active job. */
  active?: boolean;
  /** Keep showing the previous page while a new page or filter loads (no skeleton flash). */
  keepPrevious?: boolean;
  enabled?: boolean;
}

/**
 * A page of jobs that refreshes every `intervalMs` while active jobs exist (docs/product.md#polling).
 * A refresh that changes no status, progress, step or updated_at keeps the stored page as is.
 */
export function usePolledJobs(
  params: ListJobsParams,
  { intervalMs = POLL_MS.default, active, keepPrevious = false, enabled = true }: PolledJobsOptions = {},
): PolledResult<JobListResponse> {
  const query = useListJobs(params, {
    query: {
      enabled,
      refetchInterval: (q) => {
        if (q.state.status === 'error') return false;
        return (active ?? hasActiveJobs(q.state.data?.jobs)) ? intervalMs : false;
      },
      structuralSharing: keepJobListUnlessChanged,
      placeholderData: keepPrevious ? keepPreviousData : undefined,
    },
  });
  return {
    data: query.data,
    error: query.error,
    isLoading: query.isLoading,
    isPolling: query.isFetching && !query.isLoading && !query.isPlaceholderData,
    isPlaceholderData: query.isPlaceholderData,
  };
}

/** One job (with its steps), refreshed every 3 s while it is PENDING or PROCESSING. */
export function usePolledJob(jobId: string, intervalMs: number = POLL_MS.jobDetail): PolledResult<Job> {
  const query = useGetJob(jobId, {
    query: {
      refetchInterval: (q) =>
        q.state.status !== 'error' && q.state.data && isActiveStatus(q.state.data.status) ? intervalMs : false,
      structuralSharing: keepJobUnlessChanged,
    },
  });
  // When the open job finishes, the lists and counts (the top bar's badge among them) are stale:
  // refresh them at once rather than at their next poll.
  const client = useQueryClient();
  const status = query.data?.status;
  const previous = useRef(status);
  useEffect(() => {
    if (
      previous.current !== undefined &&
      status !== undefined &&
      isActiveStatus(previous.current) &&
      !isActiveStatus(status)
    ) {
      void invalidateJobLists(client);
    }
    previous.current = status;
  }, [client, status]);
  return {
    data: query.data,
    error: query.error,
    isLoading: query.isLoading,
    isPolling: query.isFetching && !query.isLoading,
    isPlaceholderData: false,
  };
}

/**
 * A book's chapter jobs in chapter order, loaded from GET /jobs/{id} only while `enabled` (the
 * jobs list asks when the reader opens the book), refreshed while the book is active.
 */
export function useBookChapters(
  bookId: string,
  { enabled, intervalMs = POLL_MS.jobsList }: { enabled: boolean; intervalMs?: number },
) {
  const query = useGetJob(bookId, {
    query: {
      enabled,
      refetchInterval: (q) =>
        q.state.status !== 'error' && q.state.data && isActiveStatus(q.state.data.status) ? intervalMs : false,
    },
  });
  const chapters: JobCore[] | undefined = query.data ? chaptersInOrder(query.data) : undefined;
  return { chapters, isLoading: query.isLoading, error: query.error };
}

/**
 * The dashboard's counters: real totals from the server (page_size 1, only `total` read). Each
 * counts books and single texts, never a book's chapter jobs (a 40-chapter book is one); cancelled
 * ones have their own, so the parts add up to the total.
 */
export function useJobCounts(intervalMs: number = POLL_MS.dashboard) {
  // The running count shares its query (and cache entry) with the top bar's badge.
  const running = usePolledJobs({ status: 'running', top_level: true, page_size: 1 }, { intervalMs });
  const active = (running.data?.total ?? 0) > 0;
  const total = usePolledJobs({ top_level: true, page_size: 1 }, { intervalMs, active });
  const completed = usePolledJobs({ status: 'completed', top_level: true, page_size: 1 }, { intervalMs, active });
  const failed = usePolledJobs({ status: 'failed', top_level: true, page_size: 1 }, { intervalMs, active });
  const cancelled = usePolledJobs({ status: 'cancelled', top_level: true, page_size: 1 }, { intervalMs, active });
  return { total, completed, running, failed, cancelled, active };
}

/**
 * Cancel as docs/product.md#job-statuses says: success marks the job CANCELLED everywhere at once and
 * refreshes the counts; a failure is only logged.
 */
export function useCancelJobAction() {
  const client = useQueryClient();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const mutation = useCancelJob({
    mutation: {
      onMutate: ({ jobId }) => setPending((ids) => new Set(ids).add(jobId)),
      onSuccess: (job, { jobId }) => {
        // A job that finished meanwhile was deleted by the same DELETE (204, no body).
        if (job) markCancelled(client, jobId, job);
        else markDeleted(client, jobId);
        void invalidateJobLists(client);
      },
      onError: (error, { jobId }) => console.error(errorMessage(error, 'Failed to cancel job'), jobId, error),
      onSettled: (_data, _error, { jobId }) =>
        setPending((ids) => {
          const next = new Set(ids);
          next.delete(jobId);
          return next;
        }),
    },
  });
  const { mutate } = mutation;
  const cancel = useCallback((jobId: string) => mutate({ jobId }), [mutate]);
  return { cancel, isCancelling: (jobId: string) => pending.has(jobId) };
}

/**
 * Delete a finished job (COMPLETED, FAILED or CANCELLED): the same DELETE that cancels an active
 * one, which the server answers 204. On success the job leaves every list at once.
 */
export function useDeleteJobAction() {
  const client = useQueryClient();
  const mutation = useCancelJob({
    mutation: {
      onSuccess: async (_answer, { jobId }) => {
        markDeleted(client, jobId);
        await invalidateJobLists(client);
      },
    },
  });
  const { mutateAsync, reset } = mutation;
  // `delete: true`: the explicit intent the server needs to remove a finished job for good.
  const remove = useCallback(
    (jobId: string) => mutateAsync({ jobId, params: { delete: true } }).then(() => undefined),
    [mutateAsync],
  );
  return {
    remove,
    reset,
    isDeleting: mutation.isPending,
    error: mutation.error ? errorMessage(mutation.error, 'Failed to delete') : null,
  };
}

/** Retry a FAILED job: the server resumes from the failed step (docs/product.md#job-statuses). */
export function useRetryJobAction() {
  const client = useQueryClient();
  const mutation = useRetryJob({
    mutation: {
      onSuccess: async (job) => {
        client.setQueryData(getGetJobQueryKey(job.id), job);
        await invalidateJobLists(client);
      },
    },
  });
  return {
    retry: (jobId: string) => mutation.mutate({ jobId }),
    isRetrying: mutation.isPending,
    error: mutation.error ? errorMessage(mutation.error, 'Failed to retry job') : null,
  };
}
