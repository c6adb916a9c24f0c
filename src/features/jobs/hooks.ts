import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useGetJob, useListJobs } from '../../api/gen/endpoints/jobs/jobs';
import type { Job, JobCore, JobListResponse, ListJobsParams } from '../../api/gen/model';
import { invalidateJobLists } from './cache';
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
