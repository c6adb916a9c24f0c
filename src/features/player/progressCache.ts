import { useQuery, type QueryClient } from '@tanstack/react-query';
import { getGetProgressQueryKey, getGetRecentProgressQueryKey, getProgress } from '../../api/gen/endpoints/progress';
import { PlaybackProgressOrNull, type PlaybackProgressOutput } from '../../api/gen/model';
import { resolveSchema } from '../../api/lazySchema';

/**
 * The reader's saved places are server data, so they live in the React Query cache only: the
 * player writes what it saved (or forgot) into the cached progress and recent-progress queries,
 * and every screen reading those queries shows it at once, without merging the player's state by
 * hand.
 */

/** The first element of every recent-progress query key, whatever its `limit`. */
const recentKey = getGetRecentProgressQueryKey().slice(0, 1);

/** GET /progress/{jobId}, validated; null when the book was never played. */
export async function fetchProgress(jobId: string): Promise<PlaybackProgressOutput | null> {
  const answer = await getProgress(jobId);
  return (await resolveSchema(PlaybackProgressOrNull)).parse(answer);
}

export const progressQuery = (jobId: string) => ({
  queryKey: getGetProgressQueryKey(jobId),
  queryFn: () => fetchProgress(jobId),
});

/** The saved place of one book (null when never played), as the cache holds it. */
export function useSavedProgress(jobId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...progressQuery(jobId), enabled });
}

/**
 * A record the server just saved: the book's own entry, and first in every cached recent list
 * (which keeps its `limit`, as the server's answer would).
 */
export function writeSavedProgress(client: QueryClient, record: PlaybackProgressOutput): void {
  client.setQueryData(getGetProgressQueryKey(record.job_id), record);
  for (const [key, list] of client.getQueriesData<PlaybackProgressOutput[]>({ queryKey: recentKey })) {
    if (!list) continue;
    const limit = (key[1] as { limit?: number } | undefined)?.limit ?? Infinity;
    client.setQueryData(key, [record, ...list.filter((other) => other.job_id !== record.job_id)].slice(0, limit));
  }
}

/** A record the server deleted: the book has no saved place and leaves every recent list. */
export function forgetSavedProgress(client: QueryClient, jobId: string): void {
  client.setQueryData(getGetProgressQueryKey(jobId), null);
  client.setQueriesData<PlaybackProgressOutput[]>({ queryKey: recentKey }, (list) =>
    list?.filter((record) => record.job_id !== jobId),
  );
}
