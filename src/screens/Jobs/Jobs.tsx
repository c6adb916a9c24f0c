import { Page } from '../../components/ui';

/** Later work: only the heading and what the screen will show. */
export function Jobs() {
  return <Page title="Jobs" lead="Your conversion jobs and their progress will be listed here." />;
}
