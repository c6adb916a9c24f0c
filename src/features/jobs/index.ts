export { invalidateJobLists, jobListsKey, markCancelled, markDeleted } from './cache';
export {
  defaultFilters,
  filtersFromSearch,
  hasActiveFilters,
  JOBS_PAGE_SIZE,
  listParamsFromFilters,
  SEARCH_DEBOUNCE_MS,
  searchFromFilters,
  sortOptions,
  statusFilters,
  type JobsFilters,
  type SortOption,
  type StatusFilter,
} from './filters';
export {
  useCancelJobAction,
  useDeleteJobAction,
  useJobCounts,
  usePolledJob,
  usePolledJobs,
  useRetryJobAction,
  type PolledJobsOptions,
  type PolledResult,
} from './hooks';
export { initialPagination, selectJobsState, useJobsState, type JobsPagination, type JobsState } from './jobsState';
export { JobStatusIcon } from './JobStatusIcon';
export { PollingIndicator } from './PollingIndicator';
export {
  hasActiveJobs,
  jobChanged,
  jobListChanged,
  keepJobListUnlessChanged,
  keepJobUnlessChanged,
  POLL_MS,
} from './polling';
export { useDeleteJobFlow, type DeleteTarget } from './useDeleteJobFlow';
