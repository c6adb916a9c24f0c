import { chapterEndAt, chaptersOf, clamp } from './chapters';
import { loadedMetadata } from './data';
import { applyVolume, followChapter, livePosition, onPositionUpdate, pause, syncMediaPosition } from './media';
import { environment } from './environment';
import { SLEEP_TICK_MS } from './settings';
import { runtime, state } from './store';

/**
 * The sleep timer (docs/listening.md#player-controls): after some minutes of playing, or at the
 * end of the chapter playing. Over its last seconds the volume fades (store.ts sleepFade); then
 * playback pauses and the volume comes back.
 */

/** "End of chapter" stops this close to the chapter's end (seconds). */
const END_TOLERANCE_SECONDS = 0.05;

/** Where the chapter playing at `position` ends. */
function chapterEnd(position: number): number {
  return chapterEndAt(chaptersOf(loadedMetadata()), position, state.duration);
}

/**
 * Starts the sleep timer: after `minutes` of playing, or at the end of the chapter playing now
 * (`'chapterEnd'`). Replaces a running one.
 */
export function startSleepTimer(choice: number | 'chapterEnd'): void {
  stopClocks();
  if (choice === 'chapterEnd') {
    const endsAt = chapterEnd(state.currentPosition);
    // No known end ahead (no chapters, no duration yet): nothing to wait for.
    if (!(endsAt > state.currentPosition)) return;
    state.sleepTimer = { mode: 'chapterEnd', endsAt, remaining: Math.max(0, endsAt - state.currentPosition) };
  } else {
    if (!Number.isFinite(choice) || choice <= 0) return;
    state.sleepTimer = { mode: 'minutes', minutes: choice, remaining: choice * 60 };
  }
  runtime.lastSleepTick = environment().now();
  runtime.sleepTicker = environment().setInterval(tick, SLEEP_TICK_MS);
  runtime.stopWatchingPosition = onPositionUpdate(() => check(state.currentPosition));
  applyVolume();
}

/** Turns the sleep timer off and gives the volume back. */
export function cancelSleepTimer(): void {
  stopClocks();
  if (!state.sleepTimer) return;
  state.sleepTimer = null;
  applyVolume();
}

/** After a seek: "End of chapter" follows the reader to the end of the chapter sought to. */
export function followSeek(): void {
  const timer = state.sleepTimer;
  if (timer?.mode !== 'chapterEnd') return;
  timer.endsAt = chapterEnd(state.currentPosition);
  check(state.currentPosition);
}

function stopClocks(): void {
  const env = environment();
  if (runtime.sleepTicker !== null) env.clearInterval(runtime.sleepTicker);
  if (runtime.sleepEndTimer !== null) env.clearTimeout(runtime.sleepEndTimer);
  runtime.sleepTicker = null;
  runtime.sleepEndTimer = null;
  runtime.stopWatchingPosition?.();
  runtime.stopWatchingPosition = null;
}

function tick(): void {
  const now = environment().now();
  const elapsed = Math.max(0, now - runtime.lastSleepTick) / 1000;
  runtime.lastSleepTick = now;
  const timer = state.sleepTimer;
  if (!timer) return stopClocks();
  // Minutes count playing time only: a paused book does not fall asleep.
  if (timer.mode === 'minutes' && state.isPlaying) timer.remaining = Math.max(0, timer.remaining - elapsed);
  check(state.isPlaying ? livePosition() : state.currentPosition);
}

/** Updates the countdown at `position`, fades, and pauses when the time is up. */
function check(position: number): void {
  const timer = state.sleepTimer;
  if (!timer) return;
  if (timer.mode === 'chapterEnd') {
    // Seconds of listening left, at the current speed.
    timer.remaining = Math.max(0, (timer.endsAt - position) / (state.playbackRate || 1));
    if (position >= timer.endsAt - END_TOLERANCE_SECONDS) timer.remaining = 0;
    else if (state.isPlaying && timer.remaining * 1000 <= SLEEP_TICK_MS) aimAtTheEnd(timer.remaining);
  }
  if (timer.remaining <= 0) return fallAsleep();
  applyVolume();
}

/** The end is nearer than the next tick (or timeupdate): a timer of its own, set for the moment itself. */
function aimAtTheEnd(seconds: number): void {
  const env = environment();
  if (runtime.sleepEndTimer !== null) env.clearTimeout(runtime.sleepEndTimer);
  runtime.sleepEndTimer = env.setTimeout(() => {
    runtime.sleepEndTimer = null;
    check(livePosition());
  }, seconds * 1000);
}

function fallAsleep(): void {
  const timer = state.sleepTimer;
  if (timer?.mode === 'chapterEnd') {
    // Exactly at the chapter's end, wherever the element got to: resuming starts the next chapter.
    state.currentPosition = clamp(timer.endsAt, 0, state.duration || timer.endsAt);
    followChapter();
    pause();
    syncMediaPosition({ exact: true });
  } else {
    pause();
  }
  cancelSleepTimer();
}
