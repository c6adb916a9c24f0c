import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { startS3, S3_TEST_CREDENTIALS, type TestS3 } from '../../tests/support/s3';
import { LocalFileStorage } from './local';
import { S3FileStorage } from './s3';
import { StorageUnavailableError, type FileStorage } from './types';

// One behaviour, two adapters: every test here runs against the local disk and against a real
// S3-compatible server (s3rver on loopback).

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

let s3: TestS3;
let root: string;
let run = 0;

beforeAll(async () => {
  s3 = await startS3();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'lectio-contract-'));
}, 30_000);
afterAll(async () => {
  await s3?.destroy();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

function s3Storage(options: { presign?: boolean; maxAttempts?: number } = {}): S3FileStorage {
  run += 1;
  return new S3FileStorage({
    bucket: s3.bucket,
    prefix: `run-${run}`,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
    ...options,
  });
}

const adapters: [string, () => FileStorage][] = [
  ['local disk', () => new LocalFileStorage(path.join(root, `run-${(run += 1)}`))],
  ['S3 (s3rver)', () => s3Storage()],
];

describe.each(adapters)('FileStorage contract: %s', (_name, make) => {
  let storage: FileStorage;
  beforeEach(() => {
    storage = make();
  });

  it('writes bytes and reads them back, whole and by inclusive byte range', async () => {
    const data = new TextEncoder().encode('hello audiobook world');
    expect(await storage.write('books/1/ch-001.mp3', data)).toEqual({ size: data.length });
    expect(await storage.stat('books/1/ch-001.mp3')).toEqual({ size: data.length });
    expect((await readAll(storage.read('books/1/ch-001.mp3'))).toString()).toBe('hello audiobook world');
    expect((await readAll(storage.read('books/1/ch-001.mp3', { start: 6, end: 14 }))).toString()).toBe('audiobook');
    expect((await readAll(storage.read('books/1/ch-001.mp3', { start: 20, end: 20 }))).toString()).toBe('d');
  });

  it('streams a large file through a writer (multipart on S3) and reads any range of it', async () => {
    const writer = await storage.createWriter('books/2/big.mp3');
    const chunk = 256 * 1024;
    const total = 12 * 1024 * 1024 + 17; // more than two 5 MB parts
    for (let offset = 0; offset < total; offset += chunk) {
      const n = Math.min(chunk, total - offset);
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i += 1) bytes[i] = (offset + i) % 251;
      await writer.write(bytes);
    }
    // Invisible until committed.
    expect(await storage.stat('books/2/big.mp3')).toBeNull();
    expect(await writer.commit()).toEqual({ size: total });
    expect(await storage.stat('books/2/big.mp3')).toEqual({ size: total });
    const start = 5 * 1024 * 1024 - 3; // across a part boundary
    const middle = await readAll(storage.read('books/2/big.mp3', { start, end: start + 9 }));
    expect([...middle]).toEqual(Array.from({ length: 10 }, (_, i) => (start + i) % 251));
    const whole = await readAll(storage.read('books/2/big.mp3'));
    expect(whole.length).toBe(total);
    expect(whole[total - 1]).toBe((total - 1) % 251);
  }, 60_000);

  it('replaces a file only when the new version is complete; an aborted or failed write leaves the old one', async () => {
    await storage.write('a.bin', new Uint8Array([1, 2, 3]));
    const writer = await storage.createWriter('a.bin');
    await writer.write(new Uint8Array([7, 7]));
    expect([...(await readAll(storage.read('a.bin')))]).toEqual([1, 2, 3]);
    await writer.abort();
    expect([...(await readAll(storage.read('a.bin')))]).toEqual([1, 2, 3]);

    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array([9]);
      throw new Error('source broke');
    }
    await expect(storage.write('a.bin', failing())).rejects.toThrow('source broke');
    expect([...(await readAll(storage.read('a.bin')))]).toEqual([1, 2, 3]);

    async function* replacement(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array([9, 9]);
      yield new Uint8Array([8]);
    }
    expect(await storage.write('a.bin', replacement())).toEqual({ size: 3 });
    expect([...(await readAll(storage.read('a.bin')))]).toEqual([9, 9, 8]);
    await expect(writer.write(new Uint8Array(1))).rejects.toThrow(/aborted/);
  });

  it('reads a slice with the file’s size: clamped to the end, open-ended, past the end, missing', async () => {
    const data = new TextEncoder().encode('hello audiobook world');
    await storage.write('books/4/ch-001.mp3', data);
    const slice = async (start: number, end?: number) => {
      const read = await storage.readSlice('books/4/ch-001.mp3', start, end);
      if (read?.slice == null) return read;
      const { stream, ...where } = read.slice;
      return { size: read.size, ...where, text: (await readAll(stream)).toString() };
    };
    expect(await slice(6, 14)).toEqual({ size: data.length, start: 6, end: 14, text: 'audiobook' });
    expect(await slice(16, 99)).toEqual({ size: data.length, start: 16, end: 20, text: 'world' });
    expect(await slice(16)).toEqual({ size: data.length, start: 16, end: 20, text: 'world' });
    expect(await slice(21)).toEqual({ size: data.length, slice: null });
    expect(await storage.readSlice('books/4/missing.mp3', 0, 3)).toBeNull();
  });

  it('reports missing keys: stat is null, reading errors with ENOENT, deleting is fine', async () => {
    expect(await storage.stat('books/3/missing.mp3')).toBeNull();
    await expect(readAll(storage.read('books/3/missing.mp3'))).rejects.toThrow(/ENOENT|No file/);
    await storage.delete('books/3/missing.mp3');
  });

  it('deletes a prefix and nothing else', async () => {
    await storage.write('books/12/ch-1.mp3', new Uint8Array([1]));
    await storage.write('books/12/full/book.mp3', new Uint8Array([3]));
    await storage.write('books/123/ch-1.mp3', new Uint8Array([4]));
    await storage.deletePrefix('books/12/');
    expect(await storage.stat('books/12/ch-1.mp3')).toBeNull();
    expect(await storage.stat('books/12/full/book.mp3')).toBeNull();
    expect(await storage.stat('books/123/ch-1.mp3')).toEqual({ size: 1 });
    await storage.delete('books/123/ch-1.mp3');
    expect(await storage.stat('books/123/ch-1.mp3')).toBeNull();
  });

  it('refuses keys that could escape the root or are malformed', async () => {
    for (const key of ['../etc/passwd', '/abs', 'a//b', 'a/./b', '', 'a b']) {
      await expect(storage.stat(key)).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe('S3FileStorage', () => {
  it('hands out presigned GET URLs (Range included) only when presigning is on', async () => {
    const plain = s3Storage();
    await plain.write('books/9/a.mp3', new TextEncoder().encode('0123456789'));
    expect(await plain.directUrl('books/9/a.mp3', 60)).toBeNull();

    const presigning = s3Storage({ presign: true });
    await presigning.write('books/9/a.mp3', new TextEncoder().encode('0123456789'));
    const url = await presigning.directUrl('books/9/a.mp3', 60);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/lectio-test\/run-\d+\/books\/9\/a\.mp3\?.*X-Amz-Signature=/);
    const res = await fetch(url!, { headers: { range: 'bytes=2-5' } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('2345');
    // The URL lives as long as asked (the media link's own lifetime).
    expect(new URL(url!).searchParams.get('X-Amz-Expires')).toBe('60');
  });

  it('says the store is unavailable (not "missing") while it is down, and loses nothing', async () => {
    const storage = s3Storage({ maxAttempts: 1 });
    await storage.write('books/10/a.mp3', new Uint8Array([1, 2, 3]));
    await s3.stop();
    try {
      await expect(storage.stat('books/10/a.mp3')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(storage.write('books/10/b.mp3', new Uint8Array([4]))).rejects.toBeInstanceOf(
        StorageUnavailableError,
      );
      await expect(readAll(storage.read('books/10/a.mp3'))).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await s3.start();
    }
    expect([...(await readAll(storage.read('books/10/a.mp3')))]).toEqual([1, 2, 3]);
    expect(await storage.stat('books/10/b.mp3')).toBeNull();
  }, 30_000);
});
