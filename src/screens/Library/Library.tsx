import { Page } from '../../components/ui';

/** Later work: only the heading and what the screen will show. */
export function Library() {
  return <Page title="Library" lead="Your finished audiobooks will appear here, ready to play." />;
}
