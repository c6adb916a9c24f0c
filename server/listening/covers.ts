/**
 * Every book has a cover. The one supplied with its input (an EPUB's, copied to `jobs/<id>/cover`
 * when the job is created) wins; otherwise the typographic SVG of server/books/cover-art.ts, drawn
 * from the title and the author (when the file named one), so the same book always gets the same
 * cover. A finished book's generated cover is stored beside its audio
 * (`jobs/<id>/cover.svg`, deleted with the book) the first time it is asked for; until the book
 * finishes the cover is drawn on each request (a web page's title is only known once it is read).
 * A chapter job shows its book's cover.
 */
import { createHash } from 'node:crypto';
import type { Book } from '../books/book';
import { typographicCover } from '../books/cover-art';
import { readWholeIfStored } from '../books/read';
import type { BookReader } from '../books/reader';
import { generatedCoverKey } from '../books/storage-keys';
import { DomainError } from '../errors';
import type { FileStorage } from '../storage/types';
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

export function createCoverService(deps: {
  /** Reads books, and counts a kept drawn cover in its owner's storage quota. */
  books: Pick<BookReader, 'findBook' | 'keepCoverBytes'>;
  storage: FileStorage;
}): CoverService {
  const { books, storage } = deps;

  async function generated(book: Book): Promise<Cover> {
    const key = generatedCoverKey(book.id);
    let svg: Buffer | null = null;
    if (book.status === 'COMPLETED') {
      svg = await readWholeIfStored(storage, key);
      if (svg === null) {
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
