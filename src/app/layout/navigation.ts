import type { LucideIcon } from 'lucide-react';
import House from 'lucide-react/icons/house';
import LibraryBig from 'lucide-react/icons/library-big';
import ListChecks from 'lucide-react/icons/list-checks';
import MessagesSquare from 'lucide-react/icons/messages-square';
import CirclePlus from 'lucide-react/icons/circle-plus';
import { useListJobs } from '../../api/gen/endpoints/jobs';
import { paths } from '../../lib/paths';

/**
 * The app's main places (docs/product.md#navigation-bar), in the order both navigations show them:
 * the top bar on wider screens, the bottom bar on a phone. `add` (Upload, in the middle of the bottom
 * bar) is the top bar's Upload New Story button, not one of its links.
 */
export interface Place {
  label: string;
  href: string;
  icon: LucideIcon;
  /** Carries the running-jobs badge. */
  badge?: boolean;
  add?: boolean;
}

export const places: readonly Place[] = [
  { label: 'Dashboard', href: paths.dashboard(), icon: House },
  { label: 'Jobs', href: paths.jobs(), icon: ListChecks, badge: true },
  { label: 'Upload', href: paths.upload(), icon: CirclePlus, add: true },
  { label: 'Library', href: paths.library(), icon: LibraryBig },
  { label: 'Voice Assistant', href: paths.voiceAssistant(), icon: MessagesSquare },
];

/** How often the running-jobs badge refreshes: the dashboard's rate (docs/product.md#navigation-bar). */
const RUNNING_COUNT_REFRESH_MS = 10_000;

/**
 * PENDING + PROCESSING books and single texts (the server's `running` filter, top-level jobs only:
 * a converting book counts once, not once per chapter); only `total` is read. Both navigations
 * share the one query.
 */
export function useRunningJobsCount(): number {
  const { data } = useListJobs(
    { status: 'running', top_level: true, page_size: 1 },
    {
      query: {
        retry: false,
        // Stop asking after an error (e.g. a server without the jobs route yet): no badge, no noise.
        refetchInterval: (query) => (query.state.status === 'error' ? false : RUNNING_COUNT_REFRESH_MS),
      },
    },
  );
  return data?.total ?? 0;
}

export function isCurrentPlace(location: string, href: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}
