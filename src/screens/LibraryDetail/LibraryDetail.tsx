import styled from 'styled-components';
import { Link } from 'wouter';
import { ApiError, errorMessage } from '../../api/errors';
import { Alert, Badge, Button, ButtonLink, Page, Spinner } from '../../components/ui';
import { paths } from '../../lib/paths';
import { formatClock } from '../../entities/time';
import { useEnvironment } from '../../features/environment';
import { bookTitle, chapterCount, isActiveStatus, jobDuration } from '../../entities/job';
import { isFinished } from '../../entities/progress';
import { ChapterList, Player, ReadAlong, togglePlayback, usePlayer, usePlayerMetadata } from '../../features/player';
import { AskAboutBook, Previously } from '../../features/voice-assistant';
import { DownloadMenu } from '../../features/exports';
import { PodcastFeedButton } from '../../features/podcast-feeds';
import { BookPronunciations } from '../../features/pronunciations';
import { BookCast } from '../../features/cast';
import { BookCover, VoiceBadge } from '../../components/book';
import { useBookPage } from './book-page';
import { BookDetails, durationText } from './BookDetails';
import { OnThisDevice, useOnThisDevice } from './OnThisDevice';

const NOT_READY = 'Book not found or not ready for playback';

/** Cover and player side by side on wide screens; on a phone the cover sits above the player. */
const Top = styled.div`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr);
  gap: ${({ theme }) => theme.space(8)};
  align-items: start;
  margin-bottom: ${({ theme }) => theme.space(6)};
  @media (max-width: ${({ theme }) => theme.breakpoints.nav}) {
    grid-template-columns: 1fr;
    gap: ${({ theme }) => theme.space(4)};
    justify-items: stretch;
    > :first-child {
      justify-self: center;
      width: min(60%, 15rem);
    }
  }
`;

const Column = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
  min-width: 0;
`;

const Author = styled.p`
  margin: -${({ theme }) => theme.space(1)} 0 0;
  font-family: ${({ theme }) => theme.fonts.book};
  font-size: ${({ theme }) => theme.fontSizes.lg};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Facts = styled.p`
  margin: 0;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => `${theme.space(1)} ${theme.space(4)}`};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/**
 * Below the player: on wide screens the chapters (about eight rows, scrolling inside) beside the
 * read-along; on a phone the read-along first, right under the player, then the chapters.
 */
const Reading = styled.div`
  display: grid;
  grid-template-columns: minmax(240px, 1fr) minmax(0, 2fr);
  grid-template-areas: 'chapters text';
  gap: ${({ theme }) => theme.space(6)};
  align-items: start;
  margin-bottom: ${({ theme }) => theme.space(6)};
  > [data-area='text'] {
    grid-area: text;
    /* The read-along and the Pronunciations card below it, apart like the page's other blocks. */
    display: flex;
    flex-direction: column;
    gap: ${({ theme }) => theme.space(6)};
    min-width: 0;
  }
  > [data-area='chapters'] {
    grid-area: chapters;
  }
  @media (max-width: ${({ theme }) => theme.breakpoints.nav}) {
    grid-template-columns: 1fr;
    grid-template-areas: 'text' 'chapters';
  }
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
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
`;

const Back = styled.p`
  margin: ${({ theme }) => theme.space(4)} 0 0;
`;

/** Offline, a book not kept on this device: it plays once the connection is back. */
function NeedsConnection() {
  return (
    <Page title="Not on this device">
      <Alert tone="info">This book is not kept on this device, so it needs a connection to play.</Alert>
      <Back>
        <ButtonLink href={paths.library()}>Back to Library</ButtonLink>
      </Back>
    </Page>
  );
}

/** The book's read-along, with who speaks each quote when it was converted with a full cast. */
function BookText({ jobId, cast }: { jobId: string; cast: boolean }) {
  return (
    <BookCast jobId={jobId} cast={cast}>
      {(speakers) => <ReadAlong jobId={jobId} speakers={speakers} />}
    </BookCast>
  );
}

/** The book page: cover and player first, then the read-along and the chapters, details folded away. */
export function LibraryDetail({ jobId }: { jobId: string }) {
  const { job, ready, bookOfChapter, savedPlace, listeningAgain, startOver, recap, dismissRecap } = useBookPage(jobId);
  const player = usePlayer();
  const playerMetadata = usePlayerMetadata();
  const environment = useEnvironment();
  const { online, keptHere } = useOnThisDevice(jobId);

  if (!online && !job.data && !keptHere) return <NeedsConnection />;
  if (job.isLoading || bookOfChapter !== null) return <Spinner label="Loading..." />;
  if (job.data && !ready && isActiveStatus(job.data.status)) {
    return (
      <Page title={bookTitle(job.data)}>
        <Top>
          <BookCover jobId={jobId} title={bookTitle(job.data)} />
          <Column>
            <Alert tone="info">{`Converting (${Math.round(job.data.progress)}%): the first chapter plays here as soon as it is ready.`}</Alert>
            <div>
              <ButtonLink href={paths.job(jobId)}>See the conversion</ButtonLink>
            </div>
          </Column>
        </Top>
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
  const demoMode = environment?.features.demo_mode ?? false;
  const loaded = player.currentJobId === jobId ? player : null;
  const metadata = loaded ? playerMetadata : null;
  const chapters = metadata?.chapters.length || chapterCount(book);
  const duration = metadata?.duration || jobDuration(book);
  // While it converts, only the ready chapters' length is known: the whole book's is an estimate.
  const estimate = isActiveStatus(book.status) ? (metadata?.estimated_duration ?? 0) : 0;
  const position = loaded ? Math.floor(loaded.currentPosition) : 0;
  // The saved place is at the end (docs/product.md#library-detail): offer to start over.
  const finished = isFinished(savedPlace, duration);
  const settled = Boolean(loaded && !loaded.isLoading && !loaded.isPlaying);
  // What speaks it: the engine that did (its chapters', while it converts), as every badge says.
  const voiceJob = {
    config: book.config,
    result_data: { tts_engine: metadata?.tts_engine ?? book.result_data.tts_engine },
  };

  return (
    <Page title={title}>
      <Top>
        <BookCover jobId={jobId} title={title} />
        <Column>
          {book.config.author && <Author>{book.config.author}</Author>}
          <Facts>
            <VoiceBadge job={voiceJob} demoMode={demoMode} />
            <span>{chapters === 1 ? '1 chapter' : `${chapters} chapters`}</span>
            <span>{durationText(duration, estimate)}</span>
            {finished && <Badge tone="success">Finished</Badge>}
          </Facts>
          {recap && settled && !finished && (
            <Previously
              recap={recap}
              onResume={() => {
                dismissRecap();
                void togglePlayback(jobId);
              }}
            />
          )}
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
          <OnThisDevice jobId={jobId} title={title} finished={book.status === 'COMPLETED'} />
          <Actions>
            {book.status === 'COMPLETED' && online && (
              <>
                {/* The assistant talks about finished books: not one still converting. */}
                <AskAboutBook jobId={jobId} position={position} />
                <DownloadMenu jobId={jobId} title={title} />
                <PodcastFeedButton jobId={jobId} title={title} />
              </>
            )}
            <Link href={paths.library()}>Back to Library</Link>
          </Actions>
        </Column>
      </Top>
      <Reading>
        <div data-area="text">
          <BookText jobId={jobId} cast={book.config.voice_config?.cast === true} />
          <BookPronunciations jobId={jobId} finished={book.status === 'COMPLETED'} />
        </div>
        <div data-area="chapters">
          <ChapterList />
        </div>
      </Reading>
      <BookDetails
        book={book}
        metadata={metadata}
        voice={voiceJob}
        demoMode={demoMode}
        duration={duration}
        estimate={estimate}
      />
    </Page>
  );
}
