/**
 * Read-along transcripts: one chapter of an audiobook's text, sentence by sentence, with the time
 * span at which each sentence is spoken (server/books/transcript.ts), from the chapter's text and
 * timing map as server/books reads them. A book's chapters are chapter jobs, each with its own
 * audio, timing map and text, so a chapter is readable as soon as it is converted. A full-cast
 * book's sentences also say who speaks each part of them (its cast: server/cast/repository.ts).
 */
import type { Book } from '../books/book';
import { createCastRepository } from '../cast/repository';
import type { BookReader } from '../books/reader';
import { readBookText } from '../books/text';
import { sentencesOf, type Transcript, type TranscriptSentence } from '../books/transcript';
import { createBookSource, type BookSource } from '../books/source';
import { DomainError } from '../errors';
import type { FileStorage } from '../storage/types';
import { JOB_NOT_FOUND } from './service';

export interface TranscriptService {
  /** Chapter `chapter` (1-based, reading order) of the user's job. */
  transcript(userId: string, jobId: string, chapter: number): Promise<Transcript>;
}

export const NO_TRANSCRIPT = 'This audiobook has no transcript (it was converted without a timing map)';

export function createTranscriptService(deps: {
  books: Pick<BookReader, 'findBook' | 'chapterJobs'>;
  storage: FileStorage;
}): TranscriptService {
  const { books, storage } = deps;
  const casts = createCastRepository(storage);

  /** `job`'s sentences; a full-cast book's with who speaks each part (`chapter`: its index in `bookId`). */
  async function sentencesFor(job: Book, bookId: string, chapter: number): Promise<TranscriptSentence[]> {
    const read = await readBookText(storage, job);
    if (read === null) throw new DomainError('not_found', NO_TRANSCRIPT);
    const cast = await casts.read(bookId);
    return sentencesOf(read.text, read.timing, cast === null ? undefined : (cast.chapters[chapter] ?? []));
  }

  return {
    async transcript(userId, jobId, chapter) {
      const job = await books.findBook(userId, jobId);
      if (job === null) throw new DomainError('not_found', JOB_NOT_FOUND);
      const children = job.parentJobId === null ? await books.chapterJobs(userId, job.id) : [];
      if (children.length === 0) {
        if (chapter !== 1)
          throw new DomainError('not_found', `There is no chapter ${chapter}: this audiobook has 1 chapter`);
        if (job.status !== 'COMPLETED') {
          throw new DomainError('conflict', `The audiobook is not ready yet (status ${job.status})`);
        }
        return {
          jobId: job.id,
          chapter: { id: job.id, order: 1, title: job.title, start: 0, duration: job.durationSeconds ?? 0 },
          chapterCount: 1,
          // A chapter asked for by its own id reads its book's cast.
          sentences: await sentencesFor(job, job.parentJobId ?? job.id, (job.chapterOrder ?? 1) - 1),
        };
      }
      const own = children[chapter - 1];
      if (own === undefined) {
        throw new DomainError('not_found', `There is no chapter ${chapter}: this book has ${children.length} chapters`);
      }
      if (own.status !== 'COMPLETED') {
        throw new DomainError('conflict', `Chapter ${chapter} is not ready yet (status ${own.status})`);
      }
      const start = children.slice(0, chapter - 1).reduce((sum, c) => sum + (c.durationSeconds ?? 0), 0);
      return {
        jobId: job.id,
        chapter: {
          id: own.id,
          order: chapter,
          title: own.chapterTitle ?? job.chapters[chapter - 1]?.title ?? own.title,
          start,
          duration: own.durationSeconds ?? 0,
        },
        chapterCount: children.length,
        sentences: await sentencesFor(own, job.id, chapter - 1),
      };
    },
  };
}

/**
 * The one source of finished books (server/books/source.ts) for downloads, feeds, the streamed
 * files' tags and the assistant, reading these transcripts and the books' casts.
 */
export function createFinishedBooks(deps: {
  books: Pick<BookReader, 'findBook' | 'chapterJobs' | 'completedBooks'>;
  progress: Parameters<typeof createBookSource>[0]['progress'];
  storage: FileStorage;
}): { transcripts: TranscriptService; bookSource: BookSource } {
  const transcripts = createTranscriptService(deps);
  const casts = createCastRepository(deps.storage);
  return { transcripts, bookSource: createBookSource({ ...deps, transcripts, casts }) };
}
