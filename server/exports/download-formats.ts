/**
 * The download formats built from the stored audio (EPUB is in epub.ts): each writes its file
 * into a storage writer, reporting progress, and stops when its signal aborts.
 */
import { createReadStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildM3u } from '../audio/playlist';
import type { Scratch } from '../storage/scratch';
import type { FileStorage, StorageWriter } from '../storage/types';
import type { BookSource, ExportBook } from '../books/source';
import { runFfmpeg, type Ffmpeg } from './ffmpeg';
import { safeName } from './filename';
import type { ExportFormat } from './repository';
import { bookTag, chapterTag } from './tags';
import { zipInto } from './zip';

export interface BuildContext {
  book: ExportBook;
  storage: FileStorage;
  writer: StorageWriter;
  /** The cover as JPEG. */
  cover: Buffer;
  ffmpeg: () => Ffmpeg;
  /** Where ffmpeg's files live while it works (server/storage/scratch.ts). */
  scratch: Scratch;
  books: BookSource;
  signal: AbortSignal;
  /** Progress of the build, 0 to 1. */
  report(fraction: number): Promise<void>;
}

export const EXTENSIONS: Record<ExportFormat, string> = { m4b: 'm4b', mp3: 'mp3', zip: 'zip', epub: 'epub' };
export const CONTENT_TYPES: Record<ExportFormat, string> = {
  m4b: 'audio/mp4',
  mp3: 'audio/mpeg',
  zip: 'application/zip',
  epub: 'application/epub+zip',
};
/**
 * AAC bitrate of the M4B, from the combined MP3's own average bitrate: re-encoding at more than the
 * source adds bytes, not sound, so the M4B stays about the size of the MP3 it is made from (offline
 * voices at 48 kbit/s give 48; a cloud voice's 128 kbit/s MP3 gives 64, where speech from a mono
 * source loses nothing audible). Never under 32 kbit/s, where plain AAC starts to smear speech.
 */
export function aacKbps(sourceBytes: number, durationSeconds: number): number {
  if (!(sourceBytes > 0) || !(durationSeconds > 0)) return AAC_MAX_KBPS;
  const sourceKbps = (sourceBytes * 8) / durationSeconds / 1000;
  // The nearest multiple of 8: a tag, a cover or a rounded duration move the average a little.
  return Math.min(AAC_MAX_KBPS, Math.max(AAC_MIN_KBPS, Math.round(sourceKbps / 8) * 8));
}
const AAC_MAX_KBPS = 64;
const AAC_MIN_KBPS = 32;

/** Copies a stored file into the writer chunk by chunk, calling `progress` with the bytes so far. */
async function copyStored(
  ctx: BuildContext,
  key: string,
  progress: (bytes: number) => Promise<void> = async () => undefined,
): Promise<void> {
  let bytes = 0;
  for await (const chunk of ctx.storage.read(key) as AsyncIterable<Buffer>) {
    ctx.signal.throwIfAborted();
    await ctx.writer.write(chunk);
    bytes += chunk.length;
    await progress(bytes);
  }
}

async function sizeOf(ctx: BuildContext, key: string): Promise<number> {
  const info = await ctx.storage.stat(key);
  if (info === null) throw new Error(`A stored audio file of "${ctx.book.title}" is missing`);
  return info.size;
}

/** The whole book in one MP3: the book's tag with its chapter frames, then the combined audio. */
async function buildMp3(ctx: BuildContext): Promise<void> {
  const total = await sizeOf(ctx, ctx.book.audioKey);
  await ctx.writer.write(await bookTag(ctx.book, ctx.cover));
  await copyStored(ctx, ctx.book.audioKey, (bytes) => ctx.report(bytes / Math.max(1, total)));
}

/** Two digits at least, so the chapters sort in order in any file manager. */
const numbered = (order: number, count: number) => String(order).padStart(Math.max(2, String(count).length), '0');

export function chapterFileName(book: ExportBook, order: number): string {
  const chapter = book.chapters[order - 1]!;
  return `${numbered(order, book.chapters.length)} - ${safeName(chapter.title, `Chapter ${order}`)}.mp3`;
}

/** Every chapter as its own tagged MP3, cover.jpg and an M3U playlist of relative paths. */
async function buildZip(ctx: BuildContext): Promise<void> {
  const { book } = ctx;
  const sizes = await Promise.all(book.chapters.map((c) => sizeOf(ctx, c.fileKey)));
  const total = sizes.reduce((a, b) => a + b, 0);
  const zip = zipInto(ctx.writer);
  let done = 0;
  for (const chapter of book.chapters) {
    const key = chapter.fileKey;
    const tag = await chapterTag(book, chapter, ctx.cover);
    const storage = ctx.storage;
    async function* tagged(): AsyncIterable<Uint8Array> {
      yield tag;
      yield* storage.read(key) as AsyncIterable<Buffer>;
    }
    await zip.store(chapterFileName(book, chapter.order), tagged(), ctx.signal);
    done += sizes[chapter.order - 1]!;
    await ctx.report(done / Math.max(1, total));
  }
  await zip.store('cover.jpg', ctx.cover);
  const playlist = buildM3u(
    book.chapters.map((c) => ({ title: c.title, durationSeconds: c.duration, url: chapterFileName(book, c.order) })),
    { relativePaths: true },
  );
  await zip.deflate(`${safeName(book.title)}.m3u`, playlist);
  await zip.end();
}

/** FFMETADATA values: `=`, `;`, `#`, `\` are escaped and line breaks become spaces. */
function metaValue(text: string): string {
  return text.replace(/[\r\n\p{Cc}]+/gu, ' ').replace(/[=;#\\]/g, (c) => `\\${c}`);
}

export function ffmetadata(book: ExportBook): string {
  const author = book.author ?? 'Lectio';
  const lines = [
    ';FFMETADATA1',
    `title=${metaValue(book.title)}`,
    `album=${metaValue(book.title)}`,
    `artist=${metaValue(author)}`,
    `album_artist=${metaValue(author)}`,
    'genre=Audiobook',
    '',
  ];
  for (const c of book.chapters) {
    lines.push(
      '[CHAPTER]',
      'TIMEBASE=1/1000',
      `START=${Math.round(c.start * 1000)}`,
      `END=${Math.round((c.start + c.duration) * 1000)}`,
      `title=${metaValue(c.title)}`,
      '',
    );
  }
  return lines.join('\n');
}

/** AAC in MP4 with a chapter track, the cover and the book's tags, encoded by ffmpeg from the combined MP3. */
async function buildM4b(ctx: BuildContext): Promise<void> {
  await ctx.scratch.withDir(async (dir) => {
    const meta = path.join(dir, 'metadata.txt');
    const cover = path.join(dir, 'cover.jpg');
    const output = path.join(dir, 'book.m4b');
    await writeFile(meta, ffmetadata(ctx.book));
    await writeFile(cover, ctx.cover);
    const duration = Math.max(1, ctx.book.duration);
    const kbps = aacKbps(await sizeOf(ctx, ctx.book.audioKey), ctx.book.duration);
    let reported = Promise.resolve();
    await runFfmpeg(
      ctx.ffmpeg(),
      [
        '-f',
        'mp3',
        '-i',
        'pipe:0',
        '-f',
        'ffmetadata',
        '-i',
        meta,
        '-i',
        cover,
        '-map',
        '0:a',
        '-map',
        '2:v',
        '-map_metadata',
        '1',
        '-map_chapters',
        '1',
        '-c:a',
        'aac',
        // The fast coder is about 2.5 times quicker than the default (twoloop); speech at these
        // rates sounds the same either way.
        '-aac_coder',
        'fast',
        '-b:a',
        `${kbps}k`,
        '-c:v',
        'copy',
        '-disposition:v:0',
        'attached_pic',
        '-movflags',
        '+faststart',
        '-brand',
        'M4B ',
        '-f',
        'mp4',
        output,
      ],
      {
        stdin: ctx.storage.read(ctx.book.audioKey) as NodeJS.ReadableStream as import('node:stream').Readable,
        signal: ctx.signal,
        // Encoding is 95 % of the work; copying the file into storage the rest.
        onProgress: (seconds) => {
          reported = reported.then(() => ctx.report(Math.min(0.95, (seconds / duration) * 0.95)));
        },
      },
    );
    await reported;
    const size = (await stat(output)).size;
    let copied = 0;
    for await (const chunk of createReadStream(output) as AsyncIterable<Buffer>) {
      ctx.signal.throwIfAborted();
      await ctx.writer.write(chunk);
      copied += chunk.length;
      await ctx.report(0.95 + (copied / Math.max(1, size)) * 0.05);
    }
  });
}

export const BUILDERS: Record<Exclude<ExportFormat, 'epub'>, (ctx: BuildContext) => Promise<void>> = {
  mp3: buildMp3,
  zip: buildZip,
  m4b: buildM4b,
};
