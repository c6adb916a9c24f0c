import { Page } from '../../components/ui';

/** Later work: only the heading and what the screen will show. */
export function Upload() {
  return <Page title="Upload Story" lead="Create an audiobook from text, a .txt file or a web page address." />;
}
