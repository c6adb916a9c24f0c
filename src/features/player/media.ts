import { errorMessage } from '../../api/errors';
import {
  chapterAt,
  chaptersOf,
  isChapterPlayable,
  isChapterReady,
  playableSeconds,
  type ChapterInfo,
} from './chapters';
import { checkConnection } from './connection';
import { fetchMetadata, fetchStream, loadedMetadata, loadedStreamUrl } from './data';
import { saveNow, startSaving, stopSaving } from './saving';
import { environment } from './environment';
import { CONVERTING_POLL_MS, SEEK_THRESHOLD_SECONDS } from './settings';
import { isReady, runtime, sleepFade, state, type MediaElement } from './store';

/**
 * The app's one <audio> element, as the player drives it: the source, the position, the volume
 * and speed, play and pause, and a book still converting played chapter file by chapter file.
 */

/** What the reader is told instead of the browser's own words (docs/product.md#errors). */
export const PLAYER_MESSAGES = {
  tapToPlay: 'Tap play to start.',
  couldNotStart: 'Playback could not start. Tap play to try again.',
  couldNotLoad: 'The audio could not be loaded. Check your connection, then try again.',
  stoppedLoading: 'The audio stopped loading. Check your connection, then tap play to go on.',
  unplayable: 'This audio could not be played. Reload the page to try again.',
} as const;

export function currentLoad(): number {
  return runtime.loadToken;
}

export function nextLoad(): number {
  runtime.loadToken += 1;
  stopWaiting();
  return runtime.loadToken;
}

/** Called after every position update from the element (the sleep timer watches them). */
export function onPositionUpdate(listener: () => void): () => void {
  runtime.positionListeners.add(listener);
  return () => runtime.positionListeners.delete(listener);
}

/** Where the element really is in the book (seconds): fresher than the last timeupdate. */
export function livePosition(): number {
  return runtime.media && isReady(state) ? state.streamStart + runtime.media.currentTime : state.currentPosition;
}

/** Keeps the current chapter in step with the position. */
export function followChapter(): void {
  const chapters = chaptersOf(loadedMetadata());
  if (chapters.length === 0) return;
  const chapter = chapterAt(chapters, state.currentPosition);
  if (chapter && chapter.id !== state.currentChapter) state.currentChapter = chapter.id;
}

export function applyVolume(): void {
  if (runtime.media) runtime.media.volume = state.volume * sleepFade(state);
}

export function applyRate(): void {
  if (runtime.media) runtime.media.playbackRate = state.playbackRate;
}

/** Puts the loaded file, volume, speed and position on the element. */
export function applySource(): void {
  const url = loadedStreamUrl();
  if (!runtime.media || !url) return;
  runtime.media.src = url;
  applyVolume();
  applyRate();
  // Before the metadata arrives this sets the start position, which is how a book resumes.
  runtime.media.currentTime = Math.max(0, state.currentPosition - state.streamStart);
}

/**
 * Moves the element to the stored position when it is more than the threshold away (`exact`:
 * whatever the distance). A position in another chapter of a book played chapter by chapter loads
 * that chapter's file.
 */
export function syncMediaPosition({ exact = false }: { exact?: boolean } = {}): void {
  if (!runtime.media || !isReady(state)) return;
  if (state.streamChapterId) {
    const chapter = chapterAt(chaptersOf(loadedMetadata()), state.currentPosition);
    if (chapter && chapter.id !== state.streamChapterId) {
      void switchStream(chapter, state.currentPosition, state.isPlaying);
      return;
    }
  }
  const local = state.currentPosition - state.streamStart;
  if (exact || Math.abs(runtime.media.currentTime - local) > SEEK_THRESHOLD_SECONDS)
    runtime.media.currentTime = Math.max(0, local);
}

/**
 * Plays a chapter's own file from `position` (book seconds): how a book still converting goes on
 * past its first chapter, and from a chapter's opening into the whole chapter. Resumes playing
 * when `resume`.
 */
async function switchStream(chapter: ChapterInfo, position: number, resume: boolean): Promise<void> {
  const jobId = state.currentJobId;
  const token = runtime.loadToken;
  stopWaiting();
  try {
    const stream = await fetchStream(chapter.id);
    if (token !== runtime.loadToken || state.currentJobId !== jobId || !stream.url) return;
    Object.assign(state, {
      streamFrom: chapter.id,
      streamStart: chapter.start,
      streamChapterId: chapter.id,
      // A chapter still converting answers its opening: it is that long.
      streamOpeningSeconds: isChapterReady(chapter) ? null : playableSeconds(chapter),
      currentPosition: position,
      currentChapter: chapter.id,
      notice: null,
    });
    applySource();
    if (resume) play();
  } catch (error) {
    if (token !== runtime.loadToken) return;
    state.error = errorMessage(error, PLAYER_MESSAGES.couldNotLoad);
  }
}

/** How close to a chapter file's end counts as its end (the place saved as it ended). */
const END_OF_FILE_SLACK_SECONDS = 0.25;

/**
 * Stops waiting for a chapter to finish converting: another book or file was loaded, the reader
 * pressed play or sought, or the player went away.
 */
export function stopWaiting(): void {
  runtime.waitRound += 1;
  if (runtime.waitTimer !== null) environment().clearTimeout(runtime.waitTimer);
  runtime.waitTimer = null;
}

/** The player waits for a chapter to finish converting, and goes on by itself when it has. */
export function isWaiting(): boolean {
  return runtime.waitTimer !== null;
}

/**
 * The end of a chapter's own file (a book still converting), or of a chapter's opening: the
 * metadata is asked again. After an opening, the whole chapter plays on from where the opening
 * ended once that chapter is ready; after a whole chapter, the next one plays once it can be.
 * Until then playback pauses with a notice, and the metadata is asked every few seconds: the
 * player goes on by itself as soon as the chapter is ready.
 */
async function continueAfterFile(round: number): Promise<void> {
  const jobId = state.currentJobId;
  const finished = state.streamChapterId;
  const opening = state.streamOpeningSeconds;
  if (!jobId || !finished) return;
  const token = runtime.loadToken;
  const current = () => token === runtime.loadToken && round === runtime.waitRound && state.currentJobId === jobId;
  // Asked again: chapters become ready while one plays. On failure, what is known stands.
  await fetchMetadata(jobId).catch(() => null);
  if (!current()) return;
  const metadata = loadedMetadata();
  if (!metadata) return;
  if (metadata.duration > state.duration) state.duration = metadata.duration;
  const chapters = chaptersOf(metadata);
  const index = chapters.findIndex((c) => c.id === finished);
  const chapter = chapters[index];
  if (!chapter) return;
  if (opening !== null) {
    // The whole chapter's first seconds are the opening, frame for frame: it goes on from there.
    if (isChapterReady(chapter)) return switchStream(chapter, chapter.start + opening, true);
    state.notice = `${chapter.title} is still converting: it plays on as soon as it is ready.`;
  } else {
    const next = chapters[index + 1];
    if (!next) return;
    if (isChapterPlayable(next)) return switchStream(next, next.start, true);
    state.notice = `${next.title} is still converting: it plays as soon as it is ready.`;
  }
  runtime.waitTimer = environment().setTimeout(() => {
    runtime.waitTimer = null;
    void continueAfterFile(round);
  }, CONVERTING_POLL_MS);
}

function onTimeUpdate(): void {
  if (!runtime.media || !isReady(state)) return;
  state.currentPosition = state.streamStart + runtime.media.currentTime;
  followChapter();
  for (const listener of runtime.positionListeners) listener();
}

function onDurationChange(): void {
  // Metadata gives the duration; the element's own only fills in when metadata has none.
  if (runtime.media && state.duration === 0 && Number.isFinite(runtime.media.duration) && runtime.media.duration > 0) {
    state.duration = runtime.media.duration;
  }
}

function onMediaPlay(): void {
  if (isReady(state)) setPlaying();
}

function onMediaEnded(): void {
  setPaused();
  if (!state.streamChapterId) return;
  stopWaiting();
  void continueAfterFile(runtime.waitRound);
}

/** The element's error, in words that say what to do (its own message is for the console). */
function describeMediaError(error: MediaError | null): string | null {
  switch (error?.code) {
    case 1: // MEDIA_ERR_ABORTED: the fetch was stopped on purpose.
      return null;
    case 2: // MEDIA_ERR_NETWORK
      return PLAYER_MESSAGES.stoppedLoading;
    default: // MEDIA_ERR_DECODE, MEDIA_ERR_SRC_NOT_SUPPORTED (also an expired or refused link)
      return PLAYER_MESSAGES.unplayable;
  }
}

function onMediaError(): void {
  if (!isReady(state)) return;
  console.error('Audio error', runtime.media?.error);
  setPaused();
  const code = runtime.media?.error?.code;
  state.error = describeMediaError(runtime.media?.error ?? null);
  // The audio stopped loading: the server may be away (the outage banner then says so).
  if (code === 2) checkConnection();
}

const mediaListeners: [string, () => void][] = [
  ['timeupdate', onTimeUpdate],
  ['durationchange', onDurationChange],
  ['loadedmetadata', onDurationChange],
  ['play', onMediaPlay],
  ['pause', setPaused],
  ['ended', onMediaEnded],
  ['error', onMediaError],
];

/**
 * Hands the player its media element (PlayerAudio does this on mount). Returns the detach
 * function, which stops the element and lets go of it.
 */
export function attachMedia(element: MediaElement): () => void {
  if (runtime.media && runtime.media !== element) detachMedia(runtime.media);
  runtime.media = element;
  for (const [type, listener] of mediaListeners) element.addEventListener(type, listener);
  applySource();
  return () => detachMedia(element);
}

export function detachMedia(element: MediaElement | null = runtime.media): void {
  if (!element) return;
  stopWaiting();
  for (const [type, listener] of mediaListeners) element.removeEventListener(type, listener);
  element.pause();
  if (runtime.media === element) {
    runtime.media = null;
    setPaused();
  }
}

/** Stops the element and empties it (the element stays attached). */
export function emptyMedia(): void {
  if (!runtime.media) return;
  runtime.media.pause();
  runtime.media.removeAttribute('src');
  runtime.media.load();
}

function setPlaying(): void {
  if (state.isPlaying) return;
  state.isPlaying = true;
  state.notice = null;
  startSaving();
}

/** Paused by the reader, the end of the audio or an error: stop the timer and save where we are. */
export function setPaused(): void {
  stopSaving();
  if (!state.isPlaying) return;
  state.isPlaying = false;
  void saveNow();
}

/**
 * The place is at the end of the chapter file playing (a book still converting): nothing is left
 * in it to play, so Play goes straight on to what comes next.
 */
function atEndOfChapterFile(): boolean {
  if (!state.streamChapterId) return false;
  const chapter = chaptersOf(loadedMetadata()).find((c) => c.id === state.streamChapterId);
  if (!chapter) return false;
  const end = chapter.start + (state.streamOpeningSeconds ?? playableSeconds(chapter));
  return state.currentPosition >= end - END_OF_FILE_SLACK_SECONDS;
}

export function play(): void {
  if (!runtime.media || !isReady(state)) return;
  stopWaiting();
  state.error = null;
  if (atEndOfChapterFile()) {
    // The next chapter plays when it can; until then the notice says it is still converting.
    void continueAfterFile(runtime.waitRound);
    return;
  }
  setPlaying();
  const started = runtime.media.play();
  started?.catch((error: unknown) => {
    // A pause() during the start rejects play() with AbortError: nothing went wrong.
    if (error instanceof DOMException && error.name === 'AbortError') return;
    setPaused();
    console.warn('Playback did not start', error);
    // The browser wants a tap first (autoplay): ask for one, it is not an error.
    if (error instanceof DOMException && error.name === 'NotAllowedError') state.notice = PLAYER_MESSAGES.tapToPlay;
    else state.error = PLAYER_MESSAGES.couldNotStart;
  });
}

export function pause(): void {
  runtime.media?.pause();
  setPaused();
}

export function togglePlay(): void {
  if (state.isPlaying) pause();
  else play();
}
