import type { QueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors';
import { getGetPreferencesQueryKey, getPreferences } from '../../api/gen/endpoints/auth';
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
import { environment } from './environment';
import { LAST_BOOK_KEY, PLAYBACK_RATES } from './settings';
import { cancelSleepTimer, followSeek } from './sleep';
import { connection, isReady, resetState, runtime, state, type PlayerState } from './store';

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
    returnTo: null,
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
    const ownRate = storedRate(jobId);
    const [stream, metadata, progress, preferredRate] = await Promise.all([
      fetchStream(jobId),
      fetchMetadata(jobId),
      cache.fetchQuery({ ...progressQuery(jobId), retry: false }).catch(() => null),
      ownRate === null ? defaultRate(cache) : null,
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
      playbackRate: ownRate ?? preferredRate ?? 1,
      isLoading: false,
    } satisfies Partial<PlayerState>);
    markSaved(position);
    rememberLastBook(jobId);
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
  jumpTo(position);
  play();
  return true;
}

/** How long "Back to …" is offered after a jump the listener did not drag to. */
export const RETURN_OFFER_MS = 30_000;
/** A jump shorter than this keeps no way back: the listener is nearly where they were. */
const RETURN_MIN_SECONDS = 5;

function offerReturn(position: number | null): void {
  if (runtime.returnTimer !== null) environment().clearTimeout(runtime.returnTimer);
  runtime.returnTimer = null;
  state.returnTo = position;
  if (position === null) return;
  runtime.returnTimer = environment().setTimeout(() => {
    runtime.returnTimer = null;
    state.returnTo = null;
  }, RETURN_OFFER_MS);
}

/**
 * A jump the listener did not make by dragging (X-ray's "Play from here", a chapter, the
 * assistant's "continue"): the place before it is offered as "Back to …" for a while (until the
 * next such jump, or RETURN_OFFER_MS), as e-readers do.
 */
export function jumpTo(position: number): void {
  const before = state.currentPosition;
  seek(position);
  offerReturn(Math.abs(state.currentPosition - before) >= RETURN_MIN_SECONDS ? before : null);
}

/** "Back to 2:46": returns to the place before the last jump, and offers no way back from there. */
export function returnToPrevious(): void {
  const back = state.returnTo;
  if (back === null) return;
  offerReturn(null);
  seek(back);
  followChapter();
}

/**
 * Plays the book: the play buttons of the job page, the shelves and the library. Loads it first
 * (at its saved place) unless it is loaded; plays on if it is. Resolves true when it plays.
 */
export async function playBook(jobId: string): Promise<boolean> {
  if (state.currentJobId !== jobId || !isReady(state)) {
    if (!(await loadJob(jobId))) return false;
  }
  play();
  return true;
}

/**
 * A chapter's Play (the job page, the book page's chapter list): THE BOOK plays from that chapter's
 * start, loaded first when it is not; the place before is offered as "Back to …". Resolves true
 * when it plays.
 */
export async function playChapter(bookId: string, chapterId: string): Promise<boolean> {
  if (state.currentJobId !== bookId || !isReady(state)) {
    if (!(await loadJob(bookId))) return false;
  }
  const chapter = chaptersOf(loadedMetadata()).find((c) => c.id === chapterId);
  if (chapter && isChapterPlayable(chapter)) {
    jumpTo(chapter.start);
    state.currentChapter = chapter.id;
  }
  play();
  return true;
}

function rememberLastBook(jobId: string): void {
  try {
    environment().storage()?.setItem(LAST_BOOK_KEY, jobId);
  } catch {
    // Storage full or refused (private mode): the book just is not restored after a reload.
  }
}

/**
 * After a reload: the last book played is loaded again, paused at its saved place (the server's),
 * unless a book is loaded already. Resolves true when it is.
 */
export async function restoreLastBook(): Promise<boolean> {
  if (state.currentJobId !== null) return false;
  const jobId = environment().storage()?.getItem(LAST_BOOK_KEY) ?? null;
  if (!jobId) return false;
  const loaded = await loadJob(jobId);
  if (!loaded && state.currentJobId === jobId && connection.reachable) {
    // Gone (deleted, or another account's): forget it rather than show an error nobody asked for.
    clearAudio();
  }
  return loaded;
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

/** Mute (volume 0) or back to the volume before muting. */
export function toggleMute(): void {
  if (state.volume > 0) {
    runtime.volumeBeforeMute = state.volume;
    setVolume(0);
  } else {
    setVolume(runtime.volumeBeforeMute > 0 ? runtime.volumeBeforeMute : 1);
  }
}

export function changeVolume(delta: number): void {
  setVolume(Math.round((state.volume + delta) * 10) / 10);
}

const rateKey = (jobId: string) => `lectio.playbackRate.${jobId}`;

/** The speed the listener picked for this book, or null when they never did. */
function storedRate(jobId: string): number | null {
  const value = Number(environment().storage()?.getItem(rateKey(jobId)));
  return (PLAYBACK_RATES as readonly number[]).includes(value) ? value : null;
}

/**
 * The speed for new books the account saved (GET /auth/preferences, the entry the Account page
 * reads and updates), for a book the listener never set a speed for; null when none is saved or
 * it cannot be read.
 */
async function defaultRate(cache: QueryClient): Promise<number | null> {
  try {
    const preferences = await cache.fetchQuery({
      queryKey: getGetPreferencesQueryKey(),
      queryFn: ({ signal }) => getPreferences({ signal }),
      staleTime: 60_000,
      retry: false,
    });
    const rate = preferences.default_speed ?? null;
    return rate !== null && (PLAYBACK_RATES as readonly number[]).includes(rate) ? rate : null;
  } catch {
    return null;
  }
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

/**
 * A click on a chapter in the chapter list: the book plays from there, and the place before is
 * offered as "Back to …".
 */
export function playChapterFromList(chapterId: string): void {
  const chapter = chaptersOf(loadedMetadata()).find((c) => c.id === chapterId);
  if (!chapter || !isChapterPlayable(chapter)) return;
  jumpTo(chapter.start);
  state.currentChapter = chapter.id;
  play();
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
  offerReturn(null);
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
  // Books kept on this device are this account's: the next one on this browser does not get them.
  await runtime.deviceKeeping?.forgetAccount();
  // The next account on this browser does not get this one's book back after a reload.
  environment().storage()?.setItem(LAST_BOOK_KEY, '');
}

/**
 * The server cannot be reached (connection.ts): the player pauses honestly (it shows Play), and
 * keeps the listener's place. A book kept on this device plays on from its kept files.
 */
export function pauseForOutage(): void {
  const jobId = state.currentJobId;
  if (jobId !== null && runtime.deviceKeeping?.keptOnDevice(jobId)) return;
  pause();
}

/**
 * The server is back: a book that failed to load (or whose audio stopped loading) is loaded again
 * at the place the listener had, and that place is saved. Playback stays paused: the listener
 * presses Play.
 */
export async function recoverAfterOutage(): Promise<void> {
  const jobId = state.currentJobId;
  if (!jobId) return;
  if (state.error === null && isReady(state)) {
    await saveNow();
    return;
  }
  const place = state.currentPosition;
  if (!(await loadJob(jobId)) || state.currentJobId !== jobId) return;
  if (place > 0) seek(place);
  await saveNow();
}
