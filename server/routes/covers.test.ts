import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCoverKey } from '../jobs/storage-keys';
import { COVER_MOTIFS, motifFor, paletteFor, titleLines, typographicCover } from '../books/cover-art';
import { createCoverService } from '../listening/covers';
import { createJobRepository } from '../jobs/repository';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { makeEpub3, multipartFile, PNG_1X1 } from '../testing/books';
import {
  appStorage,
  insertJob,
  seedCompletedAudiobook,
  seedCompletedBook,
  signedInUser,
} from '../testing/library-fixtures';
import { seedConvertingBook } from '../testing/listening-fixtures';

// WORKERS=none: the rows these tests write are exactly what the routes read.
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none', QUOTA_ACTIVE_JOBS: '100' } });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann.covers@example.com');
  bob = await signedInUser(t.app, 'bob.covers@example.com');
});
afterAll(async () => {
  await t?.close();
});

const auth = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });
const cover = (jobId: string, user = ann, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/v1/audio/${jobId}/cover`, headers: { ...auth(user), ...headers } });

// jsdom (a development dependency) parses XML strictly, as a browser opening the SVG would. It ships
// no types; the few members used here are declared (the server's TypeScript has no DOM library).
interface XmlElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
}
interface XmlDocument {
  documentElement: XmlElement;
  getElementsByTagName(name: string): { length: number };
  querySelector(selector: string): XmlElement | null;
  querySelectorAll(selector: string): Iterable<XmlElement> & { length: number };
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => {
    window: { DOMParser: new () => { parseFromString(text: string, type: string): XmlDocument } };
  };
};

/** The SVG parsed as XML; a document that is not well-formed fails the test. */
function parseSvg(svg: string): XmlDocument {
  const doc = new new JSDOM('').window.DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc;
}

describe('GET /audio/{jobId}/cover of a job without a cover of its own', () => {
  it('is a typographic SVG with the escaped title, no scripts, a locked-down CSP and long private caching', async () => {
    const title = 'Tom & Jerry <script>alert("x")</script> in Jane\'s "Garden"';
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title, seconds: 1 });
    const res = await cover(job.jobId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(res.body).not.toMatch(/<script|javascript:|href=|on\w+=/i);
    expect(res.body).toContain('Tom &amp; Jerry &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    const doc = parseSvg(res.body);
    expect(doc.querySelector('title')?.textContent).toBe(`Cover of ${title}`);
    expect(doc.documentElement.getAttribute('aria-label')).toBe(`Cover of ${title}`);
    expect([...doc.querySelectorAll('tspan')].map((s) => s.textContent).join(' ')).toBe(title);
    expect(doc.querySelectorAll('script, foreignObject, image, use')).toHaveLength(0);
    // Stored on first request: the same bytes from then on.
    expect((await storage.stat(generatedCoverKey(job.jobId)))?.size).toBe(res.rawPayload.length);
    expect((await cover(job.jobId)).body).toBe(res.body);
  });

  it('answers 304 without a body to a request that already has it', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'Cached Tides', seconds: 1 });
    const first = await cover(job.jobId);
    const again = await cover(job.jobId, ann, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await cover(job.jobId, ann, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
  });

  it('derives its colours from the title: the same title gives the same cover, another title another palette', async () => {
    const a = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'The Salt Road', seconds: 1 });
    const b = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'The Salt Road', seconds: 1 });
    const c = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'Winter Orchard', seconds: 1 });
    const [ca, cb, cc] = await Promise.all([cover(a.jobId), cover(b.jobId), cover(c.jobId)]);
    expect(ca.body).toBe(cb.body);
    expect(ca.body).toContain(`fill="${paletteFor('The Salt Road').background}"`);
    expect(cc.body).toContain(`fill="${paletteFor('Winter Orchard').background}"`);
    expect(paletteFor('The Salt Road').background).not.toBe(paletteFor('Winter Orchard').background);
  });

  it('names the author when the book’s file did', async () => {
    const id = await insertJob(t.db, {
      userId: ann.id,
      title: 'Harbour Days',
      config: { provider: 'openai', author: 'Tom <Reed>' },
    });
    const doc = parseSvg((await cover(id)).body);
    expect([...doc.querySelectorAll('text')].map((e) => e.textContent)).toContain('Tom <Reed>');
  });

  it('shows a chapter its book’s cover; a book still converting gets one that browsers revalidate, not stored', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'A Christmas Carol', chapters: 2 });
    const chapter = await cover(book.chapterIds[1]!);
    expect(chapter.body).toBe((await cover(book.bookId)).body);
    expect(chapter.body).toContain('<title>Cover of A Christmas Carol</title>');

    const converting = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      title: 'The Long Voyage',
      chapters: 2,
      ready: [1],
    });
    const res = await cover(converting.bookId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.body).toContain('<title>Cover of The Long Voyage</title>');
    expect(await storage.stat(generatedCoverKey(converting.bookId))).toBeNull();
  });

  it('is still answered when the storage refuses to keep it', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'Read-only Shelf', seconds: 1 });
    const readOnly: FileStorage = Object.create(storage) as FileStorage;
    readOnly.write = () => Promise.reject(new Error('read-only file system'));
    const cover = await createCoverService({
      books: createJobRepository(t.db).jobs,
      storage: readOnly,
    }).cover(ann.id, job.jobId);
    expect(String(cover.body)).toContain('<title>Cover of Read-only Shelf</title>');
    expect(await storage.stat(generatedCoverKey(job.jobId))).toBeNull();
  });

  it('answers 404 Job not found for another user’s job and a missing one', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'Private Tides', seconds: 1 });
    for (const [id, user] of [
      [job.jobId, bob],
      ['00000000-0000-4000-8000-000000000000', ann],
    ] as const) {
      const res = await cover(id, user);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Job not found');
    }
    expect(await storage.stat(generatedCoverKey(job.jobId))).toBeNull();
  });
});

describe('GET /audio/{jobId}/cover of a book whose file had a cover', () => {
  it('answers the EPUB’s own image, which wins over a generated one, with an ETag', async () => {
    const body = multipartFile('lighthouse.epub', makeEpub3({ title: 'The Lighthouse' }));
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...auth(ann), ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode).toBe(201);
    const job = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: auth(ann),
      payload: { title: 'The Lighthouse', file_key: (up.json() as { file_key: string }).file_key },
    });
    const jobId = (job.json() as { id: string }).id;
    await t.db.query(`UPDATE jobs SET status = 'COMPLETED' WHERE id = $1`, [jobId]);
    const res = await cover(jobId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.headers['content-security-policy']).not.toMatch(/^default-src 'none'/);
    expect(Buffer.compare(res.rawPayload, PNG_1X1)).toBe(0);
    expect(await storage.stat(generatedCoverKey(jobId))).toBeNull();
    expect((await cover(jobId, ann, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
    expect((await cover(jobId, bob)).statusCode).toBe(404);
  });
});

describe('typographicCover', () => {
  it('breaks a long title between words into at most six lines, ending with an ellipsis when cut', () => {
    expect(titleLines('The Strange Case of Dr Jekyll and Mr Hyde')).toEqual([
      'The Strange Case',
      'of Dr Jekyll and',
      'Mr Hyde',
    ]);
    const long = titleLines(Array.from({ length: 40 }, (_v, i) => `word${i}`).join(' '));
    expect(long).toHaveLength(6);
    expect(long[5]).toMatch(/…$/);
    expect(titleLines('   ')).toEqual(['Untitled']);
  });

  it('draws a shelf of books with different motifs, each book always the same one, in well-formed XML', () => {
    const titles = [
      'The Salt Road',
      'Winter Orchard',
      'Huge Paste',
      'The Ferry',
      'The Keeper',
      'A Long Novel',
      'Tales',
    ];
    const motifs = new Set(titles.map(motifFor));
    // Seven books on a shelf do not all wear the same drawing.
    expect(motifs.size).toBeGreaterThanOrEqual(3);
    for (const title of titles) {
      const svg = typographicCover({ title, author: null });
      expect(svg).toBe(typographicCover({ title, author: null }));
      expect(parseSvg(svg).querySelector('title')?.textContent).toBe(`Cover of ${title}`);
    }
    // Every motif draws something of its own.
    const drawn = new Set(
      COVER_MOTIFS.map((motif) => {
        const title = Array.from({ length: 200 }, (_v, i) => `Book ${i}`).find((t) => motifFor(t) === motif)!;
        return typographicCover({ title, author: null }).replace(
          /<text[\s\S]*?<\/text>|fill="[^"]*"|stroke="[^"]*"/g,
          '',
        );
      }),
    );
    expect(drawn.size).toBe(COVER_MOTIFS.length);
  });

  it('stays well-formed XML whatever the title holds (control characters, lone surrogates)', () => {
    const svg = typographicCover({ title: 'Bell\u0007 \uD800 Tower\u001F', author: 'A\u0001B' });
    const doc = parseSvg(svg);
    expect(doc.querySelector('title')?.textContent).toBe('Cover of Bell Tower');
  });
});
