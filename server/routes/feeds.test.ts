import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, seedCompletedBook, signedInUser } from '../testing/library-fixtures';
import { ffprobe, id3Version, tagsOf } from '../testing/readers';

// WORKERS=none: feeds read finished books; nothing needs building.
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
const dir = mkdtempSync(path.join(tmpdir(), 'lectio-feeds-'));

type Item = Parser.Item & { itunes?: { duration?: string; episode?: string; season?: string } };
const parser = new Parser<Record<string, unknown>, Item>({ customFields: { item: [['itunes:season', 'season']] } });

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none', PUBLIC_URL: 'https://listen.example.org' } });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann.feeds@example.com');
  bob = await signedInUser(t.app, 'bob.feeds@example.com');
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const auth = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });

async function createFeed(user: { token: string }, jobId?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/feeds',
    headers: auth(user),
    payload: jobId === undefined ? {} : { job_id: jobId },
  });
}

/** What a podcast app does: GET the address with no credentials. */
async function fetchPublic(url: string, headers: Record<string, string> = {}) {
  const { pathname } = new URL(url);
  return t.app.inject({ method: 'GET', url: pathname, headers });
}

describe('private podcast feeds', { timeout: 120_000 }, () => {
  it('gives a book one feed whose RSS a podcast app reads: chapters in order with enclosures that play without signing in', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Harbour Songs', chapters: 3 });
    const created = await createFeed(ann, book.bookId);
    expect(created.statusCode).toBe(201);
    const feed = created.json() as { id: string; url: string; job_id: string; title: string };
    expect(feed).toMatchObject({ job_id: book.bookId, title: 'Harbour Songs' });
    expect(feed.url).toMatch(/^https:\/\/listen\.example\.org\/feeds\/[A-Za-z0-9_-]{43}\.xml$/);
    const again = await createFeed(ann, book.bookId);
    expect(again.statusCode).toBe(200);
    expect((again.json() as { url: string }).url).toBe(feed.url);

    const xml = await fetchPublic(feed.url);
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const rss = await parser.parseString(xml.body);
    expect(rss.title).toBe('Harbour Songs');
    expect(rss.itunes?.author).toBe('Lectio');
    expect(rss.itunes?.image).toMatch(/\/cover\/[A-Za-z0-9_-]{43}\.jpg$/);
    expect(rss.items.map((i) => i.title)).toEqual([
      'Harbour Songs: Stave 1',
      'Harbour Songs: Stave 2',
      'Harbour Songs: Stave 3',
    ]);
    expect(rss.items.map((i) => i.itunes?.episode)).toEqual(['1', '2', '3']);
    for (const item of rss.items) {
      expect(item.enclosure?.type).toBe('audio/mpeg');
      expect(Number(item.itunes?.duration)).toBeGreaterThan(1);
      const audio = await fetchPublic(item.enclosure!.url);
      expect(audio.statusCode).toBe(200);
      expect(audio.rawPayload.length).toBe(Number(item.enclosure!.length));
    }
    const second = await fetchPublic(rss.items[1]!.enclosure!.url);
    const file = path.join(dir, 'episode.mp3');
    writeFileSync(file, second.rawPayload);
    const probe = await ffprobe(file);
    expect(tagsOf(probe)).toMatchObject({ title: 'Stave 2', album: 'Harbour Songs', track: '2/3', genre: 'Audiobook' });
    expect(probe.streams.find((s) => s.disposition?.attached_pic === 1)?.codec_name).toBe('mjpeg');
    expect(id3Version(second.rawPayload)).toBe('2.4.0');
    const cover = await fetchPublic(rss.itunes!.image!);
    expect(cover.statusCode).toBe(200);
    expect(cover.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const range = await fetchPublic(rss.items[0]!.enclosure!.url, { range: 'bytes=0-9' });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.subarray(0, 3).toString()).toBe('ID3');
  });

  it('revoking the feed ends its address and every episode link at once', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Revoked', chapters: 2 });
    const feed = (await createFeed(ann, book.bookId)).json() as { id: string; url: string };
    const rss = await parser.parseString((await fetchPublic(feed.url)).body);
    const episode = rss.items[0]!.enclosure!.url;
    expect((await fetchPublic(episode)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/feeds/${feed.id}`, headers: auth(bob) })).statusCode,
    ).toBe(404);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/feeds/${feed.id}`, headers: auth(ann) });
    expect(removed.statusCode).toBe(204);
    expect((await fetchPublic(feed.url)).statusCode).toBe(404);
    expect((await fetchPublic(episode)).statusCode).toBe(404);
    const renewed = (await createFeed(ann, book.bookId)).json() as { url: string };
    expect(renewed.url).not.toBe(feed.url);
  });

  it('leaks nothing else: a book feed answers no other book, and no one else’s', async () => {
    const mine = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Mine', chapters: 1 });
    const another = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Another of mine', chapters: 1 });
    const bobs = await seedCompletedBook(t.db, storage, { userId: bob.id, title: 'Bob’s', chapters: 1 });
    const feed = (await createFeed(ann, mine.bookId)).json() as { url: string };
    const token = /\/feeds\/([^/]+)\.xml$/.exec(feed.url)![1]!;
    const rss = await parser.parseString((await fetchPublic(feed.url)).body);
    const episode = new URL(rss.items[0]!.enclosure!.url).pathname;
    const cover = new URL(rss.itunes!.image!).pathname;
    for (const id of [another.bookId, bobs.bookId]) {
      // A link made for one book opens no other, nor does the token under the old link shape.
      const get = (url: string) => t.app.inject({ method: 'GET', url });
      expect((await get(episode.replace(mine.bookId, id))).statusCode).toBe(404);
      expect((await get(cover.replace(mine.bookId, id))).statusCode).toBe(404);
      expect((await get(`/feeds/${token}/${id}/1.mp3`)).statusCode).toBe(404);
      expect((await get(`/feeds/${token}/${mine.bookId}/cover.jpg`)).statusCode).toBe(404);
    }
    expect((await createFeed(ann, bobs.bookId)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/feeds/${'x'.repeat(43)}.xml` })).statusCode).toBe(404);
    const xml = (await fetchPublic(feed.url)).body;
    expect(xml).not.toContain('ann.feeds@example.com');
    expect(xml).not.toContain(ann.id);
    expect(xml).toContain('<itunes:block>Yes</itunes:block>');
  });

  it('has one feed for the whole library with every finished book, and lists the user’s feeds', async () => {
    const carol = await signedInUser(t.app, 'carol.feeds@example.com');
    const first = await seedCompletedBook(t.db, storage, { userId: carol.id, title: 'First Book', chapters: 2 });
    await seedCompletedBook(t.db, storage, { userId: carol.id, title: 'Second Book', chapters: 1 });
    const library = await createFeed(carol);
    expect(library.statusCode).toBe(201);
    expect(library.json()).toMatchObject({ job_id: null, title: 'Lectio library' });
    await createFeed(carol, first.bookId);
    const rss = await parser.parseString((await fetchPublic((library.json() as { url: string }).url)).body);
    expect(rss.items.map((i) => i.title).sort()).toEqual(
      ['First Book: Stave 1', 'First Book: Stave 2', 'Second Book'].sort(),
    );
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/feeds', headers: auth(carol) });
    expect((list.json() as { feeds: { title: string }[] }).feeds.map((f) => f.title).sort()).toEqual(
      ['First Book', 'Lectio library'].sort(),
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/feeds' })).statusCode).toBe(401);
  });

  it('keeps a hostile title well-formed XML', async () => {
    const hostile = `"Quoted" <b>&amp; ../../x\nnext line 🐋 ${'long '.repeat(60)}\u0007end`;
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: hostile, chapters: 1 });
    const feed = (await createFeed(ann, book.bookId)).json() as { url: string };
    const rss = await parser.parseString((await fetchPublic(feed.url)).body);
    expect(rss.title).toContain('"Quoted" <b>&amp; ../../x next line 🐋');
    expect(rss.items).toHaveLength(1);
  });
});
