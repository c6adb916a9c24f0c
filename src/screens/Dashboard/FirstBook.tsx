import { ButtonLink, EmptyState } from '../../components/ui';
import { paths } from '../../lib/paths';

/** Before the first book (docs/product.md#dashboard): one invitation to add it, where the shelves go. */
export default function FirstBook() {
  return (
    <EmptyState
      title="Nothing to listen to yet"
      action={
        <ButtonLink variant="primary" href={paths.upload()}>
          Add your first book
        </ButtonLink>
      }
    >
      Paste a story, drop in an EPUB or PDF, or give a web page: its first chapter plays in seconds.
    </EmptyState>
  );
}
