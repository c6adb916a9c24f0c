import { readdirSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { createTestApp, type TestApp } from '../testing/app';
import { longPage, makeEpub3, makeLongEpub, makeLyingEpub, multipartFile, patchZipEntry } from '../testing/books';
import { signIn } from '../testing/jobs';

/**
 * Books that lie about themselves, or that take long to read, sent through the API: a damaged
 * archive is refused with a clear 4xx and leaves nothing stored, and the server keeps answering
 * other requests while it reads any file.
 */
let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none' } });
  headers = await signIn(t, 'reader@example.com');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.exec('DELETE FROM uploaded_files');
});

function upload(filename: string, bytes: Uint8Array) {
  const body = multipartFile(filename, bytes);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

/** Stored files under uploads/ (what a refused book must not leave). */
function storedUploads(): string[] {
  try {
    return readdirSync(path.join(t.config.storageDir, 'uploads'));
  } catch {
    return [];
  }
}

async function expectDamaged(bytes: Uint8Array) {
  const res = await upload('book.epub', bytes);
  expect(res.statusCode).toBe(422);
  expect(res.json()).toMatchObject({
    detail: expect.stringMatching(/^The EPUB is damaged: .+ Download it again and upload the whole file$/),
  });
  expect(storedUploads()).toEqual([]);
  const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploaded_files');
  expect(rows[0]!.n).toBe(0);
}

describe('a damaged EPUB is refused with 422 and nothing is stored', () => {
  it('an entry that holds far more than its declared size (a hidden zip bomb)', async () => {
    await expectDamaged(makeLyingEpub(32 * 1024 * 1024, 2000));
  });

  it("an entry whose checksum is not its data's", async () => {
    const book = makeEpub3();
    const chapter = unzipSync(book)['OEBPS/text/ch2.xhtml']!;
    await expectDamaged(patchZipEntry(book, 'OEBPS/text/ch2.xhtml', { crc: crc32(chapter) ^ 1 }));
  });

  it('an entry whose data ends before its declared size', async () => {
    const book = makeEpub3();
    const chapter = unzipSync(book)['OEBPS/text/ch2.xhtml']!;
    await expectDamaged(patchZipEntry(book, 'OEBPS/text/ch2.xhtml', { size: chapter.length + 500 }));
  });
});

describe('while files are read, the server answers other requests', () => {
  /** Uploads the files while probing /healthz one probe after another; answers how many probes were answered meanwhile. */
  async function probeWhileUploading(files: [string, Uint8Array][]) {
    let pending = files.length;
    const answers = Promise.all(files.map(([name, bytes]) => upload(name, bytes).finally(() => (pending -= 1))));
    let probesAnswered = 0;
    while (pending > 0) {
      const probe = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(probe.statusCode).toBe(200);
      if (pending > 0) probesAnswered += 1;
      await new Promise((r) => setTimeout(r, 10)); // the next probe a moment later, as a prober sends them
    }
    return { probesAnswered, answers: await answers };
  }

  it('answers /healthz all along while a heavy page is read', { timeout: 120_000 }, async () => {
    // The reader is loaded once first, so what follows measures reading, not loading.
    expect((await upload('warm.html', Buffer.from(longPage(2_000)))).statusCode).toBe(201);
    const { probesAnswered, answers } = await probeWhileUploading([['heavy.html', Buffer.from(longPage(2_000_000))]]);
    expect(answers.map((r) => r.statusCode)).toEqual([201]);
    // Reading happens beside the event loop: the probes kept being answered while the page was
    // read (on the event loop, the probes would wait until it was read).
    expect(probesAnswered).toBeGreaterThan(20);
  });

  it(
    'answers /healthz while lying and heavy books are read, and refuses the lying one',
    { timeout: 120_000 },
    async () => {
      const { probesAnswered, answers } = await probeWhileUploading([
        ['lying.epub', makeLyingEpub(16 * 1024 * 1024, 2000, 4)],
        ['heavy.epub', makeLongEpub(1_000_000)],
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([422, 201]);
      expect(probesAnswered).toBeGreaterThan(0);
    },
  );
});
