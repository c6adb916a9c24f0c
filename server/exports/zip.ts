/**
 * A ZIP archive streamed into storage with fflate's streaming Zip: audio is stored as is (MP3
 * does not compress), text is deflated. fflate emits bytes synchronously as entries are pushed;
 * they are written out before the next chunk is read, so memory holds one chunk at a time.
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { StorageWriter } from '../storage/types';

export interface ZipSink {
  /** An entry stored without compression, its bytes read from `source` as they come. */
  store(name: string, source: Uint8Array | AsyncIterable<Uint8Array | string>, signal?: AbortSignal): Promise<void>;
  /** An entry compressed with deflate. */
  deflate(name: string, data: Uint8Array | string): Promise<void>;
  /** Writes the central directory; the archive is complete once this resolves. */
  end(): Promise<void>;
}

/** Entries carry a fixed modification time, so the same book always gives the same bytes. */
const MTIME = new Date('2020-01-01T00:00:00Z');

export function zipInto(writer: StorageWriter): ZipSink {
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else pending.push(chunk);
  });
  async function flush(): Promise<void> {
    if (failure !== null) throw failure;
    while (pending.length > 0) await writer.write(pending.shift()!);
  }
  const bytes = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

  return {
    async store(name, source, signal) {
      const entry = new ZipPassThrough(name);
      entry.mtime = MTIME;
      zip.add(entry);
      if (source instanceof Uint8Array) {
        entry.push(source, true);
        return flush();
      }
      for await (const chunk of source) {
        signal?.throwIfAborted();
        entry.push(bytes(chunk));
        await flush();
      }
      entry.push(new Uint8Array(0), true);
      await flush();
    },
    async deflate(name, data) {
      const entry = new ZipDeflate(name, { level: 6 });
      entry.mtime = MTIME;
      zip.add(entry);
      entry.push(bytes(data), true);
      await flush();
    },
    async end() {
      zip.end();
      await flush();
    },
  };
}
