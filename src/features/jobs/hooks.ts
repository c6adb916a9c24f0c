import { keepPreviousData } from '@tanstack/react-query';
import { useListJobs } from '../../api/gen/endpoints/jobs';
import type { JobListResponse, ListJobsParams } from '../../api/gen/model';
import { hasActiveJobs, keepJobListUnlessChanged, POLL_MS } from './polling';

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
