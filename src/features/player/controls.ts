import { errorMessage } from '../../api/errors';
import {
  chaptersOf,
  clamp,
  clampToPlayable,
  isChapterPlayable,
  isChapterReady,
  nextPlayableChapter,
  playableSeconds,
  previousPlayableChapter,
} from './chapters';
import { fetchMetadata, fetchStream, loadedMetadata, playerCache } from './data';
import {
  applyRate,
  applySource,
  applyVolume,
  currentLoad,
  detachMedia,
  emptyMedia,
  followChapter,
  nextLoad,
  pause,
  play,
  PLAYER_MESSAGES,
  stopWaiting,
  syncMediaPosition,
} from './media';
import { progressQuery } from './progressCache';
import { forgetPlace, markSaved, saveNow, stopSaving } from './saving';
import { environment, PLAYBACK_RATES } from './settings';
import { cancelSleepTimer, followSeek } from './sleep';
import { isReady, resetState, state, type PlayerState } from './store';

/** What the player's buttons, keys and the screens ask of it (docs/product.md#player). */

/**
 * Loads a book: stream, metadata and saved progress in parallel (a progress failure counts as
 * no progress). Resolves true when the book is ready to play.
 */
export async function loadJob(jobId: string): Promise<boolean> {
  const token = nextLoad();
  if (state.currentJobId && state.currentJobId !== jobId) pause();
  stopSaving();
  // The end of a chapter of another book means nothing for this one.
  if (state.sleepTimer?.mode === 'chapterEnd') cancelSleepTimer();
  Object.assign(state, {
    currentJobId: jobId,
    isPlaying: false,
    isLoading: true,
    error: null,
    notice: null,
    streamFrom: null,
    currentPosition: 0,
    currentChapter: null,
    duration: 0,
    streamStart: 0,
    streamChapterId: null,
    streamOpeningSeconds: null,
  } satisfies Partial<PlayerState>);
  try {
    const cache = playerCache();
    const [stream, metadata, progress] = await Promise.all([
      fetchStream(jobId),
      fetchMetadata(jobId),
      cache.fetchQuery({ ...progressQuery(jobId), retry: false }).catch(() => null),
    ]);
    if (token !== currentLoad()) return false;
    if (!stream.url) {
      console.error('No streaming URL returned from API', stream);
      throw new Error(PLAYER_MESSAGES.couldNotLoad);
    }
    const duration = metadata.duration > 0 ? metadata.duration : 0;
    const position = progress ? clamp(progress.position_seconds, 0, duration || progress.position_seconds) : 0;
    // A book still converting answers its first ready chapter's own file (source_job_id), or
    // before any is ready, its first chapter's opening.
    const source = stream.sourceJobId ? chaptersOf(metadata).find((c) => c.id === stream.sourceJobId) : undefined;
    Object.assign(state, {
      streamFrom: jobId,
      streamStart: source?.start ?? 0,
      streamChapterId: source?.id ?? null,
      streamOpeningSeconds: source && !isChapterReady(source) ? playableSeconds(source) : null,
      duration,
      currentPosition: position,
      currentChapter: progress?.current_chapter_id ?? null,
      playbackRate: storedRate(jobId),
      isLoading: false,
    } satisfies Partial<PlayerState>);
    markSaved(position);
    if (!state.currentChapter) followChapter();
    applySource();
    // The saved place may be in a later chapter than the file answered.
    if (source) syncMediaPosition();
    return true;
  } catch (error) {
    if (token !== currentLoad()) return false;
    state.isLoading = false;
    state.error =
      error instanceof Error && error.message === PLAYER_MESSAGES.couldNotLoad
        ? error.message
        : errorMessage(error, PLAYER_MESSAGES.couldNotLoad);
    return false;
  }
}

/**
 * The library's play button (docs/product.md#player): pause if this book is playing, resume if it is
 * loaded but paused, otherwise load it (and start it, since the reader asked to play).
 */
export async function togglePlayback(jobId: string): Promise<void> {
  if (state.currentJobId === jobId && state.isPlaying) {
    pause();
    return;
  }
  if (state.currentJobId === jobId && isReady(state)) {
    play();
    return;
  }
  if (await loadJob(jobId)) play();
}

/**
 * Listen again (docs/product.md#player): a finished book starts over from 0:00, the first chapter,
 * and that place is saved at once, so the library no longer counts the book as finished. Loads the
 * book first when another one (or none) is loaded. Resolves true when it plays.
 */
export async function listenAgain(jobId: string): Promise<boolean> {
  if (state.currentJobId !== jobId || !isReady(state)) {
    if (!(await loadJob(jobId))) return false;
  }
  seek(0);
  state.currentChapter = chaptersOf(loadedMetadata())[0]?.id ?? null;
  play();
  await saveNow();
  return true;
}

/**
 * "Play from here" (the voice assistant's evidence): plays the book from `position` seconds,
 * loading it first when another one (or none) is loaded. Resolves true when it plays.
 */
export async function playFrom(jobId: string, position: number): Promise<boolean> {
  if (state.currentJobId !== jobId || !isReady(state)) {
    if (!(await loadJob(jobId))) return false;
  }
  seek(position);
  play();
  return true;
}

/**
 * Clamps to what can be played (0..duration, and no further than the opening's end in a chapter
 * whose opening alone is converted); the element follows only when it is more than 1 s away. A
 * wait for a chapter still converting ends: the reader chose where to be.
 */
export function seek(position: number): void {
  if (!Number.isFinite(position)) return;
  stopWaiting();
  state.currentPosition = clampToPlayable(chaptersOf(loadedMetadata()), clamp(position, 0, state.duration));
  followChapter();
  syncMediaPosition();
  followSeek();
}

export function skip(seconds: number): void {
  seek(state.currentPosition + seconds);
}

export function setVolume(volume: number): void {
  if (!Number.isFinite(volume)) return;
  // Kept on the 0.1 grid so repeated steps do not drift (0.1 + 0.2 !== 0.3).
  state.volume = clamp(Math.round(volume * 100) / 100, 0, 1);
  applyVolume();
}

let volumeBeforeMute = 1;

/** Mute (volume 0) or back to the volume before muting. */
export function toggleMute(): void {
  if (state.volume > 0) {
    volumeBeforeMute = state.volume;
    setVolume(0);
  } else {
    setVolume(volumeBeforeMute > 0 ? volumeBeforeMute : 1);
  }
}

export function changeVolume(delta: number): void {
  setVolume(Math.round((state.volume + delta) * 10) / 10);
}

const rateKey = (jobId: string) => `lectio.playbackRate.${jobId}`;

function storedRate(jobId: string): number {
  const value = Number(environment().storage()?.getItem(rateKey(jobId)));
  return (PLAYBACK_RATES as readonly number[]).includes(value) ? value : 1;
}

/** Sets the speed and remembers it for this book. */
export function setPlaybackRate(rate: number): void {
  if (!(PLAYBACK_RATES as readonly number[]).includes(rate)) return;
  state.playbackRate = rate;
  applyRate();
  if (state.currentJobId) environment().storage()?.setItem(rateKey(state.currentJobId), String(rate));
}

export function jumpToChapter(chapterId: string): void {
  const chapter = chaptersOf(loadedMetadata()).find((c) => c.id === chapterId);
  if (!chapter || !isChapterPlayable(chapter)) return;
  seek(chapter.start);
  state.currentChapter = chapter.id;
}

export function nextChapter(): void {
  const next = nextPlayableChapter(chaptersOf(loadedMetadata()), state.currentPosition);
  if (next) jumpToChapter(next.id);
}

export function previousChapter(): void {
  const previous = previousPlayableChapter(chaptersOf(loadedMetadata()), state.currentPosition);
  if (previous) jumpToChapter(previous.id);
  else seek(0);
}

/** Forgets the saved place of the current book: back to the start, out of the recent lists. */
export async function resetProgress(): Promise<void> {
  const jobId = state.currentJobId;
  if (!jobId || !(await forgetPlace(jobId))) return;
  if (state.currentJobId !== jobId) return;
  state.currentChapter = null;
  seek(0);
  followChapter();
}

/** Stops and forgets everything about the loaded book (the element stays attached). */
export function clearAudio(): void {
  nextLoad();
  stopSaving();
  cancelSleepTimer();
  resetState();
  markSaved(null);
  emptyMedia();
}

/** Back to the initial state, letting go of the element too (every story and test starts clean). */
export function resetPlayer(patch: Partial<PlayerState> = {}): void {
  detachMedia();
  clearAudio();
  Object.assign(state, patch);
}

/** Signing out: the place is saved while the session is still valid, then playback stops. */
export async function stopForSignOut(): Promise<void> {
  pause();
  await saveNow({ keepalive: true });
  clearAudio();
}
