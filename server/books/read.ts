/** Reading a whole stored file: the one place that gathers a storage key's chunks. */
import type { FileStorage } from '../storage/types';

/**
 * The file's bytes in one buffer that owns its memory (its `.buffer` is exactly the file, so it
 * can be handed to a thread). A missing file fails as the storage fails (ENOENT, ...).
 */
export async function readWhole(storage: FileStorage, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of storage.read(key) as AsyncIterable<Buffer | string | Uint8Array>) {
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

/** The file as UTF-8 text. */
export async function readWholeText(storage: FileStorage, key: string): Promise<string> {
  return (await readWhole(storage, key)).toString('utf8');
}

/** The file as UTF-8 text; null when there is no such file. */
export async function readTextIfStored(storage: FileStorage, key: string): Promise<string | null> {
  if ((await storage.stat(key)) === null) return null;
  return readWholeText(storage, key);
}
