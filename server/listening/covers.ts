/**
 * Every book has a cover. The one supplied with its input (an EPUB's, copied to `jobs/<id>/cover`
 * when the job is created) wins; otherwise a typographic SVG is drawn from the title and the
 * author (when the file named one), on a palette derived from the title, so the same book always
 * gets the same cover. A finished book's generated cover is stored beside its audio
 * (`jobs/<id>/cover.svg`, deleted with the book) the first time it is asked for; until the book
 * finishes the cover is drawn on each request (a web page's title is only known once it is read).
 * A chapter job shows its book's cover.
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../errors';
import { generatedCoverKey } from '../jobs/storage-keys';
import type { FileStorage } from '../storage/types';
import type { Book } from '../jobs/book';
import type { JobsTable } from '../jobs/repository';
import { JOB_NOT_FOUND } from './service';

export const SVG_CONTENT_TYPE = 'image/svg+xml; charset=utf-8';
/** A cover that no longer changes; private: it is the user's own. */
export const FINAL_CACHE_CONTROL = 'private, max-age=86400';
/** A converting book's cover may still change (its title may), so browsers check it each time (ETag). */
export const PROVISIONAL_CACHE_CONTROL = 'private, no-cache';

export interface Cover {
  contentType: string;
  etag: string;
  cacheControl: string;
  size: number;
  /** The image bytes; a stream for a supplied image (it may be large). */
  body: Buffer | NodeJS.ReadableStream;
  generated: boolean;
}

export interface CoverService {
  cover(userId: string, jobId: string): Promise<Cover>;
}

/**
 * Characters XML 1.0 cannot hold (control characters, U+FFFE/U+FFFF, lone surrogates) become
 * spaces; tabs and line breaks, which it can, mean nothing on a cover either.
 */
function xmlSafe(text: string): string {
  // With the u flag a surrogate range matches only unpaired halves.
  return text.replace(/[\p{Cc}\uFFFE\uFFFF\uD800-\uDFFF]/gu, ' ');
}

/** Text content and attribute values: the five characters with a meaning in XML are escaped. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const titleDigest = (title: string) => createHash('sha256').update(title.trim().toLowerCase()).digest();

/** A palette from the title's hash: a deep background, a lighter accent of a neighbouring hue, light ink. */
export function paletteFor(title: string): { background: string; accent: string; ink: string; muted: string } {
  const digest = titleDigest(title);
  const hue = digest.readUInt16BE(0) % 360;
  const shift = 25 + (digest[2]! % 50);
  const saturation = 35 + (digest[3]! % 30);
  const lightness = 22 + (digest[4]! % 12);
  return {
    background: `hsl(${hue}, ${saturation}%, ${lightness}%)`,
    accent: `hsl(${(hue + shift) % 360}, 70%, 68%)`,
    ink: '#fbf8f1',
    muted: `hsl(${hue}, 30%, 82%)`,
  };
}

const WIDTH = 600;
const HEIGHT = 900;

/** The drawings a cover may carry behind its title: the title's hash picks one. */
export const COVER_MOTIFS = ['sun', 'bands', 'rays', 'waves', 'grid'] as const;
export type CoverMotif = (typeof COVER_MOTIFS)[number];

export function motifFor(title: string): CoverMotif {
  const digest = titleDigest(title);
  return COVER_MOTIFS[digest[5]! % COVER_MOTIFS.length]!;
}

/** The motif's shapes in the accent colour, kept clear of the title's block (x 60-540, y 180-520). */
function motifShapes(motif: CoverMotif, accent: string, seed: number): string {
  switch (motif) {
    case 'sun':
      return `<circle cx="${420 + (seed % 120)}" cy="130" r="180" fill="${accent}" opacity="0.2"/>`;
    case 'bands':
      return [0, 1, 2]
        .map(
          (i) =>
            `<rect x="0" y="${600 + i * 56}" width="${WIDTH}" height="28" fill="${accent}" opacity="${0.32 - i * 0.09}"/>`,
        )
        .join('');
    case 'rays':
      return Array.from({ length: 9 }, (_, i) => {
        const angle = (Math.PI / 2) * (i / 8);
        const x = Math.round(WIDTH - Math.cos(angle) * 900);
        const y = Math.round(HEIGHT - Math.sin(angle) * 900);
        return `<line x1="${WIDTH}" y1="${HEIGHT}" x2="${x}" y2="${y}" stroke="${accent}" stroke-width="3" opacity="0.18"/>`;
      }).join('');
    case 'waves':
      return [0, 1, 2, 3]
        .map((i) => {
          const y = 640 + i * 36;
          return `<path d="M0 ${y} Q 150 ${y - 40} 300 ${y} T 600 ${y}" fill="none" stroke="${accent}" stroke-width="4" opacity="${0.4 - i * 0.08}"/>`;
        })
        .join('');
    case 'grid':
      return Array.from({ length: 5 }, (_, row) =>
        Array.from({ length: 5 }, (_, col) => {
          const on = ((seed >> ((row * 5 + col) % 8)) & 1) === 1;
          return `<rect x="${330 + col * 44}" y="${40 + row * 26}" width="36" height="18" fill="${accent}" opacity="${on ? 0.45 : 0.14}"/>`;
        }).join(''),
      ).join('');
  }
}

const MAX_LINE_CHARS = 16;
const MAX_LINES = 6;

/** The title in at most MAX_LINES lines of about MAX_LINE_CHARS characters, broken between words. */
export function titleLines(title: string): string[] {
  const words = title
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const lines: string[] = [];
  for (const word of words.length > 0 ? words : ['Untitled']) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= MAX_LINE_CHARS)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  if (lines.length <= MAX_LINES) return lines;
  const kept = lines.slice(0, MAX_LINES);
  kept[MAX_LINES - 1] = `${kept[MAX_LINES - 1]!.replace(/[\s.,;:!?-]+$/, '')}…`;
  return kept;
}

/**
 * The typographic cover: a self-contained SVG (no scripts, no external resources, no style
 * elements). The title's hash picks its palette and one of the motifs, so books on a shelf look
 * different from one another and each always looks the same.
 */
export function typographicCover(book: { title: string; author: string | null }): string {
  const name = xmlSafe(book.title).replace(/\s+/g, ' ').trim() || 'Untitled';
  const palette = paletteFor(book.title);
  const lines = titleLines(name);
  const longest = Math.max(...lines.map((l) => [...l].length));
  // Serif capitals average about 0.56 em; the title fills at most 480 of the 600 units.
  const size = Math.max(30, Math.min(76, Math.floor(480 / (longest * 0.56))));
  const lineHeight = Math.round(size * 1.15);
  const top = 300 - ((lines.length - 1) * lineHeight) / 2;
  const title = lines
    .map((line, i) => `<tspan x="60" y="${Math.round(top + i * lineHeight)}">${escapeXml(line)}</tspan>`)
    .join('');
  const author =
    book.author === null || book.author.trim() === ''
      ? ''
      : `<text x="60" y="800" font-family="Georgia, 'Times New Roman', serif" font-size="30" letter-spacing="2" fill="${palette.muted}">${escapeXml(book.author.trim().slice(0, 60))}</text>`;
  const label = escapeXml(`Cover of ${name}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${palette.background}"/>`,
    `<rect x="0" y="0" width="24" height="${HEIGHT}" fill="${palette.accent}" opacity="0.85"/>`,
    motifShapes(motifFor(book.title), palette.accent, titleDigest(book.title)[6]!),
    `<rect x="60" y="${Math.round(top - size - 40)}" width="120" height="6" fill="${palette.accent}"/>`,
    `<text font-family="Georgia, 'Times New Roman', serif" font-size="${size}" font-weight="bold" fill="${palette.ink}">${title}</text>`,
    `<rect x="60" y="740" width="480" height="2" fill="${palette.muted}" opacity="0.5"/>`,
    author,
    '</svg>',
  ].join('\n');
}

/** Whether an If-None-Match header names `etag` (weak or strong, in a list, or `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

const etagOf = (material: string | Buffer) =>
  `"${createHash('sha256').update(material).digest('base64url').slice(0, 27)}"`;

async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of storage.read(key) as AsyncIterable<Buffer | string>) {
    parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(parts);
}

export function createCoverService(deps: {
  /** Reads books, and counts a kept drawn cover in its owner's storage quota. */
  books: Pick<JobsTable, 'findBook' | 'keepCoverBytes'>;
  storage: FileStorage;
}): CoverService {
  const { books, storage } = deps;

  async function generated(book: Book): Promise<Cover> {
    const key = generatedCoverKey(book.id);
    let svg: Buffer | null = null;
    if (book.status === 'COMPLETED') {
      if ((await storage.stat(key)) !== null) svg = await readAll(storage, key);
      else {
        svg = Buffer.from(typographicCover(book), 'utf8');
        // Keeping it is an optimisation: a storage that refuses the write still gets its cover.
        // It is counted in its reader's storage before it is written, and no longer if it was not.
        await books.keepCoverBytes(book.id, 'svg', svg.byteLength);
        await storage.write(key, svg).catch(() => books.keepCoverBytes(book.id, 'svg', 0).catch(() => undefined));
      }
    }
    const body = svg ?? Buffer.from(typographicCover(book), 'utf8');
    return {
      contentType: SVG_CONTENT_TYPE,
      etag: etagOf(body),
      cacheControl: book.status === 'COMPLETED' ? FINAL_CACHE_CONTROL : PROVISIONAL_CACHE_CONTROL,
      size: body.byteLength,
      body,
      generated: true,
    };
  }

  return {
    async cover(userId, jobId) {
      const job = await books.findBook(userId, jobId);
      if (job === null) throw new DomainError('not_found', JOB_NOT_FOUND);
      const book = job.parentJobId === null ? job : ((await books.findBook(userId, job.parentJobId)) ?? job);
      if (book.cover !== null) {
        const stat = await storage.stat(book.cover.key);
        if (stat !== null) {
          return {
            contentType: book.cover.contentType,
            // Written once when the book is created, never changed.
            etag: etagOf(`${book.cover.key}:${stat.size}`),
            cacheControl: FINAL_CACHE_CONTROL,
            size: stat.size,
            body: storage.read(book.cover.key) as NodeJS.ReadableStream,
            generated: false,
          };
        }
      }
      return generated(book);
    },
  };
}
