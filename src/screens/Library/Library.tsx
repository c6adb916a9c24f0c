import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Trash2 from 'lucide-react/icons/trash-2';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { useGetRecentProgress } from '../../api/gen/endpoints/progress';
import { errorMessage } from '../../api/errors';
import { Alert, Button, ButtonLink, EmptyState, Page, Spinner } from '../../components/ui';
import type { MenuAction } from '../../components/ui/ActionMenu';
import { BookTile, type TileAction } from '../../components/book';
import { POLL_MS, useDeleteJobFlow, usePolledJobs } from '../../features/jobs';
import { useEnvironment } from '../../features/environment';
import { paths } from '../../lib/paths';
import {
  toLibraryBooks,
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
import { LibraryToolbar } from './LibraryToolbar';

/**
 * The library asks for every top-level book that can be played now at once (the API's largest
 * page): finished ones and books still converting with a chapter ready (docs/listening.md).
 */
const LIBRARY_QUERY = { status: 'listenable', top_level: true, page_size: 100 } as const;
const RECENT_QUERY = { limit: 50 } as const;

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

/** The card's one action: Pause while it plays, Listen again once finished, else Continue or Play. */
function primaryAction(book: LibraryBook, playState: PlayState): TileAction {
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
  // A book still converting is in the list: polling shows its chapters becoming ready.
  const jobs = usePolledJobs(LIBRARY_QUERY, { intervalMs: POLL_MS.default });
  const recent = useGetRecentProgress(RECENT_QUERY);
  const player = usePlayer();
  const demoMode = useEnvironment()?.features.demo_mode ?? false;
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<LibraryFilter>('all');
  const [sort, setSort] = useState<LibrarySort>('createdAt');
  const [view, setView] = useState<LibraryView>(() => readLibraryView());
  const deleteFlow = useDeleteJobFlow();
  const exportActions = useBookExportActions();
  const { deleted } = deleteFlow;

  // The player writes each saved place into the cached recent list, so it is always the freshest.
  const books = useMemo(
    () => toLibraryBooks(jobs.data?.jobs ?? [], recent.data ?? [], demoMode),
    [jobs.data, recent.data, demoMode],
  );
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
    ...(book.hasProgress && !book.finished
      ? [{ label: 'Start over', icon: RotateCcw, onSelect: () => void listenAgain(book.id) }]
      : []),
    // Downloads and feeds are made of a finished book.
    ...(book.converting ? [] : exportActions.actionsFor(book)),
    {
      label: 'Delete',
      icon: Trash2,
      danger: true,
      onSelect: () => deleteFlow.ask({ id: book.id, title: book.title, audiobook: true }),
    },
  ];

  const error = jobs.error
    ? errorMessage(jobs.error, 'Your books could not be loaded. Check your connection and reload the page.')
    : recent.error
      ? errorMessage(recent.error, 'Your listening progress could not be loaded. Reload the page to try again.')
      : null;

  return (
    <Page title="Library">
      {error && <Alert>{error}</Alert>}
      {deleted && <Alert tone="success">{`Deleted "${deleted}" from your library.`}</Alert>}
      {player.error && player.currentJobId && !jobs.isLoading && <Alert>{player.error}</Alert>}
      {/* Each book shows its listening progress: wait for it too, so bars never jump from 0. */}
      {jobs.isLoading || recent.isPending ? (
        <Spinner label="Loading..." />
      ) : jobs.error ? null : books.length === 0 ? (
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
                    status={book.status}
                    progress={book.converting || book.finished ? undefined : book.progress}
                    href={paths.libraryBook(book.id)}
                    action={primaryAction(book, playStateOf(book.id))}
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
