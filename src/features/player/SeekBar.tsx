import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import styled from 'styled-components';
import { formatClock } from '../../entities/time';
import { isChapterReady, isPartlyPlayable, playableSeconds, type ChapterInfo } from './chapters';
import { jumpToChapter, nextChapter, previousChapter, seek } from './controls';

/** Seek bar keys: ←/→ move this many seconds. */
const SEEK_KEY_SECONDS = 5;

const Track = styled.div`
  position: relative;
  flex: 1;
  min-width: 140px;
  height: 28px;
  cursor: pointer;
  touch-action: none;
  border-radius: ${({ theme }) => theme.radii.pill};
  &[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.6;
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const Rail = styled.div`
  position: absolute;
  left: 0;
  right: 0;
  top: 10px;
  height: 8px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.border};
  overflow: hidden;
`;

const Fill = styled.div`
  position: absolute;
  left: 0;
  top: 0;
  bottom: 0;
  background: ${({ theme }) => theme.colors.primary};
`;

/** A chapter still converting, or the part of the book not converted yet: striped, not playable. */
const NotReady = styled.div`
  position: absolute;
  top: 0;
  bottom: 0;
  background: repeating-linear-gradient(
    135deg,
    ${({ theme }) => theme.colors.border} 0 4px,
    ${({ theme }) => theme.colors.textMuted} 4px 6px
  );
`;

const Tick = styled.div`
  position: absolute;
  top: 6px;
  width: 2px;
  height: 16px;
  margin-left: -1px;
  background: ${({ theme }) => theme.colors.textMuted};
  pointer-events: none;
`;

const Thumb = styled.div`
  position: absolute;
  top: 6px;
  width: 16px;
  height: 16px;
  margin-left: -8px;
  border-radius: 50%;
  background: ${({ theme }) => theme.colors.primary};
  border: 2px solid ${({ theme }) => theme.colors.surface};
  box-shadow: 0 0 0 1px ${({ theme }) => theme.colors.primary};
  pointer-events: none;
`;

interface SeekBarProps {
  position: number;
  duration: number;
  chapters: readonly ChapterInfo[];
  /**
   * The rail's length in seconds when it is longer than `duration`: a book still converting
   * spans its estimated length, and the part past what can be played is striped.
   */
  scale?: number;
  disabled: boolean;
  /** The time under the pointer while dragging (null when not dragging), for the clock. */
  onDrag: (position: number | null) => void;
}

const percent = (value: number, length: number) =>
  `${length > 0 ? (Math.min(Math.max(value, 0), length) / length) * 100 : 0}%`;

/** A striped part of the bar: what of a chapter is not converted yet (seconds in the book). */
interface Stripe {
  chapter: ChapterInfo;
  start: number;
  end: number;
}

/**
 * The chapters' parts not converted yet: a chapter not ready from its start (or, when its opening
 * plays, from the opening's end) to where the next chapter starts (the last one: to the end of
 * what can be played, past which the whole rest is striped).
 */
function stripesOf(chapters: readonly ChapterInfo[], duration: number): Stripe[] {
  return chapters.flatMap((chapter, index) => {
    if (isChapterReady(chapter)) return [];
    const start = chapter.start + playableSeconds(chapter);
    const end = Math.max(chapters[index + 1]?.start ?? duration, chapter.start + chapter.duration);
    return [{ chapter, start, end }];
  });
}

/**
 * The seek bar: a slider with a tick at each chapter start and what still converts striped (the
 * chapters not ready, and while a book converts, the rest of it past what can be played).
 * Dragging shows the time and seeks on release; ←/→ 5 s, PageUp/PageDown a chapter, Home/End the
 * start and the end.
 */
export function SeekBar({ position, duration, chapters, scale = 0, disabled, onDrag }: SeekBarProps) {
  const track = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<number | null>(null);
  // Read by the pointer handlers, which may run before React renders the new drag state.
  const dragging = useRef<number | null>(null);
  const shown = drag ?? position;
  const length = Math.max(duration, scale);

  const timeAt = (clientX: number) => {
    const rect = track.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return position;
    return (Math.min(Math.max(clientX - rect.left, 0), rect.width) / rect.width) * length;
  };
  const moveTo = (value: number | null) => {
    dragging.current = value;
    setDrag(value);
    onDrag(value);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (disabled || event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.currentTarget.focus();
    moveTo(timeAt(event.clientX));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current !== null) moveTo(timeAt(event.clientX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current === null) return;
    const target = timeAt(event.clientX);
    moveTo(null);
    seekReady(target);
  };
  const onPointerCancel = () => moveTo(null);

  const stripes = stripesOf(chapters, duration);

  /** A position in a striped part (not converted yet) does nothing. */
  const seekReady = (value: number) => {
    if (value > duration + 0.001) return;
    if (stripes.some((stripe) => value > stripe.start + 0.001 && value < stripe.end)) return;
    seek(value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled || event.altKey || event.ctrlKey || event.metaKey) return;
    switch (event.key) {
      case 'ArrowLeft':
      case 'ArrowDown':
        seek(position - SEEK_KEY_SECONDS);
        break;
      case 'ArrowRight':
      case 'ArrowUp':
        seekReady(Math.min(position + SEEK_KEY_SECONDS, duration));
        break;
      case 'PageUp':
        nextChapter();
        break;
      case 'PageDown':
        previousChapter();
        break;
      case 'Home':
        if (chapters[0]) jumpToChapter(chapters[0].id);
        else seek(0);
        break;
      case 'End':
        seekReady(duration);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <Track
      ref={track}
      role="slider"
      aria-label="Seek"
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(Math.min(shown, duration))}
      aria-valuetext={`${formatClock(shown)} of ${formatClock(duration)}`}
      aria-disabled={disabled || undefined}
      tabIndex={disabled ? -1 : 0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onLostPointerCapture={onPointerCancel}
      onKeyDown={onKeyDown}
      data-testid="seek-bar"
    >
      <Rail>
        <Fill style={{ width: percent(shown, length) }} />
        {stripes.map(({ chapter, start, end }) => (
          <NotReady
            key={chapter.id}
            data-testid="chapter-not-ready"
            title={`${chapter.title}: ${isPartlyPlayable(chapter) ? 'the rest is not' : 'not'} ready yet`}
            style={{ left: percent(start, length), width: percent(Math.max(Math.min(end, length) - start, 0), length) }}
          />
        ))}
        {length > duration && (
          <NotReady
            data-testid="not-converted"
            title="Not converted yet"
            style={{ left: percent(duration, length), width: percent(length - duration, length) }}
          />
        )}
      </Rail>
      {chapters
        .filter((chapter) => chapter.start > 0 && chapter.start < duration)
        .map((chapter) => (
          <Tick key={chapter.id} data-testid="chapter-marker" style={{ left: percent(chapter.start, length) }} />
        ))}
      {!disabled && <Thumb style={{ left: percent(shown, length) }} />}
    </Track>
  );
}
