import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useGetRecentProgress } from '../../api/gen/endpoints/progress';
import type { JobSummaryOutput } from '../../api/gen/model';
import { BookTile, type TileAction } from '../../components/book';
import { Spinner } from '../../components/ui';
import { bookTitle, isListenable, jobDuration, jobProgress, readyText } from '../../entities/job';
import { formatDuration, formatTimeLeft } from '../../entities/time';
import { POLL_MS, usePolledJobs } from '../../features/jobs';
// Not the player's index: the home's first load carries the state only, the controls come on first use.
import { playOrPause, usePlaybackState } from '../../features/player/remote';
import { paths } from '../../lib/paths';

/** How many books a shelf shows (docs/product.md#dashboard). */
const SHELF_SIZE = 8;

const Section = styled.section`
  margin-bottom: ${({ theme }) => theme.space(8)};
`;

const Head = styled.div`
  display: flex;
  align-items: baseline;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(3)};
  h2 {
    margin: 0;
    font-family: ${({ theme }) => theme.fonts.book};
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }
`;

/** A row of covers that scrolls sideways when it holds more than fit. */
const Row = styled.ul`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: ${({ theme }) => `calc(8.5rem + ${theme.space(1)})`};
  gap: ${({ theme }) => theme.space(4)};
  margin: 0;
  padding: ${({ theme }) => `${theme.space(1)} ${theme.space(1)} ${theme.space(3)}`};
  overflow-x: auto;
  overscroll-behavior-x: contain;
  scroll-snap-type: x proximity;
  > li {
    scroll-snap-align: start;
  }
`;

function Shelf({ id, title, more, children }: { id: string; title: string; more?: ReactNode; children: ReactNode }) {
  return (
    <Section aria-labelledby={id}>
      <Head>
        <h2 id={id}>{title}</h2>
        {more}
      </Head>
      {children}
    </Section>
  );
}

/** Play from the saved place, right here (the mini-player takes over); Pause while it plays. */
function usePlayAction() {
  const player = usePlaybackState();
  return (id: string, title: string, verb = 'Play'): TileAction =>
    player.currentJobId === id && player.isPlaying
      ? { kind: 'pause', label: `Pause ${title}`, onClick: () => void playOrPause(id) }
      : {
          kind: 'play',
          label: `${player.currentJobId === id && player.ready ? 'Continue' : verb} ${title}`,
          onClick: () => void playOrPause(id),
        };
}

/**
 * Continue listening: the books the reader started and has not finished, last played first, each
 * with a play button that resumes it from the saved place without leaving the page.
 */
function ContinueListening({ intervalMs }: { intervalMs: number }) {
  const recent = useGetRecentProgress({ limit: 20 }, { query: { retry: false, refetchInterval: intervalMs * 6 } });
  const action = usePlayAction();
  const started = (recent.data ?? []).filter((record) => !record.is_completed).slice(0, SHELF_SIZE);
  if (recent.isLoading || started.length === 0) return null;
  return (
    <Shelf id="continue-listening" title="Continue listening">
      <Row aria-label="Continue listening books">
        {started.map((record) => {
          const title = bookTitle({ id: record.job_id, title: record.job_title ?? '' });
          const left = (record.duration_seconds ?? 0) - record.position_seconds;
          return (
            <BookTile
              key={record.job_id}
              jobId={record.job_id}
              title={title}
              status={left > 0 ? `${formatTimeLeft(left)} left` : 'Continue'}
              progress={record.percentage_complete}
              href={paths.libraryBook(record.job_id)}
              action={action(record.job_id, title)}
              headingLevel={3}
            />
          );
        })}
      </Row>
    </Shelf>
  );
}

/** Recently added: the newest books that can be played, finished or with chapters ready. */
function RecentlyAdded({ books, loading }: { books: readonly JobSummaryOutput[]; loading: boolean }) {
  const action = usePlayAction();
  if (loading) return <Spinner label="Loading your books..." />;
  if (books.length === 0) return null;
  return (
    <Shelf id="recently-added" title="Recently added">
      <Row aria-label="Recently added books">
        {books.slice(0, SHELF_SIZE).map((job) => {
          const title = bookTitle(job);
          return (
            <BookTile
              key={job.id}
              jobId={job.id}
              title={title}
              author={job.config.author}
              status={formatDuration(jobDuration(job))}
              href={paths.libraryBook(job.id)}
              action={action(job.id, title)}
              headingLevel={3}
            />
          );
        })}
      </Row>
    </Shelf>
  );
}

/**
 * Converting now: books and texts still being read aloud, with how many chapters are ready and,
 * once the first one is, a Listen button (a book plays while the rest converts).
 */
function ConvertingNow({ active }: { active: boolean }) {
  const running = usePolledJobs(
    { status: 'running', top_level: true, page_size: SHELF_SIZE, sort: 'created_at', order: 'desc' },
    { intervalMs: POLL_MS.dashboard, active },
  );
  const action = usePlayAction();
  const jobs = running.data?.jobs ?? [];
  if (jobs.length === 0) return null;
  return (
    <Shelf id="converting-now" title="Converting now">
      <Row aria-label="Books converting now">
        {jobs.map((job) => {
          const title = bookTitle(job);
          const listenable = isListenable(job);
          const status = readyText(job) ?? `Converting (${Math.round(job.progress)}%)`;
          return (
            <BookTile
              key={job.id}
              jobId={job.id}
              title={title}
              status={status}
              progress={jobProgress(job)}
              href={listenable ? paths.libraryBook(job.id) : paths.job(job.id)}
              action={listenable ? action(job.id, title, 'Listen to') : undefined}
              headingLevel={3}
            />
          );
        })}
      </Row>
    </Shelf>
  );
}

/**
 * The home's shelves, in their order: Continue listening, Converting now, Recently added. A chunk
 * of its own (Dashboard loads it lazily): its code arrives while the shelves' data does.
 */
export default function Shelves({ active }: { active: boolean }) {
  const books = usePolledJobs(
    { status: 'listenable', top_level: true, page_size: SHELF_SIZE, sort: 'created_at', order: 'desc' },
    { intervalMs: POLL_MS.dashboard, active },
  );
  return (
    <>
      <ContinueListening intervalMs={POLL_MS.dashboard} />
      <ConvertingNow active={active} />
      <RecentlyAdded books={books.data?.jobs ?? []} loading={books.isLoading} />
    </>
  );
}
