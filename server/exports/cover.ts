/**
 * The book's cover as a JPEG image, for the ID3 picture (APIC), the M4B, the ZIP's cover.jpg and
 * the podcast feed: the image supplied with the book (a JPEG as is, any other image converted by
 * ffmpeg), else the typographic cover of server/books/cover-art.ts drawn by resvg with the DejaVu
 * Serif font that ships in an npm package (so the title is drawn on any machine). Made once per
 * book and kept beside its audio (`jobs/<id>/cover.jpg`, deleted with the book), its size counted
 * in the book owner's storage quota (`kept`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { typographicCover } from '../books/cover-art';
import { readWholeIfStored } from '../books/read';
import { coverJpegKey } from '../books/storage-keys';
import type { Scratch } from '../storage/scratch';
import type { FileStorage } from '../storage/types';
import type { ExportBook } from '../books/source';
import { runFfmpeg, type Ffmpeg } from './ffmpeg';

const isJpeg = (bytes: Buffer) => bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

function serifFonts(): string[] {
  const require = createRequire(import.meta.url);
  const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  return [path.join(dir, 'DejaVuSerif.ttf'), path.join(dir, 'DejaVuSerif-Bold.ttf')];
}

/** The typographic cover as PNG bytes (rendered in libuv's thread pool, off the event loop). */
async function drawnCover(book: ExportBook, signal?: AbortSignal): Promise<Buffer> {
  const { renderAsync } = await import('@resvg/resvg-js');
  const svg = typographicCover({ title: book.title, author: book.author });
  const image = await renderAsync(
    svg,
    {
      font: {
        loadSystemFonts: false,
        fontFiles: serifFonts(),
        defaultFontFamily: 'DejaVu Serif',
        serifFamily: 'DejaVu Serif',
      },
      fitTo: { mode: 'width', value: 1000 },
    },
    signal ?? null,
  );
  return image.asPng();
}

/** Any image ffmpeg reads (PNG, GIF, WebP, JPEG) as a baseline JPEG of at most 1400 pixels a side. */
function toJpeg(ffmpeg: Ffmpeg, scratch: Scratch, image: Buffer, signal?: AbortSignal): Promise<Buffer> {
  return scratch.withDir(async (dir) => {
    const input = path.join(dir, 'in');
    const output = path.join(dir, 'cover.jpg');
    await writeFile(input, image);
    await runFfmpeg(
      ffmpeg,
      [
        '-i',
        input,
        '-frames:v',
        '1',
        '-vf',
        "scale='min(1400,iw)':'min(1400,ih)':force_original_aspect_ratio=decrease,format=yuvj420p",
        '-q:v',
        '3',
        '-f',
        'image2',
        output,
      ],
      signal === undefined ? {} : { signal },
    );
    return readFile(output);
  });
}

export interface CoverMaker {
  /** The book's cover as JPEG bytes; made and stored on the first call. */
  jpeg(book: ExportBook, signal?: AbortSignal): Promise<Buffer>;
}

export function createCoverMaker(deps: {
  storage: FileStorage;
  ffmpeg: () => Ffmpeg;
  scratch: Scratch;
  /** Counts a kept cover's bytes in its book owner's storage (the jobs module's repository). */
  kept?: (bookId: string, bytes: number) => Promise<void>;
}): CoverMaker {
  const { storage } = deps;
  // One making per book at a time: concurrent feed and download requests share it.
  const making = new Map<string, Promise<Buffer>>();

  async function make(book: ExportBook, signal?: AbortSignal): Promise<Buffer> {
    const key = coverJpegKey(book.id);
    const kept = await readWholeIfStored(storage, key);
    if (kept !== null) return kept;
    const source = book.cover === null ? null : await readWholeIfStored(storage, book.cover.key);
    // An image ffmpeg cannot read gets the drawn cover, like a book without one.
    let jpeg: Buffer | null = null;
    if (source !== null)
      jpeg = isJpeg(source) ? source : await toJpeg(deps.ffmpeg(), deps.scratch, source, signal).catch(() => null);
    jpeg ??= await toJpeg(deps.ffmpeg(), deps.scratch, await drawnCover(book, signal), signal);
    // Counted before it is written, like everything a reader keeps; a write that fails counts nothing.
    await deps.kept?.(book.id, jpeg.byteLength);
    await storage.write(key, jpeg).catch(async (error: unknown) => {
      await deps.kept?.(book.id, 0).catch(() => undefined);
      throw error;
    });
    return jpeg;
  }

  return {
    jpeg(book, signal) {
      const pending = making.get(book.id);
      if (pending !== undefined) return pending;
      const promise = make(book, signal).finally(() => making.delete(book.id));
      making.set(book.id, promise);
      return promise;
    },
  };
}
