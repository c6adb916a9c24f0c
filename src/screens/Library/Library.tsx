import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { useGetRecentProgress } from '../../api/gen/endpoints/progress/progress';
import { errorMessage } from '../../api/errors';
import { Alert, Button, ButtonLink, Card, Page, SelectField, Spinner, TextField } from '../../components/ui';
import { POLL_MS, useDeleteJobFlow, usePolledJobs } from '../../features/jobs';
import { paths } from '../../lib/paths';
import { formatDuration } from '../../entities/time';
import {
  toLibraryBooks,
  selectBooks,
  summarize,
  filterOptions,
  sortOptions,
  type LibraryFilter,
  type LibrarySort,
  readLibraryView,
  writeLibraryView,
  type LibraryView,
} from '../../features/library';
import { listenAgain, togglePlayback, usePlayer } from '../../features/player';
import { BookCard, type PlayState } from './BookCard';
import { PodcastFeedButton } from '../../features/exports';

/**
 * The library asks for every top-level book that can be played now at once (the API's largest
 * page): finished ones and books still converting with a chapter ready (docs/listening.md).
 */
const LIBRARY_QUERY = { status: 'listenable', top_level: true, page_size: 100 } as const;
const RECENT_QUERY = { limit: 50 } as const;

const Summary = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: ${({ theme }) => theme.space(4)};
  margin-bottom: ${({ theme }) => theme.space(6)};
`;

const Stat = styled(Card)`
  padding: ${({ theme }) => theme.space(4)};
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
    font-weight: 600;
  }
  p {
    margin: ${({ theme }) => theme.space(1)} 0 0;
    font-size: ${({ theme }) => theme.fontSizes.xxl};
    font-weight: 700;
  }
`;

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(5)};
  > :first-child {
    flex: 1;
    min-width: 200px;
  }
`;

const Toggle = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(1)};
`;

const Shelf = styled.ul<{ $view: LibraryView }>`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  grid-template-columns: ${({ $view }) => ($view === 'grid' ? 'repeat(auto-fill, minmax(260px, 1fr))' : '1fr')};
`;

const Empty = styled(Card)`
  text-align: center;
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }
  p {
    margin: 0;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Count = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

export function Library() {
  // A book still converting is in the list: polling shows its chapters becoming ready.
  const jobs = usePolledJobs(LIBRARY_QUERY, { intervalMs: POLL_MS.default });
  const recent = useGetRecentProgress(RECENT_QUERY);
  const player = usePlayer();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<LibraryFilter>('all');
  const [sort, setSort] = useState<LibrarySort>('createdAt');
  const [view, setView] = useState<LibraryView>(() => readLibraryView());
  const deleteFlow = useDeleteJobFlow();
  const { deleted } = deleteFlow;

  // The player writes each saved place into the cached recent list, so it is always the freshest.
  const books = useMemo(() => toLibraryBooks(jobs.data?.jobs ?? [], recent.data ?? []), [jobs.data, recent.data]);
  const shown = useMemo(() => selectBooks(books, { search, filter, sort }), [books, search, filter, sort]);
  const totals = summarize(books);

  const chooseView = (next: LibraryView) => {
    setView(next);
    writeLibraryView(next);
  };
  const clearFilters = () => {
    setSearch('');
    setFilter('all');
  };
  const playStateOf = (id: string): PlayState =>
    player.currentJobId !== id ? 'idle' : player.isPlaying ? 'playing' : player.streamingUrl ? 'paused' : 'idle';

  const error = jobs.error
    ? errorMessage(jobs.error, 'Failed to fetch jobs')
    : recent.error
      ? errorMessage(recent.error, 'Failed to fetch recent progress')
      : null;

  return (
    <Page title="Library" lead="Your finished audiobooks, ready to play from where you left off.">
      {error && <Alert>{error}</Alert>}
      {deleted && <Alert tone="success">{`Deleted "${deleted}" from your library.`}</Alert>}
      {player.error && player.currentJobId && !jobs.isLoading && <Alert>{`Playback failed: ${player.error}`}</Alert>}
      {/* Each book shows its listening progress: wait for it too, so bars never jump from 0. */}
      {jobs.isLoading || recent.isPending ? (
        <Spinner label="Loading..." />
      ) : jobs.error ? null : (
        <>
          <Summary>
            <Stat aria-labelledby="stat-books">
              <h2 id="stat-books">Total Books</h2>
              <p>{totals.total}</p>
            </Stat>
            <Stat aria-labelledby="stat-duration">
              <h2 id="stat-duration">Total Duration</h2>
              <p>{formatDuration(totals.duration)}</p>
            </Stat>
            <Stat aria-labelledby="stat-openai">
              <h2 id="stat-openai">OpenAI</h2>
              <p>{totals.openai}</p>
            </Stat>
            <Stat aria-labelledby="stat-elevenlabs">
              <h2 id="stat-elevenlabs">ElevenLabs</h2>
              <p>{totals.elevenlabs}</p>
            </Stat>
          </Summary>
          <Toolbar>
            <TextField label="Search books" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            <SelectField
              label="Filter"
              value={filter}
              options={filterOptions}
              onChange={(e) => setFilter(e.target.value as LibraryFilter)}
            />
            <SelectField
              label="Sort by"
              value={sort}
              options={sortOptions}
              onChange={(e) => setSort(e.target.value as LibrarySort)}
            />
            <Toggle role="group" aria-label="View">
              <Button variant="secondary" aria-pressed={view === 'grid'} onClick={() => chooseView('grid')}>
                Grid
              </Button>
              <Button variant="secondary" aria-pressed={view === 'list'} onClick={() => chooseView('list')}>
                List
              </Button>
            </Toggle>
            {books.length > 0 && <PodcastFeedButton title="Your library" label="Library as a podcast" />}
            <ButtonLink variant="primary" href={paths.upload()}>
              Add New Book
            </ButtonLink>
          </Toolbar>
          {books.length === 0 ? (
            <Empty as="div">
              <h2>Your library is empty</h2>
              <p>Finished audiobooks appear here. Turn a story into your first one.</p>
              <ButtonLink variant="primary" href={paths.upload()}>
                Upload Your First Story
              </ButtonLink>
            </Empty>
          ) : shown.length === 0 ? (
            <Empty as="div">
              <h2>No books match your filters</h2>
              <p>Try another search or filter.</p>
              <Button onClick={clearFilters}>Clear Filters</Button>
            </Empty>
          ) : (
            <>
              <Count role="status">{shown.length === 1 ? '1 book' : `${shown.length} books`}</Count>
              <Shelf $view={view} aria-label="Books" data-view={view}>
                {shown.map((book) => (
                  <BookCard
                    key={book.id}
                    book={book}
                    view={view}
                    playState={playStateOf(book.id)}
                    onToggle={() => void togglePlayback(book.id)}
                    onListenAgain={() => void listenAgain(book.id)}
                    onDelete={() => deleteFlow.ask({ id: book.id, title: book.title, audiobook: true })}
                  />
                ))}
              </Shelf>
            </>
          )}
        </>
      )}
      {deleteFlow.dialog}
    </Page>
  );
}
