import Fastify, { type FastifyInstance } from 'fastify';
import { parseRange, rangeIntoStored, sendMedia, sendWithPrefix } from './range';
import { tempStorage } from '../testing/audio';

describe('parseRange', () => {
  it.each([
    [undefined, 1000, { kind: 'full' }],
    ['bytes=0-99', 1000, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=0-0', 1000, { kind: 'partial', start: 0, end: 0 }],
    ['bytes=0-1', 1000, { kind: 'partial', start: 0, end: 1 }], // Safari's probe
    ['bytes=500-', 1000, { kind: 'partial', start: 500, end: 999 }],
    ['bytes=900-5000', 1000, { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-100', 1000, { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', 1000, { kind: 'partial', start: 0, end: 999 }],
    ['Bytes = 10 - 19', 1000, { kind: 'partial', start: 10, end: 19 }],
    ['bytes=999-999', 1000, { kind: 'partial', start: 999, end: 999 }],
    ['bytes=1000-', 1000, { kind: 'unsatisfiable' }],
    ['bytes=1000-2000', 1000, { kind: 'unsatisfiable' }],
    ['bytes=-0', 1000, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999-', 1000, { kind: 'unsatisfiable' }],
    ['bytes=0-10,20-30', 1000, { kind: 'full' }],
    ['bytes=20-10', 1000, { kind: 'full' }],
    ['bytes=abc', 1000, { kind: 'full' }],
    ['bytes=-', 1000, { kind: 'full' }],
    ['bytes=1.5-2', 1000, { kind: 'full' }],
    ['items=0-10', 1000, { kind: 'full' }],
    ['', 1000, { kind: 'full' }],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe('rangeIntoStored', () => {
  it('turns a range wholly past the prefix into one of the stored bytes, and leaves the rest to the general path', () => {
    expect(rangeIntoStored('bytes=100-199', 10)).toEqual({ start: 90, end: 189 });
    expect(rangeIntoStored('bytes=10-', 10)).toEqual({ start: 0 });
    expect(rangeIntoStored('bytes=5-199', 10)).toBeNull(); // starts inside the prefix
    expect(rangeIntoStored('bytes=-500', 10)).toBeNull(); // a suffix needs the size
    expect(rangeIntoStored('bytes=200-100', 0)).toBeNull(); // descending: ignored as the RFC says
    expect(rangeIntoStored('bytes=0-1,5-9', 0)).toBeNull();
    expect(rangeIntoStored(undefined, 0)).toBeNull();
  });
});

describe('sendMedia', () => {
  let env: Awaited<ReturnType<typeof tempStorage>>;
  let app: FastifyInstance;
  const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  beforeAll(async () => {
    env = await tempStorage();
    await env.storage.write('books/1/ch-1.mp3', body);
    await env.storage.write('books/1/empty.mp3', new Uint8Array(0));
    app = Fastify();
    app.get<{ Params: { '*': string } }>('/media/*', (request, reply) =>
      sendMedia(reply, env.storage, request.params['*'], request.headers.range),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await env.cleanup();
  });

  it('sends the whole file with 200, Accept-Ranges and Content-Length', async () => {
    const res = await app.inject({ url: '/media/books/1/ch-1.mp3' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe('1000');
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['cache-control']).toMatch(/^private/);
    expect(res.rawPayload.equals(body)).toBe(true);
  });

  it('sends exactly the requested bytes with 206 and Content-Range', async () => {
    for (const [range, start, end] of [
      ['bytes=0-1', 0, 1],
      ['bytes=100-199', 100, 199],
      ['bytes=990-', 990, 999],
      ['bytes=-10', 990, 999],
      ['bytes=500-99999', 500, 999],
    ] as const) {
      const res = await app.inject({ url: '/media/books/1/ch-1.mp3', headers: { range } });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['content-type']).toBe('audio/mpeg');
      expect(res.rawPayload.equals(body.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 with Content-Range */size and the error body for a range past the end', async () => {
    const res = await app.inject({ url: '/media/books/1/ch-1.mp3', headers: { range: 'bytes=1000-' } });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */1000');
    expect(res.json()).toEqual({
      detail: 'Requested range not satisfiable',
      message: 'Requested range not satisfiable',
    });
  });

  it('ignores malformed and multi-range headers and sends the whole file', async () => {
    for (const range of ['bytes=0-1,5-6', 'bytes=zz', 'pages=1-2']) {
      const res = await app.inject({ url: '/media/books/1/ch-1.mp3', headers: { range } });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.equals(body)).toBe(true);
    }
  });

  it('serves an empty file and answers 404 with the error body for a missing one', async () => {
    const empty = await app.inject({ url: '/media/books/1/empty.mp3' });
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-length']).toBe('0');
    expect(empty.rawPayload.length).toBe(0);
    const missing = await app.inject({ url: '/media/books/1/nope.mp3' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Audio file not found', message: 'Audio file not found' });
  });

  it('uses the given content type', async () => {
    const local = Fastify();
    local.get('/m', (_req, reply) => sendMedia(reply, env.storage, 'books/1/ch-1.mp3', 'bytes=0-3', 'audio/x-test'));
    const res = await local.inject({ url: '/m' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-type']).toBe('audio/x-test');
    await local.close();
  });
});

describe('sendWithPrefix with a prefix known by its length', () => {
  let env: Awaited<ReturnType<typeof tempStorage>>;
  let app: FastifyInstance;
  const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
  const tag = Buffer.alloc(100, 7);
  let made = 0;
  const lazy = () => ({
    length: tag.length,
    bytes: () => {
      made += 1;
      return Promise.resolve(tag);
    },
  });

  beforeAll(async () => {
    env = await tempStorage();
    await env.storage.write('books/2/book.mp3', body);
    app = Fastify();
    app.get<{ Params: { '*': string } }>('/media/*', (request, reply) =>
      sendWithPrefix(reply, env.storage, request.params['*'], lazy(), request.headers.range),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await env.cleanup();
  });

  it('answers a range past the prefix without making it', async () => {
    made = 0;
    const res = await app.inject({ url: '/media/books/2/book.mp3', headers: { range: 'bytes=300-363' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 300-363/1100');
    expect(res.rawPayload.equals(body.subarray(200, 264))).toBe(true);
    expect(made).toBe(0);
  });

  it('makes the prefix for an answer that includes some of it', async () => {
    made = 0;
    const part = await app.inject({ url: '/media/books/2/book.mp3', headers: { range: 'bytes=90-109' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(Buffer.concat([tag.subarray(90), body.subarray(0, 10)]))).toBe(true);
    const whole = await app.inject({ url: '/media/books/2/book.mp3' });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(Buffer.concat([tag, body]))).toBe(true);
    expect(made).toBe(2);
  });
});
