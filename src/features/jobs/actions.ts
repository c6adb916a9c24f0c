// What the reader does to a job (cancel, delete, retry), apart from the hooks that read jobs
// (hooks.ts): a screen that only shows jobs, such as the home, loads none of it.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { getGetJobQueryKey, useCancelJob, useRetryJob } from '../../api/gen/endpoints/jobs';
import type { Job, JobListResponse } from '../../api/gen/model';
import { errorMessage } from '../../api/errors';
import { invalidateJobLists, jobListsKey } from './cache';

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
