// Hooks for one job, apart from the job lists' (hooks.ts): the job page's job with its steps, and a
// book's chapters in the jobs list. The home shows lists only, and loads none of this.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useGetJob } from '../../api/gen/endpoints/jobs';
import type { Job, JobCore } from '../../api/gen/model';
import { chaptersInOrder, isActiveStatus } from '../../entities/job';
import { invalidateJobLists } from './cache';
import type { PolledResult } from './hooks';
import { keepJobUnlessChanged, POLL_MS } from './polling';

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
