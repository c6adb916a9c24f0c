import { useIsMutating } from '@tanstack/react-query';
import { getCreateJobMutationKey } from '../../api/gen/endpoints/jobs';
import type { Job, JobListResponse, JobSummary } from '../../api/gen/model';
import { errorMessage } from '../../api/errors';
import { JOBS_PAGE_SIZE, type JobsFilters } from './filters';
import type { PolledResult } from './hooks';

/**
 * The "Jobs" state the screens read: list, currentJob, isLoading, isPolling, isCreating,
 * error, pagination {page 1, limit 10, total 0, pages 0} and filters.
 *
 * Why a selector and not a valtio store: the server state already lives in React Query (cache,
 * polling, change guard, cancel updates), and the filters live in the URL so reload and Back
 * work. A second store would be a copy to keep in sync. This derives the same shape from those
 * two sources instead, so it is observable (and tested) without duplicating anything.
 */
export interface JobsPagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface JobsState {
  list: JobSummary[];
  currentJob: Job | null;
  isLoading: boolean;
  isPolling: boolean;
  isCreating: boolean;
  error: string | null;
  pagination: JobsPagination;
  filters: JobsFilters;
}

export const initialPagination: JobsPagination = { page: 1, limit: JOBS_PAGE_SIZE, total: 0, pages: 0 };

export interface JobsStateSources {
  filters: JobsFilters;
  list?: PolledResult<JobListResponse>;
  job?: PolledResult<Job>;
  isCreating?: boolean;
}

/** Pure: the state area from the queries behind it. The list answer is read as items/total/page/limit/pages. */
export function selectJobsState({ filters, list, job, isCreating = false }: JobsStateSources): JobsState {
  const page = list?.data;
  const listError = list?.error ? errorMessage(list.error, 'Failed to fetch jobs') : null;
  const jobError = job?.error ? errorMessage(job.error, 'Failed to fetch job') : null;
  return {
    list: page?.jobs ?? [],
    currentJob: job?.data ?? null,
    isLoading: Boolean(list?.isLoading || job?.isLoading),
    isPolling: Boolean(list?.isPolling || job?.isPolling),
    isCreating,
    error: listError ?? jobError,
    // The page is the one asked for (the URL's): while it loads, the previous answer is still
    // shown, and Next must count from the page the reader is on, not the one still displayed.
    pagination: page
      ? { page: filters.page, limit: page.page_size, total: page.total, pages: page.total_pages }
      : { ...initialPagination, page: filters.page },
    filters,
  };
}

/** The Jobs state area for the screen that holds these queries (isCreating from the createJob mutation). */
export function useJobsState(sources: Omit<JobsStateSources, 'isCreating'>): JobsState {
  const creating = useIsMutating({ mutationKey: getCreateJobMutationKey() }) > 0;
  return selectJobsState({ ...sources, isCreating: creating });
}
