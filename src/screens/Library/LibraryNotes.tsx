import styled from 'styled-components';
import { Alert, Button } from '../../components/ui';
import { dismissKeepFailure, PlaceOfferNotice, useKeptBooks } from '../../features/kept-books';
import { playFrom } from '../../features/player';

const Notes = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(5)};
  &:empty {
    display: none;
  }
`;

/**
 * Above the shelf, about this device: offline, which books play (the kept ones) and that the
 * others need a connection, said kindly rather than as an error; a book that could not be kept,
 * and why; a later place another device saved in a book this one played offline.
 */
export function LibraryNotes({
  online,
  books,
  keptCount,
}: {
  online: boolean;
  books: readonly { id: string; title: string }[];
  keptCount: number;
}) {
  const { downloads, offers } = useKeptBooks();
  const titleOf = (id: string) => books.find((book) => book.id === id)?.title;
  return (
    <Notes>
      {!online && (
        <Alert tone="info">
          {keptCount > 0
            ? 'You are offline: the books on this device play. The others need a connection.'
            : 'You are offline. Books you keep on this device play without a connection; the others need one.'}
        </Alert>
      )}
      {Object.entries(downloads).map(([id, download]) =>
        download.status === 'failed' ? (
          <Alert key={id}>
            {`${titleOf(id) ?? 'A book'} was not kept on this device. ${download.message} `}
            <Button variant="link" onClick={() => dismissKeepFailure(id)}>
              Dismiss
            </Button>
          </Alert>
        ) : null,
      )}
      {Object.keys(offers).map((id) => (
        <PlaceOfferNotice
          key={id}
          jobId={id}
          title={titleOf(id) ?? 'this book'}
          onContinue={(position) => void playFrom(id, position)}
        />
      ))}
    </Notes>
  );
}
