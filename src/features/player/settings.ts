/** Player timings and steps (docs/product.md#player). */
export const SAVE_INTERVAL_MS = 10_000;
export const SEEK_THRESHOLD_SECONDS = 1;
export const SKIP_SECONDS = 10;
export const VOLUME_STEP = 0.1;
export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
/** Sleep timer (docs/listening.md#player-controls): the minutes offered, the fade and its tick. */
export const SLEEP_MINUTES = [15, 30, 45, 60] as const;
export const SLEEP_FADE_SECONDS = 10;
export const SLEEP_TICK_MS = 250;
/**
 * While the player waits for a chapter still converting (docs/listening.md#listening-while-a-book-converts),
 * it asks the book's metadata this often; the book page polls a converting book as often.
 */
export const CONVERTING_POLL_MS = 3_000;

/** Where the last book played is remembered, so the mini player comes back after a reload. */
export const LAST_BOOK_KEY = 'lectio.lastBook';

/**
 * I/O the player uses, swappable in tests: the clock for the periodic save and the sleep timer,
 * and where speeds are kept. (The data cache is handed in apart: attachPlayer, store.ts.)
 */
export interface PlayerEnvironment {
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** Milliseconds on a clock that only moves forward (the sleep timer measures with it). */
  now: () => number;
  storage: () => Pick<Storage, 'getItem' | 'setItem'> | null;
}

/** The browser's own clock and storage. */
export const defaultEnvironment: PlayerEnvironment = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
  storage: () => (typeof localStorage === 'undefined' ? null : localStorage),
};
