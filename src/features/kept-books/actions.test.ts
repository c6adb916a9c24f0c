import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetAudioTranscriptQueryKey } from '../../api/gen/endpoints/audio';
import { configureApi } from '../../api/http';
import { KEPT_BOOKS_CACHE } from '../../lib/kept-cache';
import { audioStreamHandler, bookJobId } from '../../mocks/audio';
import { handlers } from '../../mocks/handlers';
import { jobHandler } from '../../mocks/library';
import { forgetThisAccount, keepBook, removeBook } from './actions';
import { KEEP_MESSAGES, READ_ALONG_CACHE } from './cache';
import { INDEX_KEY, kept, resetKept, UNSENT_KEY } from './state';

/** Cache Storage as the browser has it, in memory; `failOn` makes a put of a matching key fail. */
class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>();
  failOn: { match: RegExp; error: DOMException } | null = null;

  async open(name: string): Promise<Cache> {
    const store = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, store);
    const put = async (key: string, response: Response) => {
      // Read to the end, as a browser does while it writes.
      const body = await response.arrayBuffer();
      if (this.failOn?.match.test(key)) throw this.failOn.error;
      store.set(key, new Response(body, { headers: response.headers }));
    };
    return {
      put,
      match: async (key: string) => store.get(key)?.clone(),
      delete: async (key: string) => store.delete(key),
    } as unknown as Cache;
  }

  keys(name: string): string[] {
    return [...(this.stores.get(name)?.keys() ?? [])];
  }
}

const AUDIO_URL = 'http://localhost/media/audio/book.mp3?expires=1&sig=abc';
const AUDIO_BYTES = 64 * 1024;
const server = setupServer(...handlers);
let memory: MemoryCaches;
let client: QueryClient;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
});
beforeEach(() => {
  resetKept(localStorage);
  memory = new MemoryCaches();
  vi.stubGlobal('caches', memory);
  client = new QueryClient();
  server.use(
    jobHandler(),
    audioStreamHandler({ stream: { streaming_url: AUDIO_URL } }),
    http.get('http://localhost/media/*', () =>
      HttpResponse.arrayBuffer(new Uint8Array(AUDIO_BYTES).buffer, {
        headers: { 'content-type': 'audio/mpeg', 'content-length': String(AUDIO_BYTES) },
      }),
    ),
  );
});
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllGlobals();
});
afterAll(() => server.close());

describe('keeping a book on this device', () => {
  it('keeps every answer the player asks for, the audio under its path, and the read-along', async () => {
    expect(await keepBook(client, bookJobId)).toBe(true);

    const keys = memory.keys(KEPT_BOOKS_CACHE).map((key) => new URL(key).pathname);
    expect(keys.sort()).toEqual(
      [
        '/media/audio/book.mp3',
        `/api/v1/audio/${bookJobId}/cover`,
        `/api/v1/jobs/${bookJobId}`,
        `/api/v1/audio/${bookJobId}/metadata`,
        `/api/v1/audio/${bookJobId}/stream`,
        `/api/v1/progress/${bookJobId}`,
      ].sort(),
    );
    // No key keeps the signed URL's query.
    expect(memory.keys(KEPT_BOOKS_CACHE).every((key) => !key.includes('?'))).toBe(true);
    expect(memory.keys(READ_ALONG_CACHE)).toHaveLength(3);

    const book = kept.books[bookJobId];
    expect(book).toMatchObject({ title: 'The Tell-Tale Heart', author: 'Edgar Allan Poe', chapters: 3 });
    expect(book!.bytes).toBeGreaterThan(AUDIO_BYTES);
    expect(kept.downloads).toEqual({});
    // The index outlives a reload.
    expect(JSON.parse(localStorage.getItem(INDEX_KEY) ?? '{}')).toHaveProperty(bookJobId);
    resetKept(localStorage);
    expect(kept.books[bookJobId]?.bytes).toBe(book!.bytes);
    // The read-along is in the data cache for the book page.
    expect(client.getQueryData(getGetAudioTranscriptQueryKey(bookJobId, { chapter: 2 }))).toBeDefined();
  });

  it('says there is no room and leaves nothing behind when storage is full', async () => {
    memory.failOn = { match: /\/media\//, error: new DOMException('Full', 'QuotaExceededError') };
    expect(await keepBook(client, bookJobId)).toBe(false);
    expect(kept.downloads[bookJobId]).toEqual({ status: 'failed', message: KEEP_MESSAGES.quota });
    expect(kept.books).toEqual({});
    expect(memory.keys(KEPT_BOOKS_CACHE)).toEqual([]);
    expect(memory.keys(READ_ALONG_CACHE)).toEqual([]);
    expect(localStorage.getItem(INDEX_KEY)).toBeNull();
  });

  it('says the browser refused when there is no Cache Storage', async () => {
    vi.stubGlobal('caches', undefined);
    expect(await keepBook(client, bookJobId)).toBe(false);
    expect(kept.downloads[bookJobId]).toEqual({ status: 'failed', message: KEEP_MESSAGES.refused });
  });

  it('leaves nothing behind when the download stops half way', async () => {
    server.use(http.get('http://localhost/media/*', () => HttpResponse.error()));
    expect(await keepBook(client, bookJobId)).toBe(false);
    expect(kept.downloads[bookJobId]).toEqual({ status: 'failed', message: KEEP_MESSAGES.network });
    expect(memory.keys(KEPT_BOOKS_CACHE)).toEqual([]);
  });

  it('removes a kept book from the index and the caches', async () => {
    await keepBook(client, bookJobId);
    await removeBook(bookJobId);
    expect(kept.books).toEqual({});
    expect(memory.keys(KEPT_BOOKS_CACHE)).toEqual([]);
    expect(memory.keys(READ_ALONG_CACHE)).toEqual([]);
    expect(localStorage.getItem(INDEX_KEY)).toBeNull();
  });

  it('leaves nothing of the account on the device when it signs out', async () => {
    await keepBook(client, bookJobId);
    kept.unsent[bookJobId] = { jobId: bookJobId, position: 12, chapterId: null, madeAt: 1 };
    await forgetThisAccount();
    expect(kept.books).toEqual({});
    expect(kept.unsent).toEqual({});
    expect(memory.keys(KEPT_BOOKS_CACHE)).toEqual([]);
    expect(memory.keys(READ_ALONG_CACHE)).toEqual([]);
    expect(localStorage.getItem(INDEX_KEY)).toBeNull();
    expect(localStorage.getItem(UNSENT_KEY)).toBeNull();
  });
});
