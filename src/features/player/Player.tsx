import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import Redo2 from 'lucide-react/icons/redo-2';
import SkipBack from 'lucide-react/icons/skip-back';
import SkipForward from 'lucide-react/icons/skip-forward';
import Undo2 from 'lucide-react/icons/undo-2';
import Volume2 from 'lucide-react/icons/volume-2';
import VolumeX from 'lucide-react/icons/volume-x';
import Moon from 'lucide-react/icons/moon';
import Gauge from 'lucide-react/icons/gauge';
import { useState } from 'react';
import styled from 'styled-components';
import { useSnapshot } from 'valtio';
import { Card, IconButton, Spinner } from '../../components/ui';
import { formatClock } from '../../entities/time';
import { ChoiceMenu, type Choice } from './ChoiceMenu';
import { useChapters, usePlayer } from './hooks';
import { SeekBar } from './SeekBar';
import { PLAYER_REGION_ATTRIBUTE, PLAYER_SHORTCUTS } from './shortcuts';
import { isChapterPlayable } from './chapters';
import { usePlayerMetadata } from './data';
import { nextChapter, previousChapter, setPlaybackRate, setVolume, skip, toggleMute } from './controls';
import { togglePlay } from './media';
import { PLAYBACK_RATES, SKIP_SECONDS, SLEEP_MINUTES, VOLUME_STEP } from './settings';
import { cancelSleepTimer, startSleepTimer } from './sleep';
import { connection, isReady } from './store';
import { ReturnButton } from './ReturnButton';

const Region = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const Row = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

const Transport = styled(Row)`
  justify-content: center;
`;

const Clock = styled.span`
  font-variant-numeric: tabular-nums;
  color: ${({ theme }) => theme.colors.textMuted};
  min-width: 4ch;
`;

const VolumeGroup = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(1)};
  flex: 1 1 160px;
  min-width: 160px;
`;

/** The volume: a range input, styled (track filled up to the value). */
const VolumeRange = styled.input`
  flex: 1;
  min-width: 80px;
  height: 24px;
  background: transparent;
  appearance: none;
  cursor: pointer;
  &::-webkit-slider-runnable-track {
    height: 6px;
    border-radius: 999px;
    background: linear-gradient(
      to right,
      ${({ theme }) => theme.colors.primary} var(--filled),
      ${({ theme }) => theme.colors.border} var(--filled)
    );
  }
  &::-webkit-slider-thumb {
    appearance: none;
    width: 16px;
    height: 16px;
    margin-top: -5px;
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.primary};
    border: 2px solid ${({ theme }) => theme.colors.surface};
  }
  &::-moz-range-track {
    height: 6px;
    border-radius: 999px;
    background: ${({ theme }) => theme.colors.border};
  }
  &::-moz-range-progress {
    height: 6px;
    border-radius: 999px;
    background: ${({ theme }) => theme.colors.primary};
  }
  &::-moz-range-thumb {
    width: 14px;
    height: 14px;
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.primary};
    border: 2px solid ${({ theme }) => theme.colors.surface};
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const ErrorText = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.danger};
`;

const Notice = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** Only where there is a keyboard: a touch screen (no hover, a coarse pointer) has no use for it. */
const Shortcuts = styled.details`
  @media (hover: none) and (pointer: coarse) {
    display: none;
  }
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
  summary {
    cursor: pointer;
    width: fit-content;
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: ${({ theme }) => `${theme.space(1)} ${theme.space(3)}`};
    margin: ${({ theme }) => theme.space(2)} 0 0;
  }
  dt {
    font-weight: 600;
    color: ${({ theme }) => theme.colors.text};
  }
  dd {
    margin: 0;
  }
`;

/** "1.25×": how the speed shows. */
const formatRate = (rate: number) => `${rate}×`;

const speedChoices: Choice<number>[] = PLAYBACK_RATES.map((rate) => ({ value: rate, label: formatRate(rate) }));

type SleepChoice = number | 'chapterEnd' | 'off';
const sleepChoices: Choice<SleepChoice>[] = [
  ...SLEEP_MINUTES.map((minutes) => ({ value: minutes, label: `${minutes} min` })),
  { value: 'chapterEnd', label: 'End of chapter' },
  { value: 'off', label: 'Off' },
];

/** Previous and next chapter, ten seconds back and forward, and Play or Pause. */
function TransportButtons({
  ready,
  playing,
  hasChapters,
  hasNext,
}: {
  ready: boolean;
  playing: boolean;
  hasChapters: boolean;
  hasNext: boolean;
}) {
  return (
    <Transport>
      <IconButton
        label="Previous chapter"
        icon={SkipBack}
        onClick={previousChapter}
        disabled={!ready || !hasChapters}
      />
      <IconButton
        label={`Back ${SKIP_SECONDS} seconds`}
        icon={Undo2}
        onClick={() => skip(-SKIP_SECONDS)}
        disabled={!ready}
      />
      <IconButton
        main
        label={playing ? 'Pause' : 'Play'}
        icon={playing ? Pause : Play}
        onClick={togglePlay}
        disabled={!ready}
      />
      <IconButton
        label={`Forward ${SKIP_SECONDS} seconds`}
        icon={Redo2}
        onClick={() => skip(SKIP_SECONDS)}
        disabled={!ready}
      />
      <IconButton label="Next chapter" icon={SkipForward} onClick={nextChapter} disabled={!ready || !hasNext} />
    </Transport>
  );
}

/** The keyboard shortcuts (shortcuts.ts), folded away under their summary. */
function ShortcutsHelp() {
  return (
    <Shortcuts>
      <summary>Keyboard shortcuts</summary>
      <dl>
        {PLAYER_SHORTCUTS.map((shortcut) => (
          <div key={shortcut.keys} style={{ display: 'contents' }}>
            <dt>{shortcut.keys}</dt>
            <dd>{shortcut.action}</dd>
          </div>
        ))}
      </dl>
    </Shortcuts>
  );
}

/** The player for the loaded book (the store's current job). */
export function Player({ title = 'Audio player' }: { title?: string }) {
  const player = usePlayer();
  const { chapters, current } = useChapters();
  const currentIndex = current ? chapters.indexOf(current) : -1;
  const hasNext = chapters.slice(currentIndex + 1).some(isChapterPlayable);
  const metadata = usePlayerMetadata();
  // While the book converts, the seek bar spans its estimated length: the rest is striped.
  const converting = metadata?.status === 'PENDING' || metadata?.status === 'PROCESSING';
  const scale = converting ? (metadata?.estimated_duration ?? 0) : 0;
  const [dragValue, setDragValue] = useState<number | null>(null);
  // While the server cannot be reached the outage banner says why the audio stopped; the player's
  // own error would say it twice (and it clears itself when the player reloads after the outage).
  const { reachable } = useSnapshot(connection);
  const ready = isReady(player);
  const shownPosition = dragValue ?? player.currentPosition;
  const volumePercent = `${Math.round(player.volume * 100)}%`;
  const sleep = player.sleepTimer;
  const sleepText = sleep ? `Sleep in ${formatClock(sleep.remaining)}` : undefined;
  const sleepSelected: SleepChoice = !sleep ? 'off' : sleep.mode === 'chapterEnd' ? 'chapterEnd' : sleep.minutes;

  return (
    <Region aria-label={title} tabIndex={0} {...{ [PLAYER_REGION_ATTRIBUTE]: '' }}>
      {player.isLoading && <Spinner label="Loading audio..." />}
      {player.error && reachable && <ErrorText role="alert">{player.error}</ErrorText>}
      {player.notice && <Notice role="status">{player.notice}</Notice>}
      <ReturnButton />
      <Row>
        <Clock role="timer" aria-label="Elapsed time">
          {formatClock(shownPosition)}
        </Clock>
        <SeekBar
          position={player.currentPosition}
          duration={Math.max(player.duration, 0)}
          chapters={chapters}
          scale={scale}
          disabled={!ready}
          onDrag={setDragValue}
        />
        <Clock role="timer" aria-label="Total time">
          {formatClock(player.duration)}
        </Clock>
      </Row>
      <TransportButtons ready={ready} playing={player.isPlaying} hasChapters={chapters.length > 0} hasNext={hasNext} />
      <Row>
        <VolumeGroup>
          <IconButton
            label={player.volume > 0 ? 'Mute' : 'Unmute'}
            icon={player.volume > 0 ? Volume2 : VolumeX}
            onClick={toggleMute}
          />
          <VolumeRange
            type="range"
            min={0}
            max={1}
            step={VOLUME_STEP}
            value={player.volume}
            aria-label="Volume"
            aria-valuetext={volumePercent}
            style={{ ['--filled' as string]: volumePercent }}
            onChange={(event) => setVolume(Number(event.target.value))}
          />
          <Clock aria-hidden="true">{volumePercent}</Clock>
        </VolumeGroup>
        <ChoiceMenu
          label="Playback speed"
          valueText={formatRate(player.playbackRate)}
          choices={speedChoices}
          selected={player.playbackRate}
          onChoose={setPlaybackRate}
        >
          <Gauge size={18} aria-hidden />
          {formatRate(player.playbackRate)}
        </ChoiceMenu>
        <ChoiceMenu
          label="Sleep timer"
          valueText={sleepText}
          choices={sleepChoices}
          selected={sleepSelected}
          onChoose={(choice) => (choice === 'off' ? cancelSleepTimer() : startSleepTimer(choice))}
          disabled={!ready}
        >
          <Moon size={18} aria-hidden />
          {sleepText ?? 'Sleep timer'}
        </ChoiceMenu>
      </Row>
      <ShortcutsHelp />
    </Region>
  );
}
