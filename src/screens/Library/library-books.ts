import { useMemo } from 'react';
import { useGetRecentProgress } from '../../api/gen/endpoints/progress';
import { useOnline } from '../../features/connectivity';
import { useEnvironment } from '../../features/environment';
import { POLL_MS, usePolledJobs } from '../../features/jobs';
import { useKeptBooks } from '../../features/kept-books';
import { keptLibraryBooks, toLibraryBooks } from '../../features/library';

/**
 * The library asks for every top-level book that can be played now at once (the API's largest
 * page): finished ones and books still converting with a chapter ready (docs/listening.md).
 */
const LIBRARY_QUERY = { status: 'listenable', top_level: true, page_size: 100 } as const;
const RECENT_QUERY = { limit: 50 } as const;

/**
 * The library's books: the server's list joined with the saved places and what this device keeps.
 * Offline before the server ever answered (`keptOnly`), the books kept on this device, from their
 * index.
 */
export function useLibraryBooks() {
  // A book still converting is in the list: polling shows its chapters becoming ready.
  const jobs = usePolledJobs(LIBRARY_QUERY, { intervalMs: POLL_MS.default });
  const recent = useGetRecentProgress(RECENT_QUERY);
  const demoMode = useEnvironment()?.features.demo_mode ?? false;
  const online = useOnline();
  const { books: keptIndex } = useKeptBooks();
  const keptOnly = !online && !jobs.data;
  const keptIds = useMemo(() => new Set(Object.keys(keptIndex)), [keptIndex]);
  // The player writes each saved place into the cached recent list, so it is always the freshest.
  const books = useMemo(
    () =>
      keptOnly
        ? keptLibraryBooks(Object.values(keptIndex), recent.data ?? [])
        : toLibraryBooks(jobs.data?.jobs ?? [], recent.data ?? [], demoMode, keptIds),
    [keptOnly, keptIndex, keptIds, jobs.data, recent.data, demoMode],
  );
  return { jobs, recent, books, keptOnly, keptCount: keptIds.size, online };
}
