import type { QueryClient } from '@tanstack/react-query';
import { proxy } from 'valtio';
import { SLEEP_FADE_SECONDS, type PlayerEnvironment } from './settings';

/**
 * The player's state (docs/product.md#player): client state only. What the server says about the
 * loaded book (its metadata, its stream URLs, the saved places) lives in the React Query cache
 * (data.ts, progressCache.ts); the store keeps which book and which file are loaded, where playback
 * is, and what the reader chose. The code that changes it lives beside it: chapters.ts (chapter
 * maths), media.ts (the <audio> element), sleep.ts (the sleep timer), saving.ts (saving the
 * place), connection.ts (whether the server answers) and controls.ts (what the buttons do).
 *
 * Two kinds of holder, and nothing else mutable at module level: the Valtio proxies screens
 * render from (`state`, and `connection` for the outage banner), and `runtime`, one plain object
 * for what must not be reactive (the <audio> element, the data cache, timer handles, listeners,
 * counters that drop stale answers). A component never renders from `runtime`.
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
  /**
   * The id whose stream the element plays: the book's, or one chapter's while a book converts
   * (its URL is the cached answer of getAudioStream for that id). Null while nothing is loaded.
   */
  streamFrom: string | null;
  /**
   * Where the loaded audio file starts in the book (seconds) and, for a book still converting,
   * the chapter whose own file it is (null: the whole book's file, or a single text). A converting
   * book plays chapter by chapter (docs/listening.md#listening-while-a-book-converts).
   */
  streamStart: number;
  streamChapterId: string | null;
  /**
   * When the loaded file is the opening of a chapter still converting (its first minutes,
   * converted first), the opening's length in seconds; null for a whole chapter or book. When the
   * opening ends, playback goes on in the whole chapter's file from there.
   */
  streamOpeningSeconds: number | null;
  isLoading: boolean;
  /** What went wrong, in words for the reader (never the browser's own message). */
  error: string | null;
  /** Something to tell the reader that is not an error ("Tap play to start"). */
  notice: string | null;
  /** The running sleep timer, or null when it is off. */
  sleepTimer: SleepTimer | null;
  /**
   * Where the listener was before a jump they did not drag to ("Play from here", a chapter, the
   * assistant's "continue"): offered as "Back to 2:46" for a while (controls.ts), else null.
   */
  returnTo: number | null;
}

/**
 * A running sleep timer. `minutes`: `remaining` seconds of playing time left (it counts only while
 * the book plays). `chapterEnd`: pauses when the position reaches `endsAt` (the end of the chapter
 * playing when it was set, or after a seek, the chapter sought to).
 */
export type SleepTimer =
  { mode: 'minutes'; minutes: number; remaining: number } | { mode: 'chapterEnd'; endsAt: number; remaining: number };

const initialState: PlayerState = {
  isPlaying: false,
  currentPosition: 0,
  duration: 0,
  volume: 1,
  playbackRate: 1,
  currentJobId: null,
  currentChapter: null,
  streamFrom: null,
  streamStart: 0,
  streamChapterId: null,
  streamOpeningSeconds: null,
  isLoading: false,
  error: null,
  notice: null,
  sleepTimer: null,
  returnTo: null,
};

export const state = proxy<PlayerState>(structuredClone(initialState));

/** Whether Lectio's server answers (connection.ts); the outage banner renders from it. */
export const connection = proxy({ reachable: true });

/** Back to the initial state, with `patch` on top. */
export function resetState(patch: Partial<PlayerState> = {}): void {
  Object.assign(state, structuredClone(initialState), patch);
}

/** A book is loaded and can play: the one test of readiness every control and screen uses. */
export function isReady(player: Pick<PlayerState, 'streamFrom' | 'isLoading'>): boolean {
  return player.streamFrom !== null && !player.isLoading;
}

/** The sleep timer's fade: 1, then down to 0 over its last SLEEP_FADE_SECONDS. */
export function sleepFade(player: Pick<PlayerState, 'sleepTimer'>): number {
  const timer = player.sleepTimer;
  if (!timer || timer.remaining >= SLEEP_FADE_SECONDS) return 1;
  return Math.min(1, Math.max(0, timer.remaining / SLEEP_FADE_SECONDS));
}

/**
 * The parts of an <audio> element the player drives. The real element comes from PlayerAudio;
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

/** A place the server could not be told (the network was away), for the device's queue. */
export interface UnsentPlace {
  jobId: string;
  /** Seconds into the book. */
  position: number;
  chapterId: string | null;
  /** When the listener was there (ms since the epoch). */
  madeAt: number;
}

/**
 * What this device keeps for the listener (attachDeviceKeeping, saving.ts; the app hands in the
 * books kept on it): where saves go that cannot reach the server, sent later (`holds`: a save of
 * this book goes there now), which books play without the server, and forgetting it all when the
 * account signs out.
 */
export interface DeviceKeeping {
  holds: (jobId: string) => boolean;
  keep: (place: UnsentPlace) => void;
  /** The book's audio is kept on this device: it plays on when the server cannot be reached. */
  keptOnDevice: (jobId: string) => boolean;
  /** Signing out: nothing of this account stays on the device. */
  forgetAccount: () => Promise<void>;
}

/** A timer handle, as the environment's setTimeout and setInterval return it. */
type TimerHandle = unknown;

/** The player's non-reactive parts (see the comment on PlayerState). */
export interface PlayerRuntime {
  /** The environment in force (environment.ts); null: the browser's own (settings.ts). */
  environment: PlayerEnvironment | null;
  /** The data cache the app hands the player (attachPlayer, data.ts); null before it does. */
  queryClient: QueryClient | null;
  /** The <audio> element PlayerAudio hands in (attachMedia, media.ts). */
  media: MediaElement | null;
  /** Bumped by every load: an answer for an older load is dropped. */
  loadToken: number;
  /** Called after every position update from the element (the sleep timer watches them). */
  positionListeners: Set<() => void>;
  /** The wait for a chapter still converting: its poll timer, and a count that drops stale answers. */
  waitTimer: TimerHandle | null;
  waitRound: number;
  /** The periodic save, and the position saved (or loaded) last: a save at the same place is skipped. */
  saveTimer: TimerHandle | null;
  lastSavedPosition: number | null;
  /** The sleep timer's clocks: its tick, and a one-off timer for the very end of a chapter. */
  sleepTicker: TimerHandle | null;
  lastSleepTick: number;
  sleepEndTimer: TimerHandle | null;
  stopWatchingPosition: (() => void) | null;
  /** When "Back to …" stops being offered. */
  returnTimer: TimerHandle | null;
  /** The volume before muting, given back on unmute. */
  volumeBeforeMute: number;
  /** What this device keeps (attachDeviceKeeping, saving.ts); null: none attached. */
  deviceKeeping: DeviceKeeping | null;
  /** The cache whose failed queries are asked again when the server is back (connection.ts). */
  watchedClient: QueryClient | null;
  /** The next probe of an unreachable server. */
  probeTimer: TimerHandle | null;
  /** Called with the new reachability whenever it changes. */
  connectionListeners: Set<(reachable: boolean) => void>;
}

export const runtime: PlayerRuntime = {
  environment: null,
  queryClient: null,
  media: null,
  loadToken: 0,
  positionListeners: new Set(),
  waitTimer: null,
  waitRound: 0,
  saveTimer: null,
  lastSavedPosition: null,
  sleepTicker: null,
  lastSleepTick: 0,
  sleepEndTimer: null,
  stopWatchingPosition: null,
  returnTimer: null,
  volumeBeforeMute: 1,
  deviceKeeping: null,
  watchedClient: null,
  probeTimer: null,
  connectionListeners: new Set(),
};

/**
 * Hands the player the data cache it reads and writes. Returns the function that takes it back
 * (the cache attached before, if any, is in force again).
 */
export function attachPlayer(client: QueryClient): () => void {
  const previous = runtime.queryClient;
  runtime.queryClient = client;
  return () => {
    if (runtime.queryClient === client) runtime.queryClient = previous;
  };
}
