import { proxy } from 'valtio';

/**
 * Books kept on this device (docs/listening.md#keeping-a-book-on-this-device), as client state:
 * which books are kept and what they take, the downloads under way, the places the server could
 * not be told yet, and the newer places found on the server for them. The kept index and the
 * unsent places are written to the browser's storage (persist.ts) and read back on the next
 * start; the bytes themselves are in Cache Storage (cache.ts).
 *
 * Two holders, and nothing else mutable at module level: `kept`, the Valtio proxy screens render
 * from, and `runtime`, one plain object for what must not be reactive (the downloads' abort
 * controllers, the storage the feature writes to).
 */

/** A book kept on this device: what the library shows of it offline, and what it takes. */
export interface KeptBook {
  id: string;
  title: string;
  author: string | null;
  /** The voice that read it, as the library names it ("Offline voice"). */
  voice: string;
  /** Seconds. */
  duration: number;
  chapters: number;
  /** Everything kept for it (audio, answers, cover, read-along), in bytes. */
  bytes: number;
  /** ISO time it was kept. */
  keptAt: string;
  /** When it was created (the library's "Date added" sort). */
  createdAt: string;
  /** The kept responses' keys (keptKey) in the kept books' cache. */
  keys: string[];
  /** The read-along's chapter numbers kept (their answers are in the read-along cache). */
  readAlong: number[];
  /** The browser granted persistent storage: it will not clear the book when space runs low. */
  persisted: boolean;
}

/** A download under way, or one that failed (nothing of it is kept then). */
export type Download =
  | { status: 'downloading'; /** 0..100 */ percent: number }
  | { status: 'failed'; /** What went wrong, in words for the reader. */ message: string };

/** A place the player could not save (the network was away): sent when the app is online again. */
export interface UnsentPlace {
  jobId: string;
  /** Seconds into the book. */
  position: number;
  chapterId: string | null;
  /** When the listener was there (ms since the epoch): the later place wins. */
  madeAt: number;
}

/** The server holds a newer place for a book than the one kept here (another device's). */
export interface PlaceOffer {
  jobId: string;
  /** Seconds into the book. */
  position: number;
  chapterId: string | null;
  /** ISO time the server's place was saved. */
  savedAt: string;
  /** This device's latest place, sent after all when the listener keeps it. */
  local: UnsentPlace;
}

export interface KeptState {
  /** Kept books by id. */
  books: Record<string, KeptBook>;
  /** Downloads under way (or failed) by book id. */
  downloads: Record<string, Download>;
  /** The latest unsent place per book id. */
  unsent: Record<string, UnsentPlace>;
  /** Newer places on the server, offered instead of overwriting them, by book id. */
  offers: Record<string, PlaceOffer>;
  /** A round of sending unsent places is under way. */
  sending: boolean;
}

/** Where the index and the unsent places are written: localStorage, or a test's own. */
export type KeptStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface KeptRuntime {
  /** Abort controllers of the downloads under way, by book id. */
  aborts: Map<string, AbortController>;
  /** The storage the index and the unsent places live in; null: none (private mode, a test). */
  storage: KeptStorage | null;
}

function browserStorage(): KeptStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage blocked by the browser's settings.
    return null;
  }
}

export const runtime: KeptRuntime = { aborts: new Map(), storage: browserStorage() };

export const INDEX_KEY = 'lectio.keptBooks';
export const UNSENT_KEY = 'lectio.unsentPlaces';

/** A JSON value written under `key`, or `fallback` when there is none or it is unreadable. */
function readStored<T>(key: string, fallback: T): T {
  try {
    const text = runtime.storage?.getItem(key);
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

function initialState(): KeptState {
  return {
    books: readStored<Record<string, KeptBook>>(INDEX_KEY, {}),
    downloads: {},
    unsent: readStored<Record<string, UnsentPlace>>(UNSENT_KEY, {}),
    offers: {},
    sending: false,
  };
}

export const kept = proxy<KeptState>(initialState());

/**
 * Reads the index and the unsent places again from `storage` (the browser's by default), with
 * nothing under way: every story and test starts from what its storage holds.
 */
export function resetKept(storage: KeptStorage | null = browserStorage()): void {
  for (const controller of runtime.aborts.values()) controller.abort();
  runtime.aborts.clear();
  runtime.storage = storage;
  Object.assign(kept, initialState());
}

/** Whether `jobId` is kept on this device. */
export function isKept(state: Pick<KeptState, 'books'>, jobId: string): boolean {
  return jobId in state.books;
}
