import type { QueryClient } from '@tanstack/react-query';
import { getGetJobQueryKey, getListJobsQueryKey } from '../../api/gen/endpoints/jobs/jobs';
import type { Job, JobListResponse } from '../../api/gen/model';

/** The first element of every listJobs query key ('/api/v1/jobs'), shared by all pages and counts. */
export const jobListsKey = getListJobsQueryKey().slice(0, 1);

/**
 * docs/product.md#job-statuses: a successful cancel sets CANCELLED in the list and in the open job, at once.
 * Writes the server's answer (or just the status) into every cached page, the job's own entry
 * and any cached book that lists it as a chapter.
 */
export function markCancelled(client: QueryClient, jobId: string, answer?: Job): void {
  const patch = { status: 'CANCELLED' as const, ...(answer ? { updated_at: answer.updated_at } : {}) };
  client.setQueriesData<JobListResponse>({ queryKey: jobListsKey }, (page) =>
    page && page.jobs.some((job) => job.id === jobId)
      ? { ...page, jobs: page.jobs.map((job) => (job.id === jobId ? { ...job, ...patch } : job)) }
      : page,
  );
  client.setQueryData<Job>(getGetJobQueryKey(jobId), (job) => (job ? { ...job, ...(answer ?? {}), ...patch } : answer));
  for (const [key, job] of client.getQueriesData<Job>({ predicate: (query) => isJobKey(query.queryKey) })) {
    if (job?.children?.some((child) => child.id === jobId)) {
      client.setQueryData<Job>(key, {
        ...job,
        children: job.children.map((child) => (child.id === jobId ? { ...child, ...patch } : child)),
      });
    }
  }
}

/**
 * A deleted job leaves every cached page at once (the totals drop with it) and its own entry is
 * dropped; the lists are refetched after (see invalidateJobLists).
 */
export function markDeleted(client: QueryClient, jobId: string): void {
  client.setQueriesData<JobListResponse>({ queryKey: jobListsKey }, (page) =>
    page && page.jobs.some((job) => job.id === jobId)
      ? { ...page, jobs: page.jobs.filter((job) => job.id !== jobId), total: Math.max(0, page.total - 1) }
      : page,
  );
  client.removeQueries({ queryKey: getGetJobQueryKey(jobId), exact: true });
}

function isJobKey(key: readonly unknown[]): boolean {
  return key.length === 1 && typeof key[0] === 'string' && /^\/api\/v1\/jobs\/[^/]+$/.test(key[0]);
}

/**
 * After a job is created, cancelled or retried: refetch every jobs page and count (the list,
 * the dashboard counters and the top bar's running badge). The Upload screen calls this too.
 */
export function invalidateJobLists(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: jobListsKey });
}
