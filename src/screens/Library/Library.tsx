import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Trash2 from 'lucide-react/icons/trash-2';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import { Alert, Button, ButtonLink, EmptyState, Page, Spinner } from '../../components/ui';
import type { MenuAction } from '../../components/ui/ActionMenu';
import { BookTile, type TileAction } from '../../components/book';
import { useDeleteJobFlow } from '../../features/jobs';
import { paths } from '../../lib/paths';
import {
  selectBooks,
  summaryLine,
  type LibraryBook,
  type LibraryFilter,
  type LibrarySort,
  readLibraryView,
  writeLibraryView,
  type LibraryView,
} from '../../features/library';
import { isReady, listenAgain, togglePlayback, usePlayer } from '../../features/player';
import { useBookExportActions } from './export-actions';
import { useKeepActions } from './kept-actions';
import { LibraryNotes } from './LibraryNotes';
import { useLibraryBooks } from './library-books';
import { LibraryToolbar } from './LibraryToolbar';

const Summary = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(5)};
  color: ${({ theme }) => theme.colors.textMuted};
  font-variant-numeric: tabular-nums;
`;

const Shelf = styled.ul<{ $view: LibraryView }>`
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme, $view }) => ($view === 'grid' ? `${theme.space(6)} ${theme.space(4)}` : theme.space(2))};
  grid-template-columns: ${({ $view }) => ($view === 'grid' ? 'repeat(auto-fill, minmax(150px, 1fr))' : '1fr')};
`;

const Count = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

type PlayState = 'playing' | 'paused' | 'idle';

/** What a book not kept on this device says while the browser is offline. */
const NEEDS_CONNECTION = 'Needs a connection to play';

/**
 * The card's one action: Pause while it plays, Listen again once finished, else Continue or Play.
 * Offline, a book not kept on this device has none: it cannot play.
 */
function primaryAction(book: LibraryBook, playState: PlayState, online = true): TileAction | undefined {
  if (!online && !book.kept && playState === 'idle') return undefined;
  if (playState === 'playing')
    return { kind: 'pause', label: `Pause ${book.title}`, onClick: () => void togglePlayback(book.id) };
  // A book still converting is never finished: its later chapters are yet to come.
  if (book.finished && !book.converting)
    return { kind: 'again', label: `Listen again to ${book.title}`, onClick: () => void listenAgain(book.id) };
  const verb = book.hasProgress || playState === 'paused' ? 'Continue' : 'Play';
  return { kind: 'play', label: `${verb} ${book.title}`, onClick: () => void togglePlayback(book.id) };
}

/**
 * docs/product.md#library: covers first. One compact summary line, search, filter (listening state
 * or the voice that read it), sort, grid or list, and every book with one primary action; the
 * rarer ones (start over, delete after a confirmation) in its "More actions" menu.
 */
export function Library() {
  const { jobs, recent, books, keptOnly, keptCount, online } = useLibraryBooks();
  const player = usePlayer();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<LibraryFilter>('all');
  const [sort, setSort] = useState<LibrarySort>('createdAt');
  const [view, setView] = useState<LibraryView>(() => readLibraryView());
  const deleteFlow = useDeleteJobFlow();
  const exportActions = useBookExportActions();
  const keepActions = useKeepActions();
  const { deleted } = deleteFlow;
  const shown = useMemo(() => selectBooks(books, { search, filter, sort }), [books, search, filter, sort]);

  const chooseView = (next: LibraryView) => {
    setView(next);
    writeLibraryView(next);
  };
  const clearFilters = () => {
    setSearch('');
    setFilter('all');
  };
  const playStateOf = (id: string): PlayState =>
    player.currentJobId !== id ? 'idle' : player.isPlaying ? 'playing' : isReady(player) ? 'paused' : 'idle';
  const menuOf = (book: LibraryBook): MenuAction[] => [
    ...(book.hasProgress && !book.finished && (online || book.kept)
      ? [{ label: 'Start over', icon: RotateCcw, onSelect: () => void listenAgain(book.id) }]
      : []),
    ...keepActions.actionFor(book, online),
    // Downloads and feeds are made of a finished book.
    ...(book.converting || !online ? [] : exportActions.actionsFor(book)),
    {
      label: 'Delete',
      icon: Trash2,
      danger: true,
      onSelect: () => deleteFlow.ask({ id: book.id, title: book.title, audiobook: true }),
    },
  ];

  // Offline, what failed is no error: the kept books play, and the note below says so.
  const error = !online
    ? null
    : jobs.error
      ? errorMessage(jobs.error, 'Your books could not be loaded. Check your connection and reload the page.')
      : recent.error
        ? errorMessage(recent.error, 'Your listening progress could not be loaded. Reload the page to try again.')
        : null;

  return (
    <Page title="Library">
      {error && <Alert>{error}</Alert>}
      {deleted && <Alert tone="success">{`Deleted "${deleted}" from your library.`}</Alert>}
      {player.error && player.currentJobId && !jobs.isLoading && online && <Alert>{player.error}</Alert>}
      <LibraryNotes online={online} books={books} keptCount={keptCount} />
      {/* Each book shows its listening progress: wait for it too, so bars never jump from 0. */}
      {!keptOnly && (jobs.isLoading || recent.isPending) ? (
        <Spinner label="Loading..." />
      ) : jobs.error && !keptOnly ? null : books.length === 0 && keptOnly ? (
        <EmptyState title="No books on this device">
          Your library comes back with the connection. Keep a book on this device to listen offline.
        </EmptyState>
      ) : books.length === 0 ? (
        <EmptyState
          title="Your library is empty"
          action={
            <ButtonLink variant="primary" href={paths.upload()}>
              Add a book
            </ButtonLink>
          }
        >
          Books you add appear here as soon as their first chapter can be played.
        </EmptyState>
      ) : (
        <>
          <Summary aria-label="Summary">{summaryLine(books)}</Summary>
          <LibraryToolbar
            books={books}
            search={search}
            onSearch={setSearch}
            filter={filter}
            onFilter={setFilter}
            sort={sort}
            onSort={setSort}
            view={view}
            onView={chooseView}
          />
          {shown.length === 0 ? (
            <EmptyState title="No books match" action={<Button onClick={clearFilters}>Clear filters</Button>}>
              Try another search, or show all books.
            </EmptyState>
          ) : (
            <>
              <Count role="status">{shown.length === 1 ? '1 book' : `${shown.length} books`}</Count>
              <Shelf $view={view} aria-label="Books" data-view={view}>
                {shown.map((book) => (
                  <BookTile
                    key={book.id}
                    jobId={book.id}
                    title={book.title}
                    author={book.author}
                    status={!online && !book.kept ? NEEDS_CONNECTION : book.status}
                    progress={book.converting || book.finished ? undefined : book.progress}
                    href={paths.libraryBook(book.id)}
                    action={primaryAction(book, playStateOf(book.id), online)}
                    badge={keepActions.badgeFor(book.id)}
                    menu={menuOf(book)}
                    layout={view === 'grid' ? 'column' : 'row'}
                  />
                ))}
              </Shelf>
            </>
          )}
        </>
      )}
      {deleteFlow.dialog}
      {exportActions.dialog}
    </Page>
  );
}
