import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalFileStorage } from './local';
import { InvalidStorageKeyError, isValidKey, TEMP_DIR_NAME } from './types';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string): Promise<void> {
    for (const entry of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else out.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  }
  await walk(dir);
  return out.sort();
}

let root: string;
let storage: LocalFileStorage;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'lectio-storage-'));
  storage = new LocalFileStorage(root);
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('LocalFileStorage', () => {
  it('writes bytes and reads them back, whole and by inclusive range', async () => {
    const data = new TextEncoder().encode('hello audiobook world');
    expect(await storage.write('books/1/ch-001.mp3', data)).toEqual({ size: data.length });
    expect(await storage.stat('books/1/ch-001.mp3')).toEqual({ size: data.length });
    expect((await readAll(storage.read('books/1/ch-001.mp3'))).toString()).toBe('hello audiobook world');
    expect((await readAll(storage.read('books/1/ch-001.mp3', { start: 6, end: 14 }))).toString()).toBe('audiobook');
  });

  it('writes from an async iterable and replaces an existing file atomically', async () => {
    await storage.write('a.bin', new Uint8Array([1, 2, 3]));
    async function* gen(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array([9, 9]);
      yield new Uint8Array([8]);
    }
    expect(await storage.write('a.bin', gen())).toEqual({ size: 3 });
    expect([...(await readAll(storage.read('a.bin')))]).toEqual([9, 9, 8]);
  });

  it('keeps a file invisible until commit, and aborting leaves nothing behind', async () => {
    const writer = await storage.createWriter('books/2/ch-001.mp3');
    await writer.write(new Uint8Array(1000).fill(7));
    expect(await storage.stat('books/2/ch-001.mp3')).toBeNull();
    await writer.abort();
    expect(await storage.stat('books/2/ch-001.mp3')).toBeNull();
    expect(await listFiles(root)).toEqual([]);

    const second = await storage.createWriter('books/2/ch-001.mp3');
    await second.write(new Uint8Array(10).fill(1));
    expect(await storage.stat('books/2/ch-001.mp3')).toBeNull();
    expect(await second.commit()).toEqual({ size: 10 });
    expect(await storage.stat('books/2/ch-001.mp3')).toEqual({ size: 10 });
    expect(await listFiles(root)).toEqual(['books/2/ch-001.mp3']);
  });

  it('an iterable that fails mid-way leaves the previous version intact and no temp files', async () => {
    await storage.write('book.mp3', new Uint8Array([1, 2, 3]));
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(500);
      throw new Error('synthesis crashed');
    }
    await expect(storage.write('book.mp3', failing())).rejects.toThrow('synthesis crashed');
    expect([...(await readAll(storage.read('book.mp3')))]).toEqual([1, 2, 3]);
    expect(await listFiles(root)).toEqual(['book.mp3']);
  });

  it('cleans temp files left by a crashed process', async () => {
    await fs.mkdir(path.join(root, TEMP_DIR_NAME), { recursive: true });
    const stale = path.join(root, TEMP_DIR_NAME, '999-stale');
    await fs.writeFile(stale, 'half a chapter');
    const old = new Date(Date.now() - 24 * 3600 * 1000);
    await fs.utimes(stale, old, old);
    await storage.write('x.mp3', new Uint8Array([1]));
    expect(await listFiles(root)).toEqual(['x.mp3']);
  });

  it('refuses keys that could escape the root or are malformed', async () => {
    const bad = [
      '../etc/passwd',
      'books/../../secret',
      '..',
      'a/..',
      '/etc/passwd',
      'books//x',
      'books/',
      'a\\..\\b',
      'a/./b',
      '.',
      '',
      'x'.repeat(301),
      'books/%2e%2e/x',
      'bo oks',
      'ünï',
      `${TEMP_DIR_NAME}/x`,
      'a\u0000b',
    ];
    for (const key of bad) {
      expect(isValidKey(key), key).toBe(false);
      await expect(storage.write(key, new Uint8Array([1])), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.stat(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(readAll(storage.read(key)), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    await expect(storage.deletePrefix('../')).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.deletePrefix('')).rejects.toBeInstanceOf(InvalidStorageKeyError);
    expect(isValidKey('x'.repeat(300))).toBe(true);
    expect(isValidKey('books/42/ch-001.v2_final.mp3')).toBe(true);
    // Nothing was created anywhere near the root.
    expect(await listFiles(root)).toEqual([]);
    await expect(fs.stat(path.join(path.dirname(root), 'etc'))).rejects.toThrow();
  });

  it('stat returns null for missing keys and for directories; reading a missing key errors', async () => {
    await storage.write('books/3/a.mp3', new Uint8Array([1]));
    expect(await storage.stat('books/3/missing.mp3')).toBeNull();
    expect(await storage.stat('books/3')).toBeNull();
    expect(await storage.stat('books/3/a.mp3/b')).toBeNull();
    await expect(readAll(storage.read('books/3/missing.mp3'))).rejects.toThrow(/ENOENT/);
  });

  it('delete removes a file (idempotently) and deletePrefix removes everything under a prefix only', async () => {
    await storage.write('books/12/ch-1.mp3', new Uint8Array([1]));
    await storage.write('books/12/ch-2.mp3', new Uint8Array([2]));
    await storage.write('books/12/full/book.mp3', new Uint8Array([3]));
    await storage.write('books/123/ch-1.mp3', new Uint8Array([4]));
    await storage.write('books/2/ch-1.mp3', new Uint8Array([5]));

    await storage.delete('books/2/ch-1.mp3');
    await storage.delete('books/2/ch-1.mp3');
    expect(await storage.stat('books/2/ch-1.mp3')).toBeNull();

    await storage.deletePrefix('books/12/');
    expect(await listFiles(root)).toEqual(['books/123/ch-1.mp3']);

    await storage.write('books/12/ch-1.mp3', new Uint8Array([1]));
    await storage.deletePrefix('books/12');
    expect(await listFiles(root)).toEqual([]);
    await storage.deletePrefix('books/nothing-here/');
  });

  it('serialises writes that are not awaited one by one', async () => {
    const writer = await storage.createWriter('seq.bin');
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 50; i += 1) pending.push(writer.write(new Uint8Array(100).fill(i)));
    await Promise.all(pending);
    expect(await writer.commit()).toEqual({ size: 5000 });
    const bytes = await readAll(storage.read('seq.bin'));
    for (let i = 0; i < 50; i += 1) expect(bytes[i * 100 + 99]).toBe(i);
    await expect(writer.write(new Uint8Array(1))).rejects.toThrow(/committed/);
  });
});
