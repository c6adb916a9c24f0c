/** Reading a whole stored file: the one place that gathers a storage key's chunks. */
import type { FileStorage } from '../storage/types';

/**
 * The file's bytes in one buffer that owns its memory (its `.buffer` is exactly the file, so it
 * can be handed to a thread). A missing file fails as the storage fails (ENOENT, ...).
 */
export async function readWhole(storage: FileStorage, key: string): Promise<Buffer> {
  return gathered(storage.read(key));
}

/** A stream's chunks in one buffer that owns its memory. */
async function gathered(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string | Uint8Array>) {
    const part =
      typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    parts.push(part);
    size += part.byteLength;
  }
  const whole = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const part of parts.splice(0)) {
    whole.set(part, at);
    at += part.byteLength;
  }
  return whole;
}

/**
 * The file's bytes as readWhole gives them, or null when there is no such file: one call to the store (an object store
 * answers a read from the first byte with the bytes, a missing one with 404), not a stat and a read.
 */
export async function readWholeIfStored(storage: FileStorage, key: string): Promise<Buffer | null> {
  const read = await storage.readSlice(key, 0);
  if (read === null) return null;
  if (read.slice === null) return Buffer.alloc(0); // an empty file: no first byte to read
  return gathered(read.slice.stream);
}

/** The file as UTF-8 text; null when there is no such file. */
export async function readTextIfStored(storage: FileStorage, key: string): Promise<string | null> {
  return (await readWholeIfStored(storage, key))?.toString('utf8') ?? null;
}
