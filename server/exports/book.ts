/**
 * What a download is made from: a finished book as the listening side reads it (its chapters with
 * their own audio and start times in the combined file, title, author, cover), through the
 * listening service and the transcript service, never the jobs tables.
 */
import { DomainError } from '../errors';
import type { ListeningService } from '../listening/service';
import type { Transcript, TranscriptService } from '../listening/transcript';

export interface ExportChapter {
  /** 1-based, reading order. */
  order: number;
  title: string;
  /** Seconds from the start of the combined audio. */
  start: number;
  duration: number;
  /** The chapter's own MP3. */
  fileKey: string;
}

export interface ExportBook {
  id: string;
  userId: string;
  title: string;
  author: string | null;
  /** The book's completion time: a download built from an earlier one is stale. */
  version: string;
  /** The whole book's MP3 (a single text's only file). */
  audioKey: string;
  duration: number;
  chapters: ExportChapter[];
  /** The cover supplied with the book, when there was one. */
  cover: { key: string; contentType: string } | null;
}

export interface BookSource {
  /** The user's COMPLETED book; 404 when it is not theirs, 409 while it is not finished. */
  book(userId: string, jobId: string): Promise<ExportBook>;
  /** Chapter `order`'s sentences with their times in the chapter's own audio. */
  transcript(userId: string, jobId: string, order: number): Promise<Transcript>;
}

export function createBookSource(deps: { listening: ListeningService; transcripts: TranscriptService }): BookSource {
  return {
    async book(userId, jobId) {
      const meta = await deps.listening.metadata(userId, jobId);
      const job = meta.job;
      if (job.status !== 'COMPLETED' || job.completedAt === null || job.outputFileKey === null) {
        throw new DomainError(
          'conflict',
          `The audiobook is not finished yet (status ${job.status}): downloads are made from a finished book`,
        );
      }
      if (job.parentJobId !== null) {
        throw new DomainError('conflict', 'This is a chapter of a book: download the book');
      }
      const chapters = meta.chapters.map((c, index) => ({
        order: index + 1,
        title: c.title.trim() === '' ? `Chapter ${index + 1}` : c.title,
        start: c.start,
        duration: c.duration,
        fileKey: c.fileKey ?? job.outputFileKey!,
      }));
      return {
        id: job.id,
        userId: job.userId,
        title: job.title.trim() === '' ? 'Untitled' : job.title,
        author: job.author,
        version: job.completedAt.toISOString(),
        audioKey: job.outputFileKey,
        duration: meta.duration,
        chapters,
        cover: job.cover,
      };
    },
    transcript: (userId, jobId, order) => deps.transcripts.transcript(userId, jobId, order),
  };
}
