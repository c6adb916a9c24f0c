import { StorageFullError, type FileStorage } from './types';

/** How long a free-space reading is trusted (statfs is cheap, but a burst of uploads needs one). */
const READING_MS = 1_000;

export interface StorageHealth {
  /** 'full' when the store's free space is under the floor; 'ok' otherwise (also for stores with no such limit). */
  state(): Promise<'ok' | 'full'>;
  /** Throws StorageFullError (507) when the store is full: called before anything new is accepted. */
  assertRoom(): Promise<void>;
}

/**
 * The free-space floor of the file store (STORAGE_MIN_FREE_BYTES): under it, /readyz says
 * "storage full" and new uploads and jobs get 507 with a clear message, before a write would fail
 * half-way. A floor of 0 turns the check off.
 */
export function createStorageHealth(storage: Pick<FileStorage, 'freeBytes'>, minFreeBytes: number): StorageHealth {
  let reading: { at: number; free: number | null } | null = null;
  const free = async (): Promise<number | null> => {
    if (storage.freeBytes === undefined || minFreeBytes <= 0) return null;
    const now = Date.now();
    if (reading === null || now - reading.at > READING_MS) reading = { at: now, free: await storage.freeBytes() };
    return reading.free;
  };
  const state = async (): Promise<'ok' | 'full'> => {
    const bytes = await free();
    return bytes !== null && bytes < minFreeBytes ? 'full' : 'ok';
  };
  return {
    state,
    async assertRoom() {
      if ((await state()) === 'full') throw new StorageFullError();
    },
  };
}
