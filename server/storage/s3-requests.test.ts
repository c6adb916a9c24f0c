import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { S3FileStorage } from './s3';

/** What the S3 client sends, seen by a store that answers every read with the same bytes. */
async function recordingStore(refuse: (n: number) => number | null = () => null) {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const refused = refuse(seen.length);
      if (refused !== null) {
        res.writeHead(refused, { 'content-type': 'application/xml' });
        res.end('<Error><Code>AccessDenied</Code></Error>');
      } else if (req.method === 'GET') {
        res.writeHead(206, { 'content-type': 'audio/mpeg', 'content-length': '4', 'content-range': 'bytes 0-3/100' });
        res.end(Buffer.from([1, 2, 3, 4]));
      } else {
        res.writeHead(200, { etag: '"e"' });
        res.end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const storage = new S3FileStorage({
    bucket: 'books',
    prefix: '',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
  });
  return { seen, storage, close: () => new Promise((r) => server.close(r)) };
}

let close: () => Promise<unknown> = async () => undefined;
afterEach(() => close());

describe('the S3 store', () => {
  it('reads a range without asking the store for a checksum to check', async () => {
    const store = await recordingStore();
    close = store.close;
    const chunks: Buffer[] = [];
    for await (const chunk of store.storage.read('audio/book.mp3', { start: 0, end: 3 })) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([1, 2, 3, 4]));
    const get = store.seen.find((r) => r.method === 'GET');
    expect(get?.headers.range).toBe('bytes=0-3');
    expect(get?.headers['x-amz-checksum-mode']).toBeUndefined();
  });

  it('reads a slice and the object’s size in one request', async () => {
    const store = await recordingStore();
    close = store.close;
    const read = await store.storage.readSlice('audio/book.mp3', 0, 3);
    expect(read).toMatchObject({ size: 100, slice: { start: 0, end: 3 } });
    const chunks: Buffer[] = [];
    for await (const chunk of read!.slice!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([1, 2, 3, 4]));
    expect(store.seen.map((r) => `${r.method} ${r.headers.range ?? ''}`)).toEqual(['GET bytes=0-3']);
  });

  it('writes without computing a checksum the S3 API does not require', async () => {
    const store = await recordingStore();
    close = store.close;
    await store.storage.write('audio/book.mp3', new Uint8Array([1, 2, 3]));
    const put = store.seen.find((r) => r.method === 'PUT');
    expect(put).toBeDefined();
    expect(Object.keys(put!.headers).filter((name) => name.startsWith('x-amz-checksum-'))).toEqual([]);
    expect(put!.headers['x-amz-sdk-checksum-algorithm']).toBeUndefined();
  });

  it('reads ranges of one object through one presigned URL, signed again when the store refuses it', async () => {
    const store = await recordingStore((n) => (n === 3 ? 403 : n === 4 ? 503 : null));
    close = store.close;
    const read = async () => {
      const slice = await store.storage.readSlice('audio/book.mp3', 0, 3);
      for await (const _ of slice!.slice!.stream) void _;
      return slice!.size;
    };
    const signedAt = (i: number) => new URL(store.seen[i]!.url, 'http://store').searchParams.get('X-Amz-Date');
    expect(await read()).toBe(100);
    // A second later (a new signature would carry a new time), the same URL.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await read()).toBe(100);
    expect(signedAt(0)).toMatch(/^\d{8}T\d{6}Z$/);
    expect(signedAt(1)).toBe(signedAt(0));
    expect(store.seen[0]!.headers.authorization).toBeUndefined();
    // Refused (403), then the store's trouble (503): signed again, answered on the third try.
    expect(await read()).toBe(100);
    expect(store.seen).toHaveLength(5);
    expect(signedAt(3)).not.toBe(signedAt(0));
    expect(store.seen.slice(2).map((r) => r.headers.range)).toEqual(['bytes=0-3', 'bytes=0-3', 'bytes=0-3']);
  });
});
