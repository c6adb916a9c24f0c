import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import Redo2 from 'lucide-react/icons/redo-2';
import Undo2 from 'lucide-react/icons/undo-2';
import styled from 'styled-components';
import { Link, useRoute } from 'wouter';
import { IconButton } from '../../components/ui';
import { formatClock } from '../../entities/time';
import { BookCover } from '../../components/book';
import { paths, routePatterns } from '../../lib/paths';
import { useChapters, usePlayer } from './hooks';
import { skip } from './controls';
import { usePlayerMetadata } from './data';
import { togglePlay } from './media';
import { SKIP_SECONDS } from './settings';
import { ReturnButton } from './ReturnButton';
import { isReady } from './store';

/** Room below the page, so the fixed bar never covers its end (docs/listening.md#mini-player). */
const Spacer = styled.div`
  height: ${({ theme }) => theme.layout.miniPlayer};
`;

const Bar = styled.section`
  container-type: inline-size;
  position: fixed;
  inset: auto 0 0 0;
  z-index: 20;
  /* On a phone it sits right above the bottom navigation. */
  @media (max-width: ${({ theme }) => theme.breakpoints.phone}) {
    bottom: calc(${({ theme }) => theme.layout.bottomNav} + env(safe-area-inset-bottom, 0px));
  }
  background: ${({ theme }) => theme.colors.surface};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  box-shadow: ${({ theme }) => theme.shadowRaised};
`;

const Track = styled.div`
  height: 3px;
  background: ${({ theme }) => theme.tone.neutral.background};
  div {
    height: 100%;
    background: ${({ theme }) => theme.colors.primary};
  }
`;

const Row = styled.div`
  max-width: 1100px;
  margin: 0 auto;
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
`;

const Titles = styled.div`
  flex: 1;
  min-width: 0;
  display: flex;
  flex-direction: column;
  a,
  span {
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
  }
  a {
    font-weight: 600;
    color: ${({ theme }) => theme.colors.text};
    text-decoration: none;
    &:hover {
      text-decoration: underline;
    }
  }
  span {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
`;

const Time = styled.span`
  font-variant-numeric: tabular-nums;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  @container (max-width: 560px) {
    display: none;
  }
`;

/** Back and forward 10 s: on a phone only play/pause stays, beside the cover and the title. */
const Secondary = styled.span`
  display: contents;
  @container (max-width: 560px) {
    display: none;
  }
`;

/**
 * The mini-player: at the bottom of every signed-in page once a book is loaded, so listening goes
 * on (and can be paused) while the reader looks elsewhere. It drives the same store and <audio> as
 * the book page's player, and steps aside on the page of the book it plays, where the full player is.
 */
export function MiniPlayer() {
  const player = usePlayer();
  const { current } = useChapters();
  const [onBookPage, params] = useRoute(routePatterns.libraryBook);
  const jobId = player.currentJobId;
  const metadata = usePlayerMetadata();
  const ready = isReady(player);
  if (!jobId || (!ready && !player.isLoading)) return null;
  if (onBookPage && params?.jobId === jobId) return null;

  const title = metadata?.title ?? 'Loading…';
  const fraction = player.duration > 0 ? Math.min(1, player.currentPosition / player.duration) : 0;
  const chapterTitle = current && current.title !== title ? current.title : null;

  return (
    <>
      <Spacer aria-hidden="true" />
      <Bar aria-label="Now playing">
        <Track
          role="progressbar"
          aria-label="Listening progress"
          aria-valuemin={0}
          aria-valuemax={Math.round(player.duration)}
          aria-valuenow={Math.round(Math.min(player.currentPosition, player.duration))}
          aria-valuetext={`${formatClock(player.currentPosition)} of ${formatClock(player.duration)}`}
        >
          <div style={{ width: `${(fraction * 100).toFixed(2)}%` }} />
        </Track>
        <Row>
          <BookCover jobId={jobId} title={title} size="mini" />
          <Titles>
            <Link href={paths.libraryBook(jobId)} aria-label={`Open ${title}`}>
              {title}
            </Link>
            {player.notice ? <span role="status">{player.notice}</span> : chapterTitle && <span>{chapterTitle}</span>}
          </Titles>
          <ReturnButton />
          <Time aria-hidden="true">{`${formatClock(player.currentPosition)} / ${formatClock(player.duration)}`}</Time>
          <Secondary>
            <IconButton
              label="Back 10 seconds"
              icon={Undo2}
              quiet
              disabled={!ready}
              onClick={() => skip(-SKIP_SECONDS)}
            />
          </Secondary>
          <IconButton
            main
            quiet
            label={player.isPlaying ? 'Pause' : 'Play'}
            icon={player.isPlaying ? Pause : Play}
            disabled={!ready}
            onClick={togglePlay}
          />
          <Secondary>
            <IconButton
              label="Forward 10 seconds"
              icon={Redo2}
              quiet
              disabled={!ready}
              onClick={() => skip(SKIP_SECONDS)}
            />
          </Secondary>
        </Row>
      </Bar>
    </>
  );
}
