import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, seedCompletedBook, signedInUser } from '../testing/library-fixtures';

/**
 * A feed anyone with its address can fetch, as often as they like: its document is built once per
 * change of its books (ETag and 304 after that), every one of its links opens one file only, and
 * its routes are limited per feed and per address.
 */
const tagsBuilt = vi.hoisted(() => ({ count: 0 }));
vi.mock('../exports/tags', async (importOriginal) => {
  const original = await importOriginal<typeof import('../exports/tags')>();
  return {
    ...original,
    chapterTag: (...args: Parameters<typeof original.chapterTag>) => {
      tagsBuilt.count += 1;
      return original.chapterTag(...args);
    },
  };
});

let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
beforeAll(async () => {
  t = await createTestApp({
    env: { WORKERS: 'none', FEED_RATE_LIMIT_PER_FEED: '40', FEED_RATE_LIMIT_PER_ADDRESS: '60' },
  });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann.guarded@example.com');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const auth = () => ({ authorization: `Bearer ${ann.token}` });
let address = 0;
/** A podcast app somewhere: a GET with no credentials, from an address of its own unless given. */
const fetchAs = (url: string, headers: Record<string, string> = {}, from = `10.0.${address++ % 250}.1`) =>
  t.app.inject({ method: 'GET', url: new URL(url, 'http://localhost').pathname, headers, remoteAddress: from });

async function feedOf(jobId: string | null): Promise<{ id: string; url: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/feeds',
    headers: auth(),
    payload: jobId === null ? {} : { job_id: jobId },
  });
  return res.json() as { id: string; url: string };
}

const enclosures = (xml: string) => [...xml.matchAll(/<enclosure url="([^"]+)"/g)].map((m) => m[1]!);

describe('a podcast feed', () => {
  it('is built once per change of its books: fetched again it builds no chapter tag, and its ETag answers 304', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Tides', chapters: 6 });
    const feed = await feedOf(null);
    const first = await fetchAs(feed.url);
    expect(first.statusCode).toBe(200);
    expect(enclosures(first.body)).toHaveLength(6);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['last-modified']).toBeDefined();

    const built = tagsBuilt.count;
    const again = await fetchAs(feed.url);
    expect(again.body).toBe(first.body);
    expect(tagsBuilt.count).toBe(built);
    const unchanged = await fetchAs(feed.url, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    const since = await fetchAs(feed.url, { 'if-modified-since': first.headers['last-modified'] as string });
    expect(since.statusCode).toBe(304);

    // A new finished book changes the library's feed (within the second a reading is shared): a
    // new ETag and its episodes.
    await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Currents', chapters: 2 });
    let changed = await fetchAs(feed.url, { 'if-none-match': etag });
    for (let i = 0; i < 30 && changed.statusCode === 304; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      changed = await fetchAs(feed.url, { 'if-none-match': etag });
    }
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(enclosures(changed.body)).toHaveLength(8);
    expect(book.bookId).toBeTruthy();
  });

  it('links each episode and the cover for that one file: a shared link opens it, nothing else, until the feed is deleted', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Shared', chapters: 3 });
    const other = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Other', chapters: 3 });
    const feed = await feedOf(book.bookId);
    const token = /\/feeds\/([^/]+)\.xml$/.exec(feed.url)![1]!;
    const xml = (await fetchAs(feed.url)).body;
    const [one, two] = enclosures(xml).map((u) => new URL(u).pathname);
    const cover = new URL(/<itunes:image href="([^"]+)"/.exec(xml)![1]!).pathname;
    expect(xml).not.toContain(`/feeds/${token}/`);
    for (const link of [one!, two!, cover]) {
      expect(link).not.toContain(token);
      expect((await fetchAs(link)).statusCode).toBe(200);
    }
    // Another chapter, another book, another feed's id, a changed signature: 404.
    const signatureOf = (link: string) => /\/([A-Za-z0-9_-]{43})\.\w+$/.exec(link)![1]!;
    const tampered = [
      one!.replace('/1/', '/2/'),
      one!.replace(book.bookId, other.bookId),
      one!.replace(feed.id, (await feedOf(other.bookId)).id),
      cover.replace(signatureOf(cover), signatureOf(one!)),
      one!.replace(signatureOf(one!), signatureOf(two!)),
    ];
    for (const link of tampered) expect((await fetchAs(link)).statusCode, link).toBe(404);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/feeds/${feed.id}`, headers: auth() });
    expect(removed.statusCode).toBe(204);
    for (const link of [one!, cover]) expect((await fetchAs(link)).statusCode).toBe(404);
  });

  it('is limited per feed whatever the address, and per address whatever the feed (429 with Retry-After)', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Busy', chapters: 1 });
    const feed = await feedOf(book.bookId);
    const statuses: number[] = [];
    for (let i = 0; i < 45; i += 1) statuses.push((await fetchAs(feed.url)).statusCode);
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
    const refused = await fetchAs(feed.url);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((refused.json() as { detail: string }).detail).toMatch(/^Too many requests for this feed/);

    // One address asking for many feeds (unknown tokens too) is stopped at its own limit.
    const from = '192.0.2.77';
    const answers: number[] = [];
    for (let i = 0; i < 62; i += 1)
      answers.push((await fetchAs(`/feeds/${'t'.repeat(30)}${i}.xml`, {}, from)).statusCode);
    expect(answers.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(answers.slice(60)).toEqual([429, 429]);
  });
});
