import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { ApiError, errorMessage } from '../../api/errors';
import { Alert, Badge, Button, ButtonLink, Card, Disclosure, Page, Spinner } from '../../components/ui';
import { paths } from '../../lib/paths';
import { formatBytes, formatClock, formatDate, formatDateTime, formatDuration } from '../../entities/time';
import { jobProvider, providerLabel } from '../../entities/provider';
import { useEnvironment } from '../../features/environment';
import { bookTitle, chapterCount, isActiveStatus, isListenable, jobDuration, shortId } from '../../entities/job';
import { usePolledJob } from '../../features/jobs';
import { isFinished } from '../../entities/progress';
import {
  ChapterList,
  listenAgain,
  loadJob,
  Player,
  playerState,
  ReadAlong,
  usePlayer,
  useSavedProgress,
} from '../../features/player';
import { AskAboutBook } from '../../features/voice-assistant';
import { BookPronunciations } from '../../features/voices';
import { BookCover, VoiceBadge } from '../../components/book';

const NOT_READY = 'Book not found or not ready for playback';

const Facts = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(6)};
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(4)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Layout = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 2fr) minmax(240px, 1fr);
  gap: ${({ theme }) => theme.space(6)};
  align-items: start;
  @media (max-width: ${({ theme }) => theme.breakpoints.nav}) {
    grid-template-columns: 1fr;
  }
`;

const Column = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(6)};
`;

const Details = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: auto 1fr;
  gap: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
`;

const CardTitle = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.lg};
`;

const Resume = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Finished = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
`;

const Back = styled.p`
  margin: ${({ theme }) => theme.space(4)} 0 0;
`;

/** The book page: details, the player (loaded on arrival, resuming the saved place) and chapters. */
export function LibraryDetail({ jobId }: { jobId: string }) {
  // Polled while the book converts: its page turns into the player as soon as chapter 1 is ready.
  const job = usePolledJob(jobId);
  const player = usePlayer();
  const environment = useEnvironment();
  // A finished book, or one still converting whose first chapters can be played already.
  const ready = job.data
    ? isListenable({
        status: job.data.status,
        chapters_ready: job.data.children.filter((c) => c.status === 'COMPLETED').length,
      })
    : false;
  // The saved place comes from the data cache, which the player updates on every save.
  const savedPlace = useSavedProgress(jobId, { enabled: ready }).data;
  // The book the reader started over on this page (its saved place is then 0:00).
  const [restartedId, setRestartedId] = useState<string | null>(null);
  const listeningAgain = restartedId === jobId;

  useEffect(() => {
    // A book already loaded (say, playing from the library) keeps playing where it is.
    if (ready && playerState.currentJobId !== jobId) void loadJob(jobId);
  }, [ready, jobId]);

  if (job.isLoading) return <Spinner label="Loading..." />;
  if (job.data && !ready && isActiveStatus(job.data.status)) {
    return (
      <Page title={bookTitle(job.data)}>
        <Alert tone="info">{`Converting (${Math.round(job.data.progress)}%): the first chapter plays here as soon as it is ready.`}</Alert>
        <Back>
          <ButtonLink href={paths.job(jobId)}>See the conversion</ButtonLink>
        </Back>
      </Page>
    );
  }
  if (!job.data || !ready) {
    // No such book (404, or 422 for an address that is not a job id) reads as docs/product.md#library-detail says,
    // never as a validation message; a known job keeps its own title.
    const missing = job.error instanceof ApiError && job.error.notFound;
    const message = job.error && !missing ? errorMessage(job.error, NOT_READY) : NOT_READY;
    return (
      <Page title={job.data ? bookTitle(job.data) : 'Book not found'}>
        <Alert>{message}</Alert>
        <Back>
          <ButtonLink href={paths.library()}>Back to Library</ButtonLink>
        </Back>
      </Page>
    );
  }

  const book = job.data;
  const title = bookTitle(book);
  const provider = jobProvider(book);
  const demoMode = environment?.features.demo_mode ?? false;
  const loaded = player.currentJobId === jobId ? player : null;
  const metadata = loaded?.metadata ?? null;
  const chapters = metadata?.chapters.length || chapterCount(book);
  const duration = metadata?.duration || jobDuration(book);
  const position = loaded ? Math.floor(loaded.currentPosition) : 0;
  // The saved place is at the end (docs/product.md#library-detail): offer to start over.
  const finished = isFinished(savedPlace, duration);
  const settled = Boolean(loaded && !loaded.isLoading && !loaded.isPlaying);
  const startOver = () => {
    setRestartedId(jobId);
    void listenAgain(jobId);
  };

  return (
    <Page title={title}>
      <Facts>
        <VoiceBadge job={book} demoMode={demoMode} />
        <span>{chapters === 1 ? '1 chapter' : `${chapters} chapters`}</span>
        <span>{`Added ${formatDate(book.created_at)}`}</span>
        <span>{formatDuration(duration)}</span>
        {finished && <Badge tone="success">Finished</Badge>}
      </Facts>
      <Layout>
        <Column>
          <Player title={`Player: ${title}`} />
          {settled && finished ? (
            <Finished>
              <Resume>You finished this book.</Resume>
              <Button onClick={startOver}>Listen again</Button>
            </Finished>
          ) : listeningAgain ? (
            <Resume role="status">You finished this book: listening again from the start.</Resume>
          ) : (
            settled &&
            (savedPlace?.position_seconds ?? 0) > 0 && (
              <Resume>{`Resuming from ${formatClock(savedPlace?.position_seconds ?? 0)}`}</Resume>
            )
          )}
          <ChapterList />
          <ReadAlong jobId={jobId} />
          <BookPronunciations jobId={jobId} finished={book.status === 'COMPLETED'} />
          <Actions>
            <AskAboutBook jobId={jobId} position={position} />
            <Link href={paths.library()}>Back to Library</Link>
          </Actions>
        </Column>
        <Column>
          <BookCover jobId={jobId} title={title} />
          <Card aria-labelledby="audio-details">
            <CardTitle id="audio-details">Audio Details</CardTitle>
            <Details>
              <dt>Format</dt>
              <dd>{(metadata?.format ?? book.result_data.format ?? 'mp3').toUpperCase()}</dd>
              <dt>Duration</dt>
              <dd>{formatDuration(duration)}</dd>
              <dt>File size</dt>
              <dd>{formatBytes(metadata?.file_size ?? book.result_data.file_size_bytes)}</dd>
              <dt>Engine</dt>
              <dd>{metadata?.tts_engine ?? book.result_data.tts_engine ?? providerLabel[provider]}</dd>
              <dt>Sample rate</dt>
              <dd>
                {metadata?.sample_rate
                  ? `${(metadata.sample_rate / 1000).toFixed(metadata.sample_rate % 1000 ? 2 : 0)} kHz`
                  : '—'}
              </dd>
            </Details>
          </Card>
          <Disclosure summary="Technical details">
            <Details>
              <dt>Job ID</dt>
              <dd>{shortId(book.id)}</dd>
              <dt>Created</dt>
              <dd>{formatDateTime(book.created_at)}</dd>
              <dt>Completed</dt>
              <dd>{formatDateTime(book.completed_at)}</dd>
            </Details>
          </Disclosure>
        </Column>
      </Layout>
    </Page>
  );
}
