/**
 * Scratch space for the files a build needs on disk while it runs (ffmpeg writes an M4B to a
 * file, reads a cover from one). It lives beside the store's half-written files: with local
 * storage on the store's own disk (the free-space floor, STORAGE_MIN_FREE_BYTES, counts it),
 * with object storage under DATA_DIR/scratch. Either way a server start removes what a process
 * that died mid-build left there, and a build removes its directory when it ends.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { LocalFileStorage } from './local';
import type { FileStorage } from './types';

export interface Scratch {
  /** Runs `work` with a fresh private directory, removed when it ends, whether it succeeded or not. */
  withDir<T>(work: (dir: string) => Promise<T>): Promise<T>;
  /** Free bytes on the scratch directory's filesystem. */
  freeBytes(): Promise<number>;
  /** At start: removes directories of processes that died; answers how many went. */
  removeOrphaned(): Promise<number>;
}

/** The scratch space of a server whose store is `storage` and whose data directory is `dataDir`. */
export function createScratch(storage: FileStorage, dataDir: string): Scratch {
  const home = storage instanceof LocalFileStorage ? storage : new LocalFileStorage(path.join(dataDir, 'scratch'));
  return {
    async withDir(work) {
      const dir = await home.makeScratchDir();
      try {
        return await work(dir);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    freeBytes: () => home.freeBytes(),
    removeOrphaned: () => home.removeOrphanedTempFiles(),
  };
}

/** The lower of the store's and the scratch space's free bytes (null when neither can tell). */
export async function lowestFreeBytes(storage: Pick<FileStorage, 'freeBytes'>, scratch: Scratch): Promise<number> {
  const [store, local] = await Promise.all([storage.freeBytes?.() ?? null, scratch.freeBytes()]);
  return store === null ? local : Math.min(store, local);
}
