import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { UUID_PATTERN } from '../uuid';
import {
  assertValidKey,
  InvalidStorageKeyError,
  serialisedWriter,
  sliceByStat,
  TEMP_DIR_NAME,
  writeThrough,
  type ByteRange,
  type FileStorage,
  type StorageWriter,
  type StoredSlice,
} from './types';

/** Temp files older than this are leftovers of a crashed process and are removed on first use. */
const STALE_TEMP_MS = 6 * 60 * 60 * 1000;

/**
 * Temp files are named `<pid>-<uuid>@<host tag>`: a process starting up can tell the files of a
 * dead process on its own machine (removed at once) from those of a live writer, here or on
 * another machine sharing the storage directory (left alone until they are stale).
 */
const HOST_TAG = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 12);
const TEMP_NAME = new RegExp(`^(\\d+)-${UUID_PATTERN}(?:@([0-9a-f]+))?$`);

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, 'EPERM'); // exists, but belongs to someone else
  }
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === code;
}

/**
 * FileStorage on the local disk under `rootDir`. Writes go to `<root>/.tmp-writes/<uuid>` and are
 * renamed into place on commit (same filesystem, so the rename is atomic): a reader sees the old
 * file or the complete new one, never a partial one.
 */
export class LocalFileStorage implements FileStorage {
  readonly rootDir: string;
  private readonly tempDir: string;
  private tempReady: Promise<void> | null = null;

  constructor(rootDir: string) {
    this.rootDir = path.resolve(rootDir);
    this.tempDir = path.join(this.rootDir, TEMP_DIR_NAME);
  }

  /** Absolute path of a key; throws InvalidStorageKeyError for anything that could leave the root. */
  pathOf(key: string): string {
    assertValidKey(key);
    const full = path.resolve(this.rootDir, ...key.split('/'));
    if (!full.startsWith(this.rootDir + path.sep)) throw new InvalidStorageKeyError(key, 'escapes the storage root');
    return full;
  }

  async write(key: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<{ size: number }> {
    return writeThrough(this, key, data);
  }

  async createWriter(key: string): Promise<StorageWriter> {
    const target = this.pathOf(key);
    await this.ensureTempDir();
    const tempPath = path.join(this.tempDir, `${process.pid}-${randomUUID()}@${HOST_TAG}`);
    const handle = await fs.open(tempPath, 'wx');
    return serialisedWriter(key, {
      writeChunk: async (chunk) => {
        let offset = 0;
        while (offset < chunk.byteLength) {
          const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
          offset += bytesWritten;
        }
      },
      finish: async () => {
        await handle.sync();
        await handle.close();
        await this.renameIntoPlace(tempPath, target);
      },
      discard: async () => {
        await handle.close().catch(() => undefined);
        await fs.rm(tempPath, { force: true }).catch(() => undefined);
      },
    });
  }

  /**
   * A new private directory for a build's scratch files (an M4B being encoded, a cover being
   * converted), beside the half-written files: on the store's own disk, so the free-space floor
   * counts it, and named like them, so a start after a crash removes what a dead process left.
   * The caller removes it when done.
   */
  async makeScratchDir(): Promise<string> {
    await this.ensureTempDir();
    const dir = path.join(this.tempDir, `${process.pid}-${randomUUID()}@${HOST_TAG}`);
    await fs.mkdir(dir, { mode: 0o700 });
    return dir;
  }

  /** Free space on the storage directory's filesystem, for unprivileged writers. */
  async freeBytes(): Promise<number> {
    await fs.mkdir(this.rootDir, { recursive: true });
    const stats = await fs.statfs(this.rootDir);
    return stats.bavail * stats.bsize;
  }

  /** Local files are served by this server (signed /media URLs). */
  async directUrl(key: string): Promise<string | null> {
    assertValidKey(key);
    return null;
  }

  read(key: string, range?: ByteRange): NodeJS.ReadableStream {
    let file: string;
    try {
      file = this.pathOf(key);
    } catch (error) {
      const stream = new PassThrough();
      process.nextTick(() => stream.destroy(error as Error));
      return stream;
    }
    if (range) {
      if (
        !Number.isSafeInteger(range.start) ||
        !Number.isSafeInteger(range.end) ||
        range.start < 0 ||
        range.end < range.start
      ) {
        throw new RangeError(`Invalid byte range ${range.start}-${range.end}`);
      }
      return createReadStream(file, { start: range.start, end: range.end });
    }
    return createReadStream(file);
  }

  readSlice(key: string, start: number, end?: number): Promise<StoredSlice | null> {
    return sliceByStat(this, key, start, end);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const file = this.pathOf(key);
    try {
      const info = await fs.stat(file);
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    try {
      const info = await fs.stat(file);
      if (!info.isFile()) return;
      await fs.rm(file, { force: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return;
      throw error;
    }
    await this.pruneEmptyDirs(path.dirname(file));
  }

  async deletePrefix(prefix: string): Promise<void> {
    // A prefix is a valid key, or a valid key followed by "/" (a "folder").
    const asKey = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
    assertValidKey(asKey);
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash >= 0 ? prefix.slice(0, slash) : '';
    const namePrefix = prefix.slice(slash + 1);
    const dir = dirKey === '' ? this.rootDir : this.pathOf(dirKey);
    let entries: string[];
    try {
      entries = await fs.readdir(dir);
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return;
      throw error;
    }
    for (const name of entries) {
      if (dirKey === '' && name === TEMP_DIR_NAME) continue;
      if (name.startsWith(namePrefix)) await fs.rm(path.join(dir, name), { recursive: true, force: true });
    }
    await this.pruneEmptyDirs(dir);
  }

  /** Names in the temp directory (none when it does not exist yet). */
  private async tempFileNames(): Promise<string[]> {
    try {
      return await fs.readdir(this.tempDir);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return [];
      throw error;
    }
  }

  /** Removes temp files left behind by crashed processes (older than `olderThanMs`). */
  async cleanStaleTempFiles(olderThanMs = STALE_TEMP_MS): Promise<number> {
    let removed = 0;
    const names = await this.tempFileNames();
    const cutoff = Date.now() - olderThanMs;
    for (const name of names) {
      const file = path.join(this.tempDir, name);
      try {
        const info = await fs.stat(file);
        if (info.mtimeMs <= cutoff) {
          await fs.rm(file, { force: true, recursive: true });
          removed += 1;
        }
      } catch {
        // Raced with its owner committing or aborting: nothing to clean.
      }
    }
    return removed;
  }

  /**
   * At start: removes the temp files that no live process can finish. Those of dead processes on
   * this machine go at once (names without a host tag come from before tags were added, and are
   * treated as this machine's); another machine's go once they are stale. Returns how many went.
   */
  async removeOrphanedTempFiles(olderThanMs = STALE_TEMP_MS): Promise<number> {
    const names = await this.tempFileNames();
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.tempDir, name);
      const match = TEMP_NAME.exec(name);
      try {
        let orphaned: boolean;
        if (match !== null && (match[2] === undefined || match[2] === HOST_TAG)) {
          const pid = Number(match[1]);
          orphaned = pid !== process.pid && !isProcessAlive(pid);
        } else {
          orphaned = (await fs.stat(file)).mtimeMs <= cutoff;
        }
        if (orphaned) {
          await fs.rm(file, { force: true, recursive: true });
          removed += 1;
        }
      } catch {
        // Raced with its owner committing or aborting: nothing to clean.
      }
    }
    return removed;
  }

  private ensureTempDir(): Promise<void> {
    this.tempReady ??= (async () => {
      await fs.mkdir(this.tempDir, { recursive: true });
      await this.cleanStaleTempFiles();
    })().catch((error: unknown) => {
      this.tempReady = null;
      throw error;
    });
    return this.tempReady;
  }

  private async renameIntoPlace(tempPath: string, target: string): Promise<void> {
    // A concurrent delete may prune the freshly created parent directory; retry once in that case.
    for (let attempt = 0; ; attempt += 1) {
      await fs.mkdir(path.dirname(target), { recursive: true });
      try {
        await fs.rename(tempPath, target);
        return;
      } catch (error) {
        if (attempt < 2 && isErrno(error, 'ENOENT')) continue;
        throw error;
      }
    }
  }

  /** Removes now-empty directories from `dir` up to (not including) the root. */
  private async pruneEmptyDirs(dir: string): Promise<void> {
    let current = dir;
    while (current.startsWith(this.rootDir + path.sep)) {
      try {
        await fs.rmdir(current);
      } catch {
        return; // not empty (or already gone / in use): stop
      }
      current = path.dirname(current);
    }
  }
}
