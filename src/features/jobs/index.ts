export { invalidateJobLists } from './cache';
export {
  defaultFilters,
  filtersFromSearch,
  hasActiveFilters,
  listParamsFromFilters,
  SEARCH_DEBOUNCE_MS,
  searchFromFilters,
  sortOptions,
  statusFilters,
  type JobsFilters,
} from './filters';
export { useRetryJobAction } from './actions';
export { useJobCounts, usePolledJobs } from './hooks';
export { useBookChapters, usePolledJob } from './one-job';
export { useJobsState } from './jobsState';
export { JobStatusIcon } from './JobStatusIcon';
export { PollingIndicator } from './PollingIndicator';
export { POLL_MS } from './polling';
export { useCancelJobFlow } from './useCancelJobFlow';
export { useDeleteJobFlow } from './useDeleteJobFlow';
