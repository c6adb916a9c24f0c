import type { QueryClient } from '@tanstack/react-query';
import { getListJobsQueryKey } from '../../api/gen/endpoints/jobs';

/** The first element of every listJobs query key ('/api/v1/jobs'), shared by all pages and counts. */
export const jobListsKey = getListJobsQueryKey().slice(0, 1);

/**
 * After a job is created, cancelled or retried: refetch every jobs page and count (the list,
 * the dashboard counters and the top bar's running badge). The Upload screen calls this too.
 */
export function invalidateJobLists(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: jobListsKey });
}
