/** Storage of opaque files (audio, uploads) addressed by slash-separated keys such as `books/42/ch-001.mp3`. */
import { DomainError } from '../errors';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive (as in an HTTP Content-Range). */
  end: number;
}

/** What readSlice answers: the file's size, and the bytes asked for when the file has them. */
export interface StoredSlice {
  size: number;
  slice: { start: number; end: number; stream: NodeJS.ReadableStream } | null;
}

/** readSlice from a stat and a ranged read: for a store that cannot answer both in one call. */
export async function sliceByStat(
  storage: Pick<FileStorage, 'stat' | 'read'>,
  key: string,
  start: number,
  end?: number,
): Promise<StoredSlice | null> {
  const info = await storage.stat(key);
  if (info === null) return null;
  if (start >= info.size) return { size: info.size, slice: null };
  const last = Math.min(end ?? info.size - 1, info.size - 1);
  return { size: info.size, slice: { start, end: last, stream: storage.read(key, { start, end: last }) } };
}

/**
 * An open, not yet visible write. Chunks go to a temporary file; only `commit()` makes the file
 * appear under its key (atomically, replacing any previous version). `abort()` discards it.
 */
export interface StorageWriter {
  readonly key: string;
  write(chunk: Uint8Array): Promise<void>;
  commit(): Promise<{ size: number }>;
  abort(): Promise<void>;
}

export interface FileStorage {
  /** Writes a whole file atomically. If the iterable throws, nothing is left under the key. */
  write(key: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<{ size: number }>;
  createWriter(key: string): Promise<StorageWriter>;
  /** A stream of the file (or of the inclusive byte range). Emits an error if the key does not exist. */
  read(key: string, range?: ByteRange): NodeJS.ReadableStream;
  stat(key: string): Promise<{ size: number } | null>;
  /**
   * Bytes `start` to `end` (inclusive; to the file's end when undefined or past it) and the file's
   * size, in one round trip where the store can (an object store's ranged GET answers both). Null
   * when the key does not exist; `slice` null when `start` is at or past the end.
   */
  readSlice(key: string, start: number, end?: number): Promise<StoredSlice | null>;
  /** Deletes the file; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every file whose key starts with `prefix` (plain string prefix, e.g. `books/42/`). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A URL a client may GET the file from directly for `expiresInSeconds` (an object store's
   * presigned URL, Range requests included), or null when the files are served by this server.
   */
  directUrl(key: string, expiresInSeconds: number): Promise<string | null>;
  /**
   * Bytes still free where the files are kept (a disk's space left to unprivileged writers), or
   * null when the store has no such limit to report (an object store).
   */
  freeBytes?(): Promise<number | null>;
}

/**
 * The store cannot be reached or answers with a server error: nothing is wrong with the request,
 * try again later. HTTP answers 503; a conversion step waits and runs again (the job is not failed).
 */
/** Writes `data` through a fresh writer of `storage`: committed whole, or aborted (nothing left) on any error. */
export async function writeThrough(
  storage: Pick<FileStorage, 'createWriter'>,
  key: string,
  data: Uint8Array | AsyncIterable<Uint8Array>,
): Promise<{ size: number }> {
  const writer = await storage.createWriter(key);
  try {
    if (data instanceof Uint8Array) {
      await writer.write(data);
    } else {
      for await (const chunk of data) await writer.write(chunk);
    }
    return await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** What differs between stores in a writer; `serialisedWriter` adds the order and state rules. */
export interface WriterBackend {
  /** Writes one chunk; called one at a time, in order. */
  writeChunk(chunk: Uint8Array): Promise<void>;
  /** Makes the written bytes visible under the key; called once, after the last chunk. */
  finish(): Promise<void>;
  /** Throws away what was written (after a failure or an abort). */
  discard(): Promise<void>;
}

/**
 * A StorageWriter over a backend. Writes are serialised so callers that do not await each write
 * still get their bytes in order; the first failure sticks, so commit throws it and discards.
 */
export function serialisedWriter(key: string, backend: WriterBackend): StorageWriter {
  let state: 'open' | 'committed' | 'aborted' = 'open';
  let size = 0;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  const closed = () => new Error(`Writer for ${key} is already ${state}`);
  return {
    key,
    write: (chunk: Uint8Array): Promise<void> => {
      if (state !== 'open') return Promise.reject(closed());
      const next = chain.then(async () => {
        if (failure) throw failure;
        await backend.writeChunk(chunk);
        size += chunk.byteLength;
      });
      chain = next.catch((error: unknown) => {
        failure ??= error;
      });
      return next;
    },
    commit: async (): Promise<{ size: number }> => {
      if (state !== 'open') throw closed();
      state = 'committed';
      await chain;
      try {
        if (failure) throw failure;
        await backend.finish();
        return { size };
      } catch (error) {
        await backend.discard();
        throw error;
      }
    },
    abort: async (): Promise<void> => {
      if (state !== 'open') return;
      state = 'aborted';
      await chain;
      await backend.discard();
    },
  };
}

/** The store cannot be reached: the request (503, Retry-After 5) or the job (queued again later) waits it out. */
export class StorageUnavailableError extends DomainError {
  constructor(cause: unknown) {
    super('unavailable', 'The file store is unavailable; try again shortly', { cause, retryAfterSeconds: 5 });
    this.name = 'StorageUnavailableError';
  }
}

/** The disk holding the files is full (ENOSPC, or a quota: EDQUOT). */
export function isDiskFull(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'ENOSPC' || code === 'EDQUOT' || error instanceof StorageFullError;
}

/**
 * The server's storage has less free space than its floor (STORAGE_MIN_FREE_BYTES), or a write
 * found the disk full: new uploads and jobs are refused (507) until space is freed; a job that
 * failed this way completes when retried afterwards.
 */
export class StorageFullError extends DomainError {
  constructor(cause?: unknown) {
    super(
      'insufficient_storage',
      "The server's storage is full, so nothing new can be stored for now. Try again later; the server's operator has been told",
      { cause, retryable: false },
    );
    this.name = 'StorageFullError';
  }
}

export function isStorageUnavailable(error: unknown): error is StorageUnavailableError {
  return error instanceof StorageUnavailableError;
}

export class InvalidStorageKeyError extends Error {
  readonly key: string;
  constructor(key: string, reason: string) {
    super(`Invalid storage key ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}: ${reason}`);
    this.name = 'InvalidStorageKeyError';
    this.key = key;
  }
}

export const MAX_KEY_LENGTH = 300;
const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
/** Reserved first segment for temporary files inside the storage root. */
export const TEMP_DIR_NAME = '.tmp-writes';

/** Throws InvalidStorageKeyError unless `key` is a safe relative key that cannot escape the root. */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidStorageKeyError(String(key), 'empty');
  if (key.length > MAX_KEY_LENGTH) throw new InvalidStorageKeyError(key, `longer than ${MAX_KEY_LENGTH} characters`);
  if (!KEY_PATTERN.test(key)) {
    throw new InvalidStorageKeyError(key, 'only letters, digits, ".", "_", "-" and single "/" separators are allowed');
  }
  if (key.includes('..')) throw new InvalidStorageKeyError(key, '".." is not allowed');
  for (const segment of key.split('/')) {
    if (segment === '.') throw new InvalidStorageKeyError(key, '"." segments are not allowed');
  }
  if (key.split('/')[0] === TEMP_DIR_NAME) throw new InvalidStorageKeyError(key, `"${TEMP_DIR_NAME}" is reserved`);
}

export function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}
