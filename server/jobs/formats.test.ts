import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../storage/local';
import { createTestApp, type TestApp } from '../testing/app';
import {
  EXE_BYTES,
  PNG_1X1,
  SAMPLE_CHAPTERS,
  makeEncryptedEpub,
  makeEpub2,
  makeEpub3,
  makeMarkdown,
  makeZipBomb,
  multipartFile,
} from '../testing/books';
import { MAX_EPUB_UNCOMPRESSED_BYTES } from '../ingest/epub';
import { makePdf, makeScannedPdf } from '../testing/pdf';
import { createJob, signIn, waitForJob, type JobBody } from '../testing/jobs';

let t: TestApp;
let headers: { authorization: string };
let storage: LocalFileStorage;

interface Preview {
  job_type: string;
  title: string;
  author: string | null;
  has_cover: boolean;
  chapters: {
    index: number;
    title: string;
    characters: number;
    words: number;
    estimated_seconds: number;
    front_matter: boolean;
  }[];
  total_characters: number;
  estimated_seconds: number;
  characters_per_second: number;
  estimated_cost: { provider: string; model: string; usd: number }[];
}

beforeAll(async () => {
  t = await createTestApp({
    env: { ENCODER_THREADS: '0', CHAPTER_CONCURRENCY: '1' },
    conversion: { stepRetryDelayMs: 10 },
  });
  headers = await signIn(t, 'reader@example.com');
  storage = new LocalFileStorage(t.config.storageDir);
});
afterAll(async () => {
  await t?.close();
});

async function upload(filename: string, bytes: Uint8Array | string) {
  const body = multipartFile(filename, bytes);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

async function uploadKey(filename: string, bytes: Uint8Array | string): Promise<string> {
  const res = await upload(filename, bytes);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { file_key: string }).file_key;
}

async function preview(payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/jobs/preview', headers, payload });
}

async function readAll(key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of storage.read(key) as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}

/** The spoken sentences of a finished job, from its timing map and its source text. */
async function transcript(job: JobBody): Promise<string> {
  const timing = JSON.parse((await readAll(`${job.output_file_key}.timing.json`)).toString('utf8')) as {
    char_start: number;
    char_end: number;
  }[];
  const source = (await readAll(job.input_file_key!)).toString('utf8');
  return timing.map((e) => source.slice(e.char_start, e.char_end)).join(' ');
}

function expectWithinEstimate(job: JobBody, estimatedSeconds: number) {
  const real = job.result_data.duration_seconds ?? 0;
  expect(
    Math.abs(real - estimatedSeconds) / real,
    `real ${real} s, estimated ${estimatedSeconds} s`,
  ).toBeLessThanOrEqual(0.15);
}

function storedFiles(): string[] {
  const root = t.config.storageDir;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith('.tmp-writes'))
    .sort();
}

describe('an EPUB 3 book', () => {
  it(
    'previews with its title, author, cover and TOC chapters, converts, and serves its cover',
    { timeout: 120_000 },
    async () => {
      const fileKey = await uploadKey('lighthouse.epub', makeEpub3());
      const res = await preview({ title: 'lighthouse', file_key: fileKey, voice_config: { provider: 'openai' } });
      expect(res.statusCode, res.body).toBe(200);
      const p = res.json() as Preview;
      expect(p).toMatchObject({
        job_type: 'book_processing',
        title: 'The Lighthouse',
        author: 'Ada Marlow',
        has_cover: true,
      });
      expect(p.chapters.map((c) => c.title)).toEqual(SAMPLE_CHAPTERS.map((c) => c.title));
      expect(p.chapters.every((c) => c.words > 10 && c.estimated_seconds > 0)).toBe(true);
      expect(p.estimated_cost).toEqual([{ provider: 'offline', model: 'espeak-ng', usd: 0 }]);

      const created = await createJob(t, headers, {
        title: p.title,
        file_key: fileKey,
        voice_config: { provider: 'openai' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const job = await waitForJob(t, headers, (created.json() as { id: string }).id, undefined, 90_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      expect(job.title).toBe('The Lighthouse');
      expect(job.config.author).toBe('Ada Marlow');
      expect(job.result_data.chapters?.map((c) => c.title)).toEqual(SAMPLE_CHAPTERS.map((c) => c.title));
      // The library's list names the author too (its cards show it under the title).
      const listed = await t.app.inject({ method: 'GET', url: '/api/v1/jobs?top_level=true', headers });
      const summary = (listed.json() as { jobs: { id: string; config: { author?: string } }[] }).jobs.find(
        (j) => j.id === job.id,
      );
      expect(summary?.config.author).toBe('Ada Marlow');

      const spoken = await transcript(job);
      expect(spoken).toContain('The lighthouse keeper climbed the stairs at dusk.');
      expect(spoken).toContain('slept until the afternoon sun reached his window.');
      expect(spoken).not.toMatch(/Footnote text|drawing of a gull|\b1[0-2]\b/);
      expectWithinEstimate(job, p.estimated_seconds);

      const cover = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${job.id}/cover`, headers });
      expect(cover.statusCode).toBe(200);
      expect(cover.headers['content-type']).toBe('image/png');
      expect(cover.headers['cache-control']).toBe('private, max-age=86400');
      expect(Buffer.compare(cover.rawPayload, PNG_1X1)).toBe(0);
      const other = await signIn(t, 'someone-else@example.com');
      const stolen = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${job.id}/cover`, headers: other });
      expect(stolen.statusCode).toBe(404);
    },
  );
});

describe("an EPUB's front matter", () => {
  it('is offered unticked in the preview: copyright, contents and dedication pages, by title', async () => {
    const page = (title: string, words: string) => ({ title, paragraphs: [words] });
    const fileKey = await uploadKey(
      'with-front-matter.epub',
      makeEpub3({
        chapters: [
          page('Copyright', 'Copyright 2024 Ada Marlow. All rights reserved. No part of this book may be copied.'),
          page('Contents', 'The Keeper. The Storm. The Morning. A list of the chapters of this little book.'),
          page('Dedication', 'For my mother, who kept the lamp burning on the longest and darkest nights.'),
          ...SAMPLE_CHAPTERS,
        ],
      }),
    );
    const p = (await preview({ title: 'lighthouse', file_key: fileKey })).json() as Preview;
    expect(p.chapters.map((c) => [c.title, c.front_matter])).toEqual([
      ['Copyright', true],
      ['Contents', true],
      ['Dedication', true],
      ['The Keeper', false],
      ['The Storm', false],
      ['The Morning', false],
    ]);
  });
});

describe('an EPUB 2 book', () => {
  it('converts only the chosen chapters, with a renamed one, titled from the NCX', { timeout: 120_000 }, async () => {
    const fileKey = await uploadKey('harbour.epub', makeEpub2());
    const p = (await preview({ title: 'harbour', file_key: fileKey, chapters: [1, 2] })).json() as Preview;
    expect(p).toMatchObject({ title: 'Harbour Days', author: 'Tom Reed', has_cover: true });
    expect(p.chapters.map((c) => c.title)).toEqual(['The Keeper', 'The Storm', 'The Morning']);
    // The totals count the chosen chapters only.
    expect(p.total_characters).toBe(p.chapters[1]!.characters + p.chapters[2]!.characters);

    const created = await createJob(t, headers, {
      title: p.title,
      file_key: fileKey,
      chapters: [1, 2],
      chapter_titles: [{ index: 2, title: 'Dawn After the Storm' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const job = await waitForJob(t, headers, (created.json() as { id: string }).id, undefined, 90_000);
    expect(job.status, job.error_message ?? '').toBe('COMPLETED');
    expect(job.result_data.chapters?.map((c) => c.title)).toEqual(['The Storm', 'Dawn After the Storm']);
    const spoken = await transcript(job);
    expect(spoken).not.toContain('lighthouse keeper climbed');
    expect(spoken).toContain('A storm came from the west before dawn.');
    expectWithinEstimate(job, p.estimated_seconds);

    const cover = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${job.id}/cover`, headers });
    expect(cover.statusCode).toBe(200);
  });

  it('refuses a chapter the book does not have, and keeps nothing', async () => {
    const fileKey = await uploadKey('harbour.epub', makeEpub2());
    const before = storedFiles().length;
    const res = await createJob(t, headers, { title: 'Harbour', file_key: fileKey, chapters: [0, 7] });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('There is no chapter 7: this text has 3 chapters (0-2)');
    expect(storedFiles().length).toBe(before);
  });
});

describe('a Markdown book', () => {
  it('makes its headings chapters and never reads its markup aloud', { timeout: 120_000 }, async () => {
    const fileKey = await uploadKey('notes.md', makeMarkdown());
    const p = (await preview({ title: 'notes', file_key: fileKey })).json() as Preview;
    expect(p).toMatchObject({
      title: 'Notes from the Coast',
      author: null,
      has_cover: false,
      job_type: 'book_processing',
    });
    expect(p.chapters.map((c) => c.title)).toEqual(SAMPLE_CHAPTERS.map((c) => c.title));

    const created = await createJob(t, headers, { title: p.title, file_key: fileKey });
    const job = await waitForJob(t, headers, (created.json() as { id: string }).id, undefined, 90_000);
    expect(job.status, job.error_message ?? '').toBe('COMPLETED');
    expect(job.result_data.chapters?.map((c) => c.title)).toEqual(SAMPLE_CHAPTERS.map((c) => c.title));
    const spoken = await transcript(job);
    expect(spoken).toContain('The lighthouse keeper climbed the stairs at dusk.');
    expect(spoken).not.toMatch(/\*\*|https?:|notRead|chart of the tides|```|#/);
    expectWithinEstimate(job, p.estimated_seconds);

    const cover = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${job.id}/cover`, headers });
    // Without a cover of its own, the book gets a typographic one with its title.
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(cover.body).toContain('<title>Cover of Notes from the Coast</title>');
  });
});

const PDF_BOOK = () =>
  makePdf({
    title: 'Lighthouse Tales',
    author: 'Ada Marlow',
    chapters: SAMPLE_CHAPTERS,
    runningHeader: 'Ada Marlow: Lighthouse Tales',
    pageNumbers: true,
    outline: true,
  });

describe('a PDF book', () => {
  it(
    'takes its chapters from the outline and leaves out the running header and page numbers',
    { timeout: 120_000 },
    async () => {
      const fileKey = await uploadKey('tales.pdf', PDF_BOOK());
      const p = (await preview({ title: 'tales', file_key: fileKey })).json() as Preview;
      expect(p).toMatchObject({
        title: 'Lighthouse Tales',
        author: 'Ada Marlow',
        has_cover: false,
        job_type: 'book_processing',
      });
      expect(p.chapters.map((c) => c.title)).toEqual(SAMPLE_CHAPTERS.map((c) => c.title));

      const created = await createJob(t, headers, { title: p.title, file_key: fileKey });
      const job = await waitForJob(t, headers, (created.json() as { id: string }).id, undefined, 90_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      expect(job.config.author).toBe('Ada Marlow');
      expect(job.result_data.chapters?.map((c) => c.title)).toEqual(SAMPLE_CHAPTERS.map((c) => c.title));
      const spoken = await transcript(job);
      // "after-" / "noon" was cut at a line end; it is read as one word.
      expect(spoken).toContain('slept until the afternoon sun reached his window.');
      expect(spoken).toContain('The lighthouse keeper climbed the stairs at dusk. He lit the great lamp');
      expect(spoken).not.toMatch(/Lighthouse Tales|\d/);
      expectWithinEstimate(job, p.estimated_seconds);
    },
  );

  it('without an outline, finds chapters by their headings', async () => {
    const chapters = SAMPLE_CHAPTERS.map((c, i) => ({ ...c, title: `Chapter ${i + 1}` }));
    const fileKey = await uploadKey(
      'plain.pdf',
      makePdf({ chapters, runningHeader: 'Lighthouse Tales', pageNumbers: true }),
    );
    const p = (await preview({ title: 'plain', file_key: fileKey })).json() as Preview;
    expect(p.title).toBe('plain');
    expect(p.chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
  });
});

describe('an HTML page', () => {
  it('is read through the article extractor', async () => {
    const html = `<html><head><title>Tide Tables</title></head><body><nav>Home | About</nav><article><h1>Tide Tables</h1>${SAMPLE_CHAPTERS.flatMap((c) => c.paragraphs.map((x) => `<p>${x}</p>`)).join('')}</article></body></html>`;
    const fileKey = await uploadKey('tides.html', html);
    const p = (await preview({ title: 'tides', file_key: fileKey })).json() as Preview;
    expect(p.title).toBe('Tide Tables');
    expect(p.job_type).toBe('text_to_audio');
    expect(p.chapters).toHaveLength(1);
    expect(p.total_characters).toBeGreaterThan(500);
  });
});

describe('pasted text', () => {
  it('previews the chapters the planner finds, with estimates from the voice', async () => {
    const content = SAMPLE_CHAPTERS.map((c, i) => `Chapter ${i + 1}\n\n${c.paragraphs.join('\n\n')}`).join('\n\n');
    const res = await preview({ title: 'Pasted', content, voice_config: { provider: 'elevenlabs' } });
    const p = res.json() as Preview;
    expect(p.chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
    expect(p.estimated_seconds).toBeCloseTo(p.total_characters / p.characters_per_second, 0);
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE title = $1', [
      'Pasted',
    ]);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('files that are refused', () => {
  beforeEach(async () => {
    await t.db.exec('DELETE FROM uploaded_files');
  });

  const cases: [string, string, () => Uint8Array | string, number, string][] = [
    [
      'a program renamed to .epub',
      'book.epub',
      () => EXE_BYTES,
      415,
      'This file is not an EPUB book: it is not a ZIP archive. Choose the .epub file itself, not a file renamed to .epub',
    ],
    [
      'a zip bomb',
      'bomb.epub',
      () => makeZipBomb(MAX_EPUB_UNCOMPRESSED_BYTES + 1024),
      422,
      'The EPUB expands to more than 100 MB, more than a book needs; it was not opened',
    ],
    [
      'an encrypted EPUB',
      'locked.epub',
      () => makeEncryptedEpub(),
      422,
      'This EPUB is protected by DRM (its text is encrypted), so it cannot be read aloud. Use a DRM-free copy of the book',
    ],
    ['an empty Markdown file', 'empty.md', () => '', 422, 'The file is empty'],
    [
      'a scanned PDF with no text layer',
      'scan.pdf',
      () => makeScannedPdf(),
      422,
      'This PDF has no text layer: its pages are pictures (a scan), and Lectio does not recognise text in images. Use a PDF with selectable text, or an EPUB',
    ],
    [
      'a truncated PDF',
      'cut.pdf',
      () => PDF_BOOK().subarray(0, 900),
      422,
      'The PDF is damaged or incomplete, so it cannot be read. Download it again and upload the whole file',
    ],
    [
      'a program renamed to .pdf',
      'book.pdf',
      () => EXE_BYTES,
      415,
      'The file is not a PDF: it does not start like one. Choose the .pdf file itself',
    ],
  ];
  for (const [name, filename, make, status, message] of cases) {
    it(`refuses ${name} with ${status} and keeps nothing`, { timeout: 30_000 }, async () => {
      const before = storedFiles();
      const res = await upload(filename, make());
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ detail: message });
      expect(storedFiles()).toEqual(before);
      const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploaded_files');
      expect(rows[0]!.n).toBe(0);
    });
  }
});
