/**
 * A ZIP archive read with real bounds (yauzl), for EPUB books. Runs in the document reader's
 * thread (reader.ts), never on the server's event loop.
 *
 * - The directory is read first: more than `maxEntries` entries, or declared sizes adding up to
 *   more than `maxTotalBytes`, refuse the archive before anything is expanded.
 * - An entry is expanded only as far as its declared size (yauzl stops the stream at one byte
 *   more), so a file that declares 2,000 bytes and holds a gigabyte costs 2,001 bytes of work.
 * - An entry is damaged when its data does not end exactly at its declared size or when its
 *   CRC-32 is not the one the archive records; `DamagedEntry` says which.
 */
import { crc32 } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

export class DamagedArchive extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DamagedArchive';
  }
}

export class DamagedEntry extends Error {
  readonly entry: string;
  constructor(entry: string, message: string) {
    super(message);
    this.name = 'DamagedEntry';
    this.entry = entry;
  }
}

export class ArchiveTooLarge extends Error {
  readonly reason: 'entries' | 'bytes';
  constructor(reason: 'entries' | 'bytes') {
    super(reason === 'entries' ? 'too many entries' : 'expands too far');
    this.name = 'ArchiveTooLarge';
    this.reason = reason;
  }
}

export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
}

export interface BoundedZip {
  /** Entry names, in the archive's order (directories included). */
  names: string[];
  /** The expanded bytes of the wanted entries that exist, each checked against its size and CRC-32. */
  read(wanted: Set<string>): Promise<Record<string, Uint8Array>>;
}

async function readEntry(zip: ZipFile, entry: Entry): Promise<Uint8Array> {
  let stream;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw new DamagedEntry(entry.fileName, (error as Error).message);
  }
  const chunks: Buffer[] = [];
  let crc = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      crc = crc32(chunk, crc);
    }
  } catch (error) {
    // yauzl's own words: "too many bytes in the stream", "not enough bytes", or zlib's "invalid block type".
    throw new DamagedEntry(entry.fileName, (error as Error).message);
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) throw new DamagedEntry(entry.fileName, 'its checksum does not match its data');
  const bytes = Buffer.concat(chunks);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Opens the archive and reads its directory within `limits`. */
export async function openBoundedZip(bytes: Uint8Array, limits: ZipLimits): Promise<BoundedZip> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw new DamagedArchive((error as Error).message);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ArchiveTooLarge('entries');
  }
  const entries = new Map<string, Entry>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) throw new ArchiveTooLarge('bytes');
      entries.set(entry.fileName, entry);
    }
  } catch (error) {
    zip.close();
    if (error instanceof ArchiveTooLarge) throw error;
    throw new DamagedArchive((error as Error).message);
  }
  return {
    names: [...entries.keys()],
    async read(wanted) {
      const out: Record<string, Uint8Array> = {};
      for (const name of wanted) {
        const entry = entries.get(name);
        if (entry !== undefined) out[name] = await readEntry(zip, entry);
      }
      return out;
    },
  };
}
