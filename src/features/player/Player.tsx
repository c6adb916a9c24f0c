import { useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { Button, Card, Spinner } from '../../components/ui';
import { formatClock } from '../../entities/time';
import { usePlayer } from './hooks';
import {
  changeVolume,
  PLAYBACK_RATES,
  seek,
  setPlaybackRate,
  setVolume,
  skip,
  SKIP_SECONDS,
  togglePlay,
  VOLUME_STEP,
} from './store';

const Region = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const Row = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
`;

const Range = styled.input`
  flex: 1;
  min-width: 120px;
  accent-color: ${({ theme }) => theme.colors.primary};
`;

const Clock = styled.span`
  font-variant-numeric: tabular-nums;
  color: ${({ theme }) => theme.colors.textMuted};
  min-width: 4ch;
`;

const Small = styled.label`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  font-weight: 600;
`;

const Select = styled.select`
  font: inherit;
  padding: ${({ theme }) => `${theme.space(1)} ${theme.space(2)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.textMuted};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
`;

const ErrorText = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.danger};
`;

const Hint = styled.p`
  margin: 0;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const typingTargets = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/**
 * Keyboard shortcuts on the player region: Space play/pause, ←/→ ∓10 s, ↑/↓ volume ±0.1.
 * Controls keep their own keys (a slider's arrows, a button's Space).
 */
function onShortcut(event: KeyboardEvent<HTMLElement>): void {
  const target = event.target as HTMLElement;
  if (typingTargets.has(target.tagName) || target.isContentEditable) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const onButton = target.tagName === 'BUTTON';
  switch (event.key) {
    case ' ':
      if (onButton) return;
      togglePlay();
      break;
    case 'ArrowLeft':
      skip(-SKIP_SECONDS);
      break;
    case 'ArrowRight':
      skip(SKIP_SECONDS);
      break;
    case 'ArrowUp':
      changeVolume(VOLUME_STEP);
      break;
    case 'ArrowDown':
      changeVolume(-VOLUME_STEP);
      break;
    default:
      return;
  }
  event.preventDefault();
}

/** The player for the loaded book (the store's current job). */
export function Player({ title = 'Audio player' }: { title?: string }) {
  const player = usePlayer();
  const [dragValue, setDragValue] = useState<number | null>(null);
  const dragging = useRef(false);
  const hintId = useId();
  const ready = Boolean(player.streamingUrl) && !player.isLoading;
  const shownPosition = dragValue ?? player.currentPosition;
  const volumePercent = `${Math.round(player.volume * 100)}%`;

  const endDrag = () => {
    dragging.current = false;
    if (dragValue !== null) seek(dragValue);
    setDragValue(null);
  };

  return (
    <Region aria-label={title} aria-describedby={hintId} tabIndex={0} onKeyDown={onShortcut}>
      {player.isLoading && <Spinner label="Loading audio..." />}
      {player.error && <ErrorText role="alert">{`Error: ${player.error}`}</ErrorText>}
      <Row>
        <Button onClick={togglePlay} disabled={!ready}>
          {player.isPlaying ? 'Pause' : 'Play'}
        </Button>
        <Button variant="secondary" onClick={() => skip(-SKIP_SECONDS)} disabled={!ready}>
          Back 10s
        </Button>
        <Button variant="secondary" onClick={() => skip(SKIP_SECONDS)} disabled={!ready}>
          Forward 10s
        </Button>
      </Row>
      <Row>
        <Clock role="timer" aria-label="Elapsed time">{formatClock(shownPosition)}</Clock>
        <Range
          type="range"
          aria-label="Seek"
          min={0}
          max={Math.max(player.duration, 0)}
          step={1}
          value={Math.min(shownPosition, player.duration)}
          aria-valuetext={`${formatClock(shownPosition)} of ${formatClock(player.duration)}`}
          disabled={!ready}
          onPointerDown={() => {
            dragging.current = true;
          }}
          onChange={(event) => {
            const value = Number(event.target.value);
            if (dragging.current) setDragValue(value);
            else seek(value);
          }}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onBlur={() => dragging.current && endDrag()}
        />
        <Clock role="timer" aria-label="Total time">{formatClock(player.duration)}</Clock>
      </Row>
      <Row>
        <Small>
          <span aria-hidden="true">Volume</span>
          <Range
            type="range"
            min={0}
            max={1}
            step={VOLUME_STEP}
            value={player.volume}
            aria-label={`Volume ${volumePercent}`}
            aria-valuetext={volumePercent}
            onChange={(event) => setVolume(Number(event.target.value))}
          />
          <output aria-hidden="true">{volumePercent}</output>
        </Small>
        <Small>
          <span aria-hidden="true">Speed</span>
          <Select aria-label="Playback speed" value={String(player.playbackRate)} onChange={(event) => setPlaybackRate(Number(event.target.value))}>
            {PLAYBACK_RATES.map((rate) => (
              <option key={rate} value={String(rate)}>{`${rate}x`}</option>
            ))}
          </Select>
        </Small>
      </Row>
      <Hint id={hintId}>
        Shortcuts: Space play/pause, ←/→ skip 10 seconds, ↑/↓ volume.
      </Hint>
    </Region>
  );
}
