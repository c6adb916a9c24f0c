import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import styled from 'styled-components';
import { formatClock } from '../../entities/time';
import { isChapterReady, type ChapterInfo } from './chapters';
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

/** A chapter still converting: striped, not playable. */
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
  disabled: boolean;
  /** The time under the pointer while dragging (null when not dragging), for the clock. */
  onDrag: (position: number | null) => void;
}

const percent = (value: number, duration: number) =>
  `${duration > 0 ? (Math.min(Math.max(value, 0), duration) / duration) * 100 : 0}%`;

/**
 * The seek bar: a slider with a tick at each chapter start and the chapters that still convert
 * striped. Dragging shows the time and seeks on release; ←/→ 5 s, PageUp/PageDown a chapter,
 * Home/End the start and the end.
 */
export function SeekBar({ position, duration, chapters, disabled, onDrag }: SeekBarProps) {
  const track = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<number | null>(null);
  // Read by the pointer handlers, which may run before React renders the new drag state.
  const dragging = useRef<number | null>(null);
  const shown = drag ?? position;

  const timeAt = (clientX: number) => {
    const rect = track.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return position;
    return (Math.min(Math.max(clientX - rect.left, 0), rect.width) / rect.width) * duration;
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

  /** A position inside a chapter that is not converted yet goes to that chapter's start instead. */
  const seekReady = (value: number) => {
    const inside = [...chapters].reverse().find((chapter) => chapter.start <= value);
    if (inside && !isChapterReady(inside)) return;
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
        <Fill style={{ width: percent(shown, duration) }} />
        {chapters.map((chapter, index) => {
          if (isChapterReady(chapter)) return null;
          const end =
            chapter.duration > 0 ? chapter.start + chapter.duration : (chapters[index + 1]?.start ?? duration);
          const left = percent(chapter.start, duration);
          const width =
            duration > 0 ? `${(Math.max(Math.min(end, duration) - chapter.start, 0) / duration) * 100}%` : '0%';
          return (
            <NotReady
              key={chapter.id}
              data-testid="chapter-not-ready"
              title={`${chapter.title}: not ready yet`}
              style={{ left, width }}
            />
          );
        })}
      </Rail>
      {chapters
        .filter((chapter) => chapter.start > 0 && chapter.start < duration)
        .map((chapter) => (
          <Tick key={chapter.id} data-testid="chapter-marker" style={{ left: percent(chapter.start, duration) }} />
        ))}
      {!disabled && <Thumb style={{ left: percent(shown, duration) }} />}
    </Track>
  );
}
