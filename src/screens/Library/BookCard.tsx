import styled from 'styled-components';
import { Link } from 'wouter';
import { Badge, Button, ProgressBar } from '../../components/ui';
import { paths } from '../../lib/paths';
import { formatDate, formatDuration } from '../../entities/time';
import { BookCover, VoiceBadge } from '../../components/book';
import { useEnvironment } from '../../features/environment';
import { type LibraryBook, type LibraryView } from '../../features/library';
import { BookActionsMenu } from '../../features/exports';

const Item = styled.li<{ $view: LibraryView }>`
  display: flex;
  flex-direction: ${({ $view }) => ($view === 'grid' ? 'column' : 'row')};
  align-items: ${({ $view }) => ($view === 'grid' ? 'stretch' : 'center')};
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadow};
`;

const Main = styled.div`
  flex: 1;
  min-width: 200px;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(2)};
`;

const Title = styled.h2`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.lg};
  a {
    color: ${({ theme }) => theme.colors.text};
  }
`;

const Facts = styled.p`
  margin: 0;
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

export type PlayState = 'playing' | 'paused' | 'idle';

const Buttons = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(2)};
`;

/** One book: its cover, title (linking to its page), voice, date, duration, chapters, progress, Play and Delete. */
export function BookCard({
  book,
  view,
  playState,
  onToggle,
  onListenAgain,
  onDelete,
}: {
  book: LibraryBook;
  view: LibraryView;
  playState: PlayState;
  onToggle: () => void;
  /** Starts a finished book over from 0:00. */
  onListenAgain: () => void;
  /** Asks to delete the book (the screen confirms first). */
  onDelete: () => void;
}) {
  // A finished book says so instead of a percentage, and offers to start over instead of Continue.
  // A book still converting is never finished: its later chapters are yet to come.
  const demoMode = useEnvironment()?.features.demo_mode ?? false;
  const finished = book.finished && !book.converting && playState !== 'playing';
  const action = playState === 'playing' ? 'Pause' : book.hasProgress || playState === 'paused' ? 'Continue' : 'Play';
  return (
    <Item $view={view} aria-labelledby={`book-${book.id}`}>
      <BookCover jobId={book.id} title={book.title} size={view === 'grid' ? 'card' : 'thumb'} />
      <Main>
        <Title id={`book-${book.id}`}>
          <Link href={paths.libraryBook(book.id)}>{book.title}</Link>
        </Title>
        <Facts>
          <VoiceBadge
            job={{ config: { provider: book.ttsProvider }, result_data: { tts_engine: book.ttsEngine } }}
            demoMode={demoMode}
          />
          <span>{formatDate(book.createdAt)}</span>
          <span>{formatDuration(book.duration)}</span>
          <span>{book.chapters === 1 ? '1 chapter' : `${book.chapters} chapters`}</span>
        </Facts>
        {book.converting ? (
          <Badge tone="info">{book.converting}</Badge>
        ) : finished ? (
          <Badge tone="success">Finished</Badge>
        ) : (
          <ProgressBar value={book.progress} label={`Listening progress of ${book.title}`} />
        )}
      </Main>
      <Buttons>
        {finished ? (
          <Button variant="primary" onClick={onListenAgain} aria-label={`Listen again to ${book.title}`}>
            Listen again
          </Button>
        ) : (
          <Button
            variant={playState === 'playing' ? 'secondary' : 'primary'}
            onClick={onToggle}
            aria-label={`${action} ${book.title}`}
          >
            {action}
          </Button>
        )}
        <Button variant="secondary" onClick={onDelete} aria-label={`Delete ${book.title}`}>
          Delete
        </Button>
        {!book.converting && <BookActionsMenu jobId={book.id} title={book.title} />}
      </Buttons>
    </Item>
  );
}
