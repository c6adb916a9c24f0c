import type { QueryClient } from '@tanstack/react-query';
import { proxy, ref } from 'valtio';
import { getAudioMetadata, getAudioStream } from '../../api/gen/endpoints/audio/audio';
import { deleteProgress, saveProgress } from '../../api/gen/endpoints/progress/progress';
import type { AudioMetadataOutput } from '../../api/gen/model';
import { errorMessage } from '../../api/errors';
import { fetchProgress, forgetSavedProgress, progressQuery, writeSavedProgress } from './progressCache';

/** Player timings and steps (docs/product.md#player). */
export const SAVE_INTERVAL_MS = 10_000;
export const SEEK_THRESHOLD_SECONDS = 1;
export const SKIP_SECONDS = 10;
export const VOLUME_STEP = 0.1;
export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
/** Sleep timer (docs/listening.md#player-controls): the minutes offered, the fade and its tick. */
export const SLEEP_MINUTES = [15, 30, 45, 60] as const;
const SLEEP_FADE_SECONDS = 10;
const SLEEP_TICK_MS = 250;

/**
 * The parts of an <audio> element the store drives. The real element comes from PlayerAudio;
 * tests hand in a fake with the same surface.
 */
export type MediaElement = Pick<
  HTMLMediaElement,
  | 'play'
  | 'pause'
  | 'load'
  | 'currentTime'
  | 'duration'
  | 'volume'
  | 'playbackRate'
  | 'src'
  | 'error'
  | 'removeAttribute'
  | 'addEventListener'
  | 'removeEventListener'
>;

export type ChapterInfo = AudioMetadataOutput['chapters'][number];

/**
 * The player's state (docs/product.md#player), with playbackRate: client state only. The saved places
 * are server data and live in the React Query cache (progressCache.ts).
 */
export interface PlayerState {
  isPlaying: boolean;
  currentPosition: number;
  duration: number;
  volume: number;
  playbackRate: number;
  currentJobId: string | null;
  /** The current chapter's id (a chapter job id, as saved in progress records). */
  currentChapter: string | null;
  metadata: AudioMetadataOutput | null;
  streamingUrl: string | null;
  isLoading: boolean;
  error: string | null;
  /** The running sleep timer, or null when it is off. */
  sleepTimer: SleepTimer | null;
  /**
   * Where the loaded audio file starts in the book (seconds) and, for a book still converting,
   * the chapter whose own file it is (null: the whole book's file, or a single text). A converting
   * book plays chapter by chapter (docs/listening.md#listening-while-a-book-converts).
   */
  streamStart: number;
  streamChapterId: string | null;
  /** Something to tell the reader that is not an error ("Chapter 3 is still converting"). */
  notice: string | null;
}

/**
 * A running sleep timer. `minutes`: `remaining` seconds of playing time left (it counts only while
 * the book plays). `chapterEnd`: pauses when the position reaches `endsAt` (the end of the chapter
 * playing when it was set, or after a seek, the chapter sought to).
 */
type SleepTimer =
  { mode: 'minutes'; minutes: number; remaining: number } | { mode: 'chapterEnd'; endsAt: number; remaining: number };

const initialState: PlayerState = {
  isPlaying: false,
  currentPosition: 0,
  duration: 0,
  volume: 1,
  playbackRate: 1,
  currentJobId: null,
  currentChapter: null,
  metadata: null,
  streamingUrl: null,
  isLoading: false,
  error: null,
  sleepTimer: null,
  streamStart: 0,
  streamChapterId: null,
  notice: null,
};

export const state = proxy<PlayerState>(structuredClone(initialState));

/**
 * I/O the store uses, swappable in tests: the clock for the periodic save, where speeds are kept
 * and the data cache that holds the saved places (PlayerAudio hands in the app's).
 */
export interface PlayerEnvironment {
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  /** Milliseconds on a clock that only moves forward (the sleep timer measures with it). */
  now: () => number;
  storage: () => Pick<Storage, 'getItem' | 'setItem'> | null;
  queryClient: QueryClient | null;
}

const defaultEnvironment: PlayerEnvironment = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  now: () => Date.now(),
  storage: () => (typeof localStorage === 'undefined' ? null : localStorage),
  queryClient: null,
};

let environment: PlayerEnvironment = defaultEnvironment;

export function configurePlayer(patch: Partial<PlayerEnvironment> | null): void {
  environment = patch ? { ...defaultEnvironment, ...patch } : defaultEnvironment;
}

/** Hands the store the data cache its saves go to; returns the function that takes it back. */
export function connectPlayerCache(client: QueryClient): () => void {
  environment = { ...environment, queryClient: client };
  return () => {
    if (environment.queryClient === client) environment = { ...environment, queryClient: null };
  };
}

/** Things that are not state to render: the element (held by ref()) and bookkeeping. */
const runtime = proxy({ media: null as MediaElement | null });
let saveTimer: unknown = null;
let loadToken = 0;
let lastSavedPosition: number | null = null;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

// ---------------------------------------------------------------------------------------------
// Chapters

/** The chapters of the loaded book in playing order. */
export function chaptersOf(metadata: { readonly chapters: readonly Readonly<ChapterInfo>[] } | null): ChapterInfo[] {
  return [...(metadata?.chapters ?? [])].sort((a, b) => a.start - b.start || a.order - b.order);
}

/**
 * A chapter can be played once it is converted: a book still converting marks the others
 * `ready: false` (docs/listening.md#listening-while-a-book-converts); they are never played.
 */
export function isChapterReady(chapter: Pick<ChapterInfo, 'ready'>): boolean {
  return chapter.ready !== false;
}

/** The chapter playing at `position`: the last ready one starting at or before it. */
export function chapterAt<C extends Readonly<ChapterInfo>>(chapters: readonly C[], position: number): C | null {
  let found: C | null = null;
  for (const chapter of chapters) {
    if (isChapterReady(chapter) && chapter.start <= position + 0.001) found = chapter;
  }
  return found ?? chapters.find(isChapterReady) ?? null;
}

function followChapter(): void {
  const chapters = chaptersOf(state.metadata);
  if (chapters.length === 0) return;
  const chapter = chapterAt(chapters, state.currentPosition);
  if (chapter && chapter.id !== state.currentChapter) state.currentChapter = chapter.id;
}

// ---------------------------------------------------------------------------------------------
// The media element

/** Moves the element only when it is more than the threshold away from the stored position. */
function syncMediaPosition(): void {
  const media = runtime.media;
  if (!media || !state.streamingUrl) return;
  if (state.streamChapterId) {
    // A book played chapter by chapter: a position in another chapter plays that chapter's file.
    const chapter = chapterAt(chaptersOf(state.metadata), state.currentPosition);
    if (chapter && chapter.id !== state.streamChapterId) {
      void switchStream(chapter, state.currentPosition, state.isPlaying);
      return;
    }
  }
  const local = state.currentPosition - state.streamStart;
  if (Math.abs(media.currentTime - local) > SEEK_THRESHOLD_SECONDS) {
    media.currentTime = Math.max(0, local);
  }
}

/**
 * Plays a chapter's own file from `position` (book seconds): how a book still converting goes on
 * past its first chapter. Resumes playing when `resume`.
 */
async function switchStream(chapter: ChapterInfo, position: number, resume: boolean): Promise<void> {
  const jobId = state.currentJobId;
  const token = loadToken;
  try {
    const stream = await getAudioStream(chapter.id);
    if (token !== loadToken || state.currentJobId !== jobId || !stream.streaming_url) return;
    Object.assign(state, {
      streamingUrl: stream.streaming_url,
      streamStart: chapter.start,
      streamChapterId: chapter.id,
      currentPosition: position,
      currentChapter: chapter.id,
      notice: null,
    });
    const media = runtime.media;
    if (!media) return;
    applySource(media);
    if (resume) play();
  } catch (error) {
    if (token !== loadToken) return;
    state.error = errorMessage(error, 'Failed to load audio');
  }
}

/**
 * The end of a chapter's own file (a book still converting): on to the next chapter when it is
 * ready by now (the metadata is asked again), else pause and say it is still converting.
 */
async function continueAfterChapter(): Promise<void> {
  const jobId = state.currentJobId;
  const finished = state.streamChapterId;
  if (!jobId || !finished) return;
  const token = loadToken;
  // Asked again: chapters become ready while one plays. On failure, what is known stands.
  const fresh = await getAudioMetadata(jobId).catch(() => null);
  if (token !== loadToken || state.currentJobId !== jobId) return;
  if (fresh) Object.assign(state, { metadata: fresh });
  const metadata = state.metadata;
  if (!metadata) return;
  if (metadata.duration > state.duration) state.duration = metadata.duration;
  const chapters = chaptersOf(metadata);
  const next = chapters[chapters.findIndex((c) => c.id === finished) + 1];
  if (next && isChapterReady(next)) {
    await switchStream(next, next.start, true);
  } else if (next) {
    state.notice = `${next.title} is still converting: it plays as soon as it is ready.`;
  }
}

function onMediaEnded(): void {
  setPaused();
  if (state.streamChapterId) void continueAfterChapter();
}

function applySource(media: MediaElement): void {
  if (!state.streamingUrl) return;
  media.src = state.streamingUrl;
  media.volume = state.volume * sleepFade();
  media.playbackRate = state.playbackRate;
  // Before the metadata arrives this sets the start position, which is how a book resumes.
  media.currentTime = Math.max(0, state.currentPosition - state.streamStart);
}

function onTimeUpdate(): void {
  const media = runtime.media;
  if (!media || !state.streamingUrl || state.isLoading) return;
  state.currentPosition = state.streamStart + media.currentTime;
  followChapter();
  sleepCheck();
}

function onDurationChange(): void {
  const media = runtime.media;
  // Metadata gives the duration; the element's own only fills in when metadata has none.
  if (media && state.duration === 0 && Number.isFinite(media.duration) && media.duration > 0) {
    state.duration = media.duration;
  }
}

function onMediaPlay(): void {
  if (state.streamingUrl) setPlaying();
}

function onMediaPause(): void {
  setPaused();
}

function onMediaError(): void {
  if (!state.streamingUrl) return;
  const media = runtime.media;
  const message = media?.error?.message || 'The audio could not be played';
  console.error('Audio error', media?.error ?? message);
  setPaused();
  state.error = message;
}

const mediaListeners: [string, () => void][] = [
  ['timeupdate', onTimeUpdate],
  ['durationchange', onDurationChange],
  ['loadedmetadata', onDurationChange],
  ['play', onMediaPlay],
  ['pause', onMediaPause],
  ['ended', onMediaEnded],
  ['error', onMediaError],
];

/**
 * Hands the store its media element (PlayerAudio does this on mount). Returns the detach
 * function, which stops the element and lets go of it.
 */
export function attachMedia(media: MediaElement): () => void {
  if (runtime.media && runtime.media !== media) detachMedia(runtime.media);
  runtime.media = ref(media);
  for (const [type, listener] of mediaListeners) media.addEventListener(type, listener);
  applySource(media);
  return () => detachMedia(media);
}

function detachMedia(media: MediaElement): void {
  for (const [type, listener] of mediaListeners) media.removeEventListener(type, listener);
  media.pause();
  if (runtime.media === media) {
    runtime.media = null;
    setPaused();
  }
}

// ---------------------------------------------------------------------------------------------
// Playing and pausing

function setPlaying(): void {
  if (state.isPlaying) return;
  state.isPlaying = true;
  stopSaveTimer();
  saveTimer = environment.setInterval(() => void saveNow(), SAVE_INTERVAL_MS);
}

/** Paused by the user, the end of the audio or an error: stop the timer and save where we are. */
function setPaused(): void {
  stopSaveTimer();
  if (!state.isPlaying) return;
  state.isPlaying = false;
  void saveNow();
}

function stopSaveTimer(): void {
  if (saveTimer !== null) environment.clearInterval(saveTimer);
  saveTimer = null;
}

export function play(): void {
  const media = runtime.media;
  if (!media || !state.streamingUrl || state.isLoading) return;
  state.error = null;
  setPlaying();
  const started = media.play();
  started?.catch((error: unknown) => {
    // A pause() during the start rejects play() with AbortError: nothing went wrong.
    if (error instanceof DOMException && error.name === 'AbortError') return;
    setPaused();
    state.error = error instanceof Error ? error.message : 'Playback could not start';
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

/**
 * The library's play button (docs/product.md#player): pause if this book is playing, resume if it is
 * loaded but paused, otherwise load it (and start it, since the reader asked to play).
 */
export async function togglePlayback(jobId: string): Promise<void> {
  if (state.currentJobId === jobId && state.isPlaying) {
    pause();
    return;
  }
  if (state.currentJobId === jobId && state.streamingUrl && !state.isLoading) {
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
  if (state.currentJobId !== jobId || !state.streamingUrl || state.isLoading) {
    if (!(await loadJob(jobId))) return false;
  }
  seek(0);
  state.currentChapter = chaptersOf(state.metadata)[0]?.id ?? null;
  play();
  await saveNow();
  return true;
}

/**
 * "Play from here" (the voice assistant's evidence): plays the book from `position` seconds,
 * loading it first when another one (or none) is loaded. Resolves true when it plays.
 */
export async function playFrom(jobId: string, position: number): Promise<boolean> {
  if (state.currentJobId !== jobId || !state.streamingUrl || state.isLoading) {
    if (!(await loadJob(jobId))) return false;
  }
  seek(position);
  play();
  return true;
}

// ---------------------------------------------------------------------------------------------
// Position, volume, speed

/** Clamps to 0..duration; the element follows only when it is more than 1 s away. */
export function seek(position: number): void {
  if (!Number.isFinite(position)) return;
  state.currentPosition = clamp(position, 0, state.duration);
  followChapter();
  syncMediaPosition();
  // "End of chapter" follows the reader: after a seek it ends the chapter sought to.
  if (state.sleepTimer?.mode === 'chapterEnd') {
    state.sleepTimer.endsAt = chapterEndAt(state.currentPosition);
    sleepCheck();
  }
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
  const value = Number(environment.storage()?.getItem(rateKey(jobId)));
  return (PLAYBACK_RATES as readonly number[]).includes(value) ? value : 1;
}

/** Sets the speed and remembers it for this book. */
export function setPlaybackRate(rate: number): void {
  if (!(PLAYBACK_RATES as readonly number[]).includes(rate)) return;
  state.playbackRate = rate;
  if (runtime.media) runtime.media.playbackRate = rate;
  if (state.currentJobId) environment.storage()?.setItem(rateKey(state.currentJobId), String(rate));
}

// ---------------------------------------------------------------------------------------------
// Chapters

export function jumpToChapter(chapterId: string): void {
  const chapter = chaptersOf(state.metadata).find((c) => c.id === chapterId);
  if (!chapter || !isChapterReady(chapter)) return;
  seek(chapter.start);
  state.currentChapter = chapter.id;
}

function currentChapterIndex(chapters: ChapterInfo[]): number {
  const current = chapterAt(chapters, state.currentPosition);
  return current ? chapters.indexOf(current) : -1;
}

export function nextChapter(): void {
  const chapters = chaptersOf(state.metadata);
  const next = chapters.slice(currentChapterIndex(chapters) + 1).find(isChapterReady);
  if (next) jumpToChapter(next.id);
}

export function previousChapter(): void {
  const chapters = chaptersOf(state.metadata);
  const previous = chapters.slice(0, Math.max(0, currentChapterIndex(chapters))).findLast(isChapterReady);
  if (previous) jumpToChapter(previous.id);
  else seek(0);
}

// ---------------------------------------------------------------------------------------------
// Sleep timer

let sleepTicker: unknown = null;
let sleepLastTick = 0;

/** Where the chapter playing at `position` ends (the book's end when there are no chapters). */
function chapterEndAt(position: number): number {
  const chapters = chaptersOf(state.metadata);
  const chapter = chapterAt(chapters, position);
  if (!chapter) return state.duration;
  const next = chapters.find((c) => c.start > chapter.start);
  const end = chapter.duration > 0 ? chapter.start + chapter.duration : (next?.start ?? state.duration);
  return Math.min(end, state.duration || end);
}

/** The volume factor of the fade: 1, then down to 0 over the last SLEEP_FADE_SECONDS. */
function sleepFade(): number {
  const timer = state.sleepTimer;
  if (!timer || timer.remaining >= SLEEP_FADE_SECONDS) return 1;
  return clamp(timer.remaining / SLEEP_FADE_SECONDS, 0, 1);
}

function applyVolume(): void {
  if (runtime.media) runtime.media.volume = state.volume * sleepFade();
}

/**
 * Starts the sleep timer: after `minutes` of playing, or at the end of the chapter playing now
 * (`'chapterEnd'`). Replaces a running one.
 */
export function startSleepTimer(choice: number | 'chapterEnd'): void {
  stopSleepTicker();
  if (choice === 'chapterEnd') {
    const endsAt = chapterEndAt(state.currentPosition);
    // No known end ahead (no chapters, no duration yet): nothing to wait for.
    if (!(endsAt > state.currentPosition)) return;
    state.sleepTimer = { mode: 'chapterEnd', endsAt, remaining: Math.max(0, endsAt - state.currentPosition) };
  } else {
    if (!Number.isFinite(choice) || choice <= 0) return;
    state.sleepTimer = { mode: 'minutes', minutes: choice, remaining: choice * 60 };
  }
  sleepLastTick = environment.now();
  sleepTicker = environment.setInterval(sleepTick, SLEEP_TICK_MS);
  applyVolume();
}

/** Turns the sleep timer off and gives the volume back. */
export function cancelSleepTimer(): void {
  stopSleepTicker();
  if (!state.sleepTimer) return;
  state.sleepTimer = null;
  applyVolume();
}

function stopSleepTicker(): void {
  if (sleepTicker !== null) environment.clearInterval(sleepTicker);
  sleepTicker = null;
}

function sleepTick(): void {
  const now = environment.now();
  const elapsed = Math.max(0, now - sleepLastTick) / 1000;
  sleepLastTick = now;
  const timer = state.sleepTimer;
  if (!timer) return stopSleepTicker();
  // Minutes count playing time only: a paused book does not fall asleep.
  if (timer.mode === 'minutes' && state.isPlaying) timer.remaining = Math.max(0, timer.remaining - elapsed);
  sleepCheck();
}

/** Updates the chapter countdown, fades, and pauses when the time is up. */
function sleepCheck(): void {
  const timer = state.sleepTimer;
  if (!timer) return;
  if (timer.mode === 'chapterEnd') {
    // Seconds of listening left, at the current speed.
    timer.remaining = Math.max(0, (timer.endsAt - state.currentPosition) / (state.playbackRate || 1));
    if (state.currentPosition >= timer.endsAt - 0.05) {
      // The element may have run a little past the end: back to the chapter's end.
      if (state.currentPosition > timer.endsAt) seekQuietly(timer.endsAt);
      timer.remaining = 0;
    }
  }
  if (timer.remaining <= 0) {
    pause();
    cancelSleepTimer();
    return;
  }
  applyVolume();
}

function seekQuietly(position: number): void {
  state.currentPosition = clamp(position, 0, state.duration);
  followChapter();
  syncMediaPosition();
}

// ---------------------------------------------------------------------------------------------
// Loading and progress

/**
 * Loads a book: stream, metadata and saved progress in parallel (a progress failure counts as
 * no progress). Resolves true when the book is ready to play.
 */
export async function loadJob(jobId: string): Promise<boolean> {
  const token = ++loadToken;
  if (state.currentJobId && state.currentJobId !== jobId) {
    runtime.media?.pause();
    setPaused();
  }
  stopSaveTimer();
  // The end of a chapter of another book means nothing for this one.
  if (state.sleepTimer?.mode === 'chapterEnd') cancelSleepTimer();
  Object.assign(state, {
    currentJobId: jobId,
    isPlaying: false,
    isLoading: true,
    error: null,
    streamingUrl: null,
    metadata: null,
    currentPosition: 0,
    currentChapter: null,
    duration: 0,
    streamStart: 0,
    streamChapterId: null,
    notice: null,
  });
  try {
    const [stream, metadata, progress] = await Promise.all([
      getAudioStream(jobId),
      getAudioMetadata(jobId),
      (environment.queryClient ? environment.queryClient.fetchQuery(progressQuery(jobId)) : fetchProgress(jobId)).catch(
        () => null,
      ),
    ]);
    if (token !== loadToken) return false;
    const url = stream.streaming_url || (stream as { streamingUrl?: string }).streamingUrl;
    if (!url) {
      console.error('No streaming URL returned from API', stream);
      throw new Error('No streaming URL returned from API');
    }
    const duration = metadata.duration > 0 ? metadata.duration : 0;
    const position = progress ? clamp(progress.position_seconds, 0, duration || progress.position_seconds) : 0;
    // A book still converting answers its first ready chapter's own file (source_job_id).
    const source = stream.source_job_id ? chaptersOf(metadata).find((c) => c.id === stream.source_job_id) : undefined;
    Object.assign(state, {
      streamingUrl: url,
      streamStart: source?.start ?? 0,
      streamChapterId: source?.id ?? null,
      metadata,
      duration,
      currentPosition: position,
      currentChapter: progress?.current_chapter_id ?? null,
      playbackRate: storedRate(jobId),
      isLoading: false,
    });
    lastSavedPosition = position;
    if (!state.currentChapter) followChapter();
    if (runtime.media) applySource(runtime.media);
    // The saved place may be in a later chapter than the file answered.
    if (source) syncMediaPosition();
    return true;
  } catch (error) {
    if (token !== loadToken) return false;
    state.isLoading = false;
    state.error =
      error instanceof Error && error.message === 'No streaming URL returned from API'
        ? error.message
        : errorMessage(error, 'Failed to load audio');
    return false;
  }
}

/**
 * Saves the position now (PUT /progress/{id}: position_seconds and current_chapter_id only).
 * Skipped when nothing moved since the last save. Failures are logged: playback goes on.
 */
export async function saveNow(options: { keepalive?: boolean } = {}): Promise<void> {
  const jobId = state.currentJobId;
  if (!jobId || !state.streamingUrl || state.isLoading) return;
  const position = Math.round(state.currentPosition * 10) / 10;
  if (lastSavedPosition !== null && Math.abs(position - lastSavedPosition) < 0.05) return;
  lastSavedPosition = position;
  try {
    const saved = await saveProgress(
      jobId,
      { position_seconds: position, current_chapter_id: state.currentChapter },
      options.keepalive ? { keepalive: true } : undefined,
    );
    if (environment.queryClient) writeSavedProgress(environment.queryClient, saved);
  } catch (error) {
    console.warn(errorMessage(error, 'Failed to update progress'), error);
  }
}

/**
 * Saves when the page is hidden or left, so closing the tab keeps the place. Returns the
 * function that stops watching.
 */
export function watchPageHide(doc: Document = document, win: Window = window): () => void {
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') void saveNow({ keepalive: true });
  };
  const onPageHide = () => void saveNow({ keepalive: true });
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pagehide', onPageHide);
  return () => {
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('pagehide', onPageHide);
  };
}

/** Forgets the saved place of the current book: back to the start, out of the recent lists. */
export async function resetProgress(): Promise<void> {
  const jobId = state.currentJobId;
  if (!jobId) return;
  try {
    await deleteProgress(jobId);
  } catch (error) {
    state.error = errorMessage(error, 'Failed to update progress');
    return;
  }
  if (environment.queryClient) forgetSavedProgress(environment.queryClient, jobId);
  if (state.currentJobId !== jobId) return;
  state.currentChapter = null;
  lastSavedPosition = 0;
  seek(0);
  followChapter();
}

/** Stops and forgets everything about the loaded book (the element stays attached). */
export function clearAudio(): void {
  loadToken += 1;
  stopSaveTimer();
  cancelSleepTimer();
  const media = runtime.media;
  Object.assign(state, structuredClone(initialState));
  lastSavedPosition = null;
  if (media) {
    media.pause();
    media.removeAttribute('src');
    media.load();
  }
}

/** Back to the initial state, letting go of the element too (every story and test starts clean). */
export function resetPlayer(patch: Partial<PlayerState> = {}): void {
  if (runtime.media) detachMedia(runtime.media);
  clearAudio();
  Object.assign(state, patch);
}
