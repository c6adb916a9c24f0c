import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { readWebVtt } from '../testing/webvtt';
import { appStorage, seedCompletedAudiobook, seedCompletedBook, signedInUser } from '../testing/library-fixtures';
import { chapterParagraphs, writeTranscript } from '../testing/listening-fixtures';
import { ffprobe, id3Version, tagsOf } from '../testing/readers';

// WORKERS=none: feeds read finished books; nothing needs building.
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
const dir = mkdtempSync(path.join(tmpdir(), 'lectio-feeds-'));

/** A Podcasting 2.0 tag as the parser reads it: its attributes. */
type PodcastLink = { $: { url: string; type: string } } | undefined;
type Item = Parser.Item & {
  itunes?: { duration?: string; episode?: string; season?: string };
  chapters?: PodcastLink;
  transcript?: PodcastLink;
};
const parser = new Parser<Record<string, unknown>, Item>({
  customFields: {
    item: [
      ['itunes:season', 'season'],
      ['podcast:chapters', 'chapters'],
      ['podcast:transcript', 'transcript'],
    ],
  },
});

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

interface MetadataChapter {
  id: string;
  title: string;
  order: number;
  start: number;
  duration: number;
}
interface ChaptersJson {
  version: string;
  title: string;
  podcastName: string;
  chapters: { startTime: number; endTime: number; title: string }[];
}
interface TranscriptBody {
  sentences: { start: number; end: number; text: string }[];
}

/** Times in seconds agree within 50 ms. */
const near = (actual: number, expected: number, what: string) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(0.05);

async function metadataOf(user: { token: string }, jobId: string): Promise<MetadataChapter[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${jobId}/metadata`, headers: auth(user) });
  expect(res.statusCode).toBe(200);
  return (res.json() as { chapters: MetadataChapter[] }).chapters;
}

async function readAlong(user: { token: string }, jobId: string, chapter: number): Promise<TranscriptBody> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/audio/${jobId}/transcript?chapter=${chapter}`,
    headers: auth(user),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as TranscriptBody;
}

/** The paths of an item's chapters and transcript links, checked to be the Podcasting 2.0 tags. */
function companionsOf(item: Item) {
  expect(item.chapters?.$.type).toBe('application/json+chapters');
  const chapters = new URL(item.chapters!.$.url).pathname;
  expect(chapters).toMatch(/^\/feeds\/episodes\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/\d+\/chapters\/[A-Za-z0-9_-]{43}\.json$/);
  if (item.transcript === undefined) return { chapters, transcript: null };
  expect(item.transcript.$.type).toBe('text/vtt');
  const transcript = new URL(item.transcript.$.url).pathname;
  expect(transcript).toMatch(
    /^\/feeds\/episodes\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/\d+\/transcript\/[A-Za-z0-9_-]{43}\.vtt$/,
  );
  return { chapters, transcript };
}

describe('podcast feeds with chapters and transcripts (Podcasting 2.0)', { timeout: 120_000 }, () => {
  it('gives every episode its chapters and its WebVTT transcript, timed as the book’s metadata within 50 ms', async () => {
    const book = await seedCompletedBook(t.db, storage, {
      userId: ann.id,
      title: 'Lights & Harbours',
      chapters: 3,
      secondsPerChapter: 3,
    });
    const meta = await metadataOf(ann, book.bookId);
    expect(meta).toHaveLength(3);
    for (const c of meta) {
      await writeTranscript(t.db, storage, { jobId: c.id, fileKey: `audio/${c.id}.mp3`, durationSeconds: c.duration }, [
        ...chapterParagraphs(c.order),
        [`Keepers <b>say</b> “2 < 3 & 4 > 1” --> of ${c.order}.`],
      ]);
    }
    const feed = (await createFeed(ann, book.bookId)).json() as { url: string };
    const xml = (await fetchPublic(feed.url)).body;
    expect(xml).toContain('xmlns:podcast="https://podcastindex.org/namespace/1.0"');
    const rss = await parser.parseString(xml);
    expect(rss.items).toHaveLength(3);

    const heard: string[] = [];
    let bookTime = 0;
    for (const [index, item] of rss.items.entries()) {
      const c = meta[index]!;
      const links = companionsOf(item);
      expect(links.chapters).toContain(`/${c.order}/chapters/`);

      const chapters = await fetchPublic(item.chapters!.$.url);
      expect(chapters.statusCode).toBe(200);
      expect(chapters.headers['content-type']).toBe('application/json+chapters; charset=utf-8');
      // Podcast apps in a browser read it from their own origin.
      expect(chapters.headers['access-control-allow-origin']).toBe('*');
      const doc = chapters.json() as ChaptersJson;
      expect(doc).toMatchObject({ version: '1.2.0', title: item.title, podcastName: 'Lights & Harbours' });
      expect(doc.chapters).toHaveLength(1);
      const [only] = doc.chapters;
      expect(only!.title).toBe(c.title);
      near(only!.startTime, 0, `chapter ${c.order} start in its episode`);
      near(only!.endTime, c.duration, `chapter ${c.order} end in its episode`);
      // The episodes one after another are the book: each chapter starts where the metadata says.
      near(bookTime + only!.startTime, c.start, `chapter ${c.order} start in the book`);
      bookTime += only!.endTime;
      heard.push(only!.title);

      const vtt = await fetchPublic(item.transcript!.$.url);
      expect(vtt.statusCode).toBe(200);
      expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
      expect(vtt.headers['access-control-allow-origin']).toBe('*');
      expect(vtt.rawPayload.toString('utf8')).toBe(vtt.body);
      const cues = readWebVtt(vtt.body);
      const sentences = (await readAlong(ann, book.bookId, c.order)).sentences;
      expect(cues.map((cue) => cue.text)).toEqual(sentences.map((s) => s.text));
      expect(cues.at(-1)!.text).toBe(`Keepers <b>say</b> “2 < 3 & 4 > 1” --> of ${c.order}.`);
      for (const [i, cue] of cues.entries()) {
        near(cue.start, sentences[i]!.start, `chapter ${c.order} cue ${i} start`);
        near(cue.end, sentences[i]!.end, `chapter ${c.order} cue ${i} end`);
      }
      near(cues[0]!.start, 0, `chapter ${c.order} first cue`);
      near(cues.at(-1)!.end, c.duration, `chapter ${c.order} last cue`);
    }
    expect(heard).toEqual(meta.map((c) => c.title));
    near(
      bookTime,
      meta.reduce((sum, c) => sum + c.duration, 0),
      'the whole book',
    );
  });

  it('gives a single text one chapter and its transcript, and leaves out a transcript there is no timing map for', async () => {
    const text = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'Harbour Lights', seconds: 3 });
    await writeTranscript(t.db, storage, text, [['The lamp was lit at dusk.', 'Ships came home.']]);
    const rss = await parser.parseString((await fetchPublic((await createFeed(ann, text.jobId)).json().url)).body);
    expect(rss.items).toHaveLength(1);
    const [meta] = await metadataOf(ann, text.jobId);
    const doc = (await fetchPublic(rss.items[0]!.chapters!.$.url)).json() as ChaptersJson;
    expect(doc.chapters.map((c) => c.title)).toEqual(['Harbour Lights']);
    near(doc.chapters[0]!.startTime, 0, 'start');
    near(doc.chapters[0]!.endTime, meta!.duration, 'end');
    const cues = readWebVtt((await fetchPublic(rss.items[0]!.transcript!.$.url)).body);
    expect(cues.map((c) => c.text)).toEqual(['The lamp was lit at dusk.', 'Ships came home.']);

    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Half Timed', chapters: 2 });
    const [, second] = await metadataOf(ann, book.bookId);
    await storage.delete(`audio/${second!.id}.mp3.timing.json`);
    const items = (await parser.parseString((await fetchPublic((await createFeed(ann, book.bookId)).json().url)).body))
      .items;
    expect(items.map((i) => i.transcript !== undefined)).toEqual([true, false]);
    // Its chapters are there all the same.
    const chapters = (await fetchPublic(items[1]!.chapters!.$.url)).json() as ChaptersJson;
    expect(chapters.chapters.map((c) => c.title)).toEqual(['Stave 2']);
  });

  it('signs each chapters and transcript link for its one file: forged, swapped or another feed’s answer 404', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Signed Staves', chapters: 2 });
    for (const c of await metadataOf(ann, book.bookId)) {
      const job = { jobId: c.id, fileKey: `audio/${c.id}.mp3`, durationSeconds: c.duration };
      await writeTranscript(t.db, storage, job, chapterParagraphs(c.order));
    }
    const feed = (await createFeed(ann, book.bookId)).json() as { id: string; url: string };
    const rss = await parser.parseString((await fetchPublic(feed.url)).body);
    const [first, second] = rss.items.map(companionsOf);
    const audio = new URL(rss.items[0]!.enclosure!.url).pathname;
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    const signature = (path: string) => /([A-Za-z0-9_-]{43})\.\w+$/.exec(path)![1]!;
    expect((await get(first!.chapters)).statusCode).toBe(200);
    expect((await get(first!.transcript!)).statusCode).toBe(200);

    const refused = [
      // Forged.
      first!.chapters.replace(signature(first!.chapters), 'A'.repeat(43)),
      first!.transcript!.replace(signature(first!.transcript!), 'A'.repeat(43)),
      // One file's signature on another: chapters for transcript, another chapter, the audio, the cover.
      first!.transcript!.replace(signature(first!.transcript!), signature(first!.chapters)),
      first!.chapters.replace(signature(first!.chapters), signature(first!.transcript!)),
      first!.chapters.replace(signature(first!.chapters), signature(second!.chapters)),
      first!.chapters.replace('/1/chapters/', '/2/chapters/'),
      first!.transcript!.replace('/1/transcript/', '/2/transcript/'),
      first!.chapters.replace(signature(first!.chapters), signature(audio)),
      audio.replace(signature(audio), signature(first!.chapters)),
      // A chapter the book does not have.
      first!.chapters.replace('/1/chapters/', '/3/chapters/'),
    ];
    // Another feed of the same owner that lists the same book: its links are its own, and work.
    const library = (await createFeed(ann)).json() as { id: string; url: string };
    refused.push(first!.chapters.replace(feed.id, library.id), first!.transcript!.replace(feed.id, library.id));
    const listed = (await parser.parseString((await fetchPublic(library.url)).body)).items.find(
      (i) => i.guid?.startsWith(`${book.bookId}:1:`) === true,
    );
    const own = companionsOf(listed!);
    expect(own.chapters).toContain(`/${library.id}/${book.bookId}/1/chapters/`);
    expect((await get(own.chapters)).statusCode).toBe(200);
    expect((await get(own.transcript!)).statusCode).toBe(200);
    // Another user's book under this feed's links.
    const bobs = await seedCompletedBook(t.db, storage, { userId: bob.id, title: 'Bob’s Staves', chapters: 2 });
    refused.push(
      first!.chapters.replace(book.bookId, bobs.bookId),
      first!.transcript!.replace(book.bookId, bobs.bookId),
    );
    for (const path of refused) expect((await get(path)).statusCode, path).toBe(404);
    for (const path of [first!.chapters.replace('/1/chapters/', '/0/chapters/'), `${first!.chapters}x`]) {
      expect([400, 404, 422], path).toContain((await get(path)).statusCode);
    }

    // Converted again: new links; the old ones open nothing.
    await t.db.query(`UPDATE jobs SET completed_at = completed_at + interval '1 minute' WHERE id = $1`, [book.bookId]);
    expect((await get(first!.chapters)).statusCode).toBe(404);
    expect((await get(first!.transcript!)).statusCode).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const renewed = companionsOf((await parser.parseString((await fetchPublic(feed.url)).body)).items[0]!);
    expect(renewed.chapters).not.toBe(first!.chapters);
    expect((await get(renewed.chapters)).statusCode).toBe(200);
    expect((await get(renewed.transcript!)).statusCode).toBe(200);

    // Deleted: every link ends with the feed.
    await t.app.inject({ method: 'DELETE', url: `/api/v1/feeds/${feed.id}`, headers: auth(ann) });
    expect((await get(renewed.chapters)).statusCode).toBe(404);
    expect((await get(renewed.transcript!)).statusCode).toBe(404);
  });
});
