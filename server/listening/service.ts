import { createHmac } from 'node:crypto';
import { id3v2Size, parseFrameHeader } from '../audio/mp3-frames';
import { buildM3u } from '../audio/playlist';
import { signMediaUrl, verifyMediaSignature } from '../audio/signing';
import { chaptersOf, isListenable, listsChapterJobs, type Book, type ChapterInfo } from '../books/book';
import type { BookReader } from '../books/reader';
import { DomainError } from '../errors';
import type { ProgressRecord } from '../progress/repository';
import type { FileStorage } from '../storage/types';
import { isUuid } from '../uuid';

export const JOB_NOT_FOUND = 'Job not found';
export const AUDIO_CONTENT_TYPE = 'audio/mpeg';

export interface ResumeInfo {
  hasProgress: boolean;
  resumePosition: number;
  percentageComplete: number;
  lastPlayedAt: Date | null;
  currentChapterId: string | null;
  currentChapterPosition: number;
}

export interface StreamInfo {
  streamingUrl: string;
  expiresAt: Date;
  fileKey: string;
  contentType: string;
  resume: ResumeInfo;
  sourceJobId: string | null;
}

export interface AudioMetadata {
  job: Book;
  format: string;
  duration: number;
  /** The whole book's length: `duration` once finished; while converting, with an estimate of the rest. */
  estimatedDuration: number;
  fileSize: number;
  chapters: ChapterInfo[];
  chaptersReady: number;
  /** What spoke: the job's engine, else (a book still converting) its converted chapters'. */
  ttsEngine: string | null;
  sampleRate: number | null;
  bitrateKbps: number | null;
  resume: ResumeInfo;
}

export interface ListeningService {
  streamInfo(userId: string, jobId: string): Promise<StreamInfo>;
  metadata(userId: string, jobId: string): Promise<AudioMetadata>;
  /** An extended M3U of the chapters (or the single file) with signed URLs. */
  /** An M3U of the book's chapters; `absolute` turns each signed path into a full URL. */
  playlist(userId: string, jobId: string, absolute?: (path: string) => string): Promise<string>;
  /** Throws a 'forbidden' DomainError unless the query carries a genuine, unexpired signature for the key. */
  authorizeMedia(fileKey: string, expires: string | undefined, sig: string | undefined): void;
}

/** The media-URL key is derived from the token secret, so a leaked media signature never signs tokens. */
export function deriveMediaSecret(jwtSecret: Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(jwtSecret)).update('lectio media urls v1').digest();
}

const NO_RESUME: ResumeInfo = {
  hasProgress: false,
  resumePosition: 0,
  percentageComplete: 0,
  lastPlayedAt: null,
  currentChapterId: null,
  currentChapterPosition: 0,
};

function resumeFrom(progress: ProgressRecord | null): ResumeInfo {
  if (progress === null) return NO_RESUME;
  return {
    hasProgress: true,
    resumePosition: progress.positionSeconds,
    percentageComplete: progress.percentageComplete,
    lastPlayedAt: progress.lastPlayedAt,
    currentChapterId: progress.currentChapterId,
    currentChapterPosition: progress.currentChapterPosition,
  };
}

const PROBE_BYTES = 16 * 1024;

/**
 * A converting book's whole length: its ready chapters' audio, plus each chapter still to come at
 * the pace the voice has kept so far (seconds per byte of text over the ready chapters). Without a
 * measured pace, or a chapter's size, only what is known counts.
 */
export function estimateBookDuration(chapters: readonly ChapterInfo[], readySeconds: number): number {
  let bytes = 0;
  let seconds = 0;
  for (const c of chapters) {
    if (c.ready && c.sourceBytes && c.duration > 0) {
      bytes += c.sourceBytes;
      seconds += c.duration;
    }
  }
  if (bytes === 0) return readySeconds;
  const pace = seconds / bytes;
  const rest = chapters.filter((c) => !c.ready).reduce((sum, c) => sum + (c.sourceBytes ?? 0) * pace, 0);
  return Math.round((readySeconds + rest) * 10) / 10;
}

export function createListeningService(deps: {
  /** Books are read through server/books' reader (the jobs repository, the owner of the jobs table). */
  books: Pick<BookReader, 'findBook' | 'chapterJobs'>;
  progress: { find(userId: string, jobId: string): Promise<ProgressRecord | null> };
  storage: FileStorage;
  mediaSecret: Buffer;
  mediaUrlTtlSeconds: number;
  now: () => Date;
}): ListeningService {
  const { books, progress, storage, mediaSecret, mediaUrlTtlSeconds, now } = deps;

  /** A COMPLETED job, or a book still converting with a chapter ready to play. */
  async function listenableJob(userId: string, jobId: string): Promise<Book> {
    const job = await books.findBook(userId, jobId);
    if (job === null) throw new DomainError('not_found', JOB_NOT_FOUND);
    if (!isListenable(job)) {
      throw new DomainError('conflict', `The audiobook is not ready yet (status ${job.status})`);
    }
    return job;
  }

  /** The book's chapters (its chapter jobs are read only while it converts). */
  async function chaptersOfBook(userId: string, book: Book): Promise<ChapterInfo[]> {
    return chaptersOf(book, listsChapterJobs(book) ? await books.chapterJobs(userId, book.id) : []);
  }

  /** The file to play: the job's own (combined) file, else its first playable chapter. */
  async function playableFile(userId: string, job: Book): Promise<{ fileKey: string; sourceJobId: string | null }> {
    if (job.outputFileKey !== null) return { fileKey: job.outputFileKey, sourceJobId: null };
    const children = await books.chapterJobs(userId, job.id);
    const child = children.find((c) => c.status === 'COMPLETED' && c.outputFileKey !== null);
    if (child?.outputFileKey) return { fileKey: child.outputFileKey, sourceJobId: child.id };
    // Before any chapter is ready: the first chapter's opening (docs/listening.md#the-opening-of-the-first-chapter).
    if (job.opening !== null) return { fileKey: job.opening.fileKey, sourceJobId: null };
    const opened = children.find((c) => c.opening !== null);
    if (opened?.opening) return { fileKey: opened.opening.fileKey, sourceJobId: opened.id };
    const chapter = job.chapters.find((c) => c.fileKey !== null && c.jobId !== null && isUuid(c.jobId));
    if (chapter?.fileKey && chapter.jobId) return { fileKey: chapter.fileKey, sourceJobId: chapter.jobId };
    throw new DomainError('not_found', 'Audio file not found');
  }

  function sign(fileKey: string): { url: string; expiresAt: Date } {
    const expiresUnix = Math.floor(now().getTime() / 1000) + mediaUrlTtlSeconds;
    return { url: signMediaUrl(fileKey, expiresUnix, mediaSecret), expiresAt: new Date(expiresUnix * 1000) };
  }

  /** Sample rate and bitrate from the first MPEG frame header of the file. */
  async function probe(fileKey: string, size: number): Promise<{ sampleRate: number; bitrateKbps: number } | null> {
    if (size < 4) return null;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of storage.read(fileKey, {
        start: 0,
        end: Math.min(size, PROBE_BYTES) - 1,
      }) as AsyncIterable<Buffer>) {
        chunks.push(chunk);
      }
      const bytes = Buffer.concat(chunks);
      for (let offset = id3v2Size(bytes); offset + 4 <= bytes.length; offset += 1) {
        const header = parseFrameHeader(bytes, offset);
        if (header !== null) return { sampleRate: header.sampleRate, bitrateKbps: header.bitrateKbps };
      }
    } catch {
      // An unreadable file has no details to report; the metadata is still useful without them.
    }
    return null;
  }

  return {
    async streamInfo(userId, jobId) {
      const job = await listenableJob(userId, jobId);
      const { fileKey, sourceJobId } = await playableFile(userId, job);
      const { url, expiresAt } = sign(fileKey);
      return {
        streamingUrl: url,
        expiresAt,
        fileKey,
        contentType: AUDIO_CONTENT_TYPE,
        resume: resumeFrom(await progress.find(userId, job.id)),
        sourceJobId,
      };
    },

    async metadata(userId, jobId) {
      const job = await listenableJob(userId, jobId);
      const chapters = await chaptersOfBook(userId, job);
      // What can be played now: the ready chapters, and an opening.
      const duration = job.durationSeconds ?? chapters.reduce((sum, c) => sum + c.duration, 0);
      const readySeconds = chapters.reduce((sum, c) => sum + (c.ready ? c.duration : 0), 0);
      const chaptersReady = chapters.filter((c) => c.ready).length;
      const finished = job.status === 'COMPLETED';
      const file = await playableFile(userId, job).catch(() => null);
      const stat = file === null ? null : await storage.stat(file.fileKey);
      const details = file !== null && stat !== null ? await probe(file.fileKey, stat.size) : null;
      return {
        job,
        format: job.format ?? 'mp3',
        duration,
        estimatedDuration: finished ? duration : estimateBookDuration(chapters, readySeconds),
        fileSize: job.fileSizeBytes ?? stat?.size ?? 0,
        chapters,
        chaptersReady,
        ttsEngine: job.ttsEngine ?? chapters.find((c) => c.ready && c.ttsEngine !== null)?.ttsEngine ?? null,
        sampleRate: details?.sampleRate ?? null,
        bitrateKbps: details?.bitrateKbps ?? null,
        resume: resumeFrom(await progress.find(userId, job.id)),
      };
    },

    async playlist(userId, jobId, absolute = (path) => path) {
      const job = await listenableJob(userId, jobId);
      const chapters = (await chaptersOfBook(userId, job)).filter((c) => c.ready && c.fileKey !== null);
      const entries =
        chapters.length > 0
          ? chapters.map((c) => ({ title: c.title, durationSeconds: c.duration, url: absolute(sign(c.fileKey!).url) }))
          : [await playableFile(userId, job)].map(({ fileKey }) => ({
              title: job.title,
              durationSeconds: job.durationSeconds ?? -1,
              url: absolute(sign(fileKey).url),
            }));
      return buildM3u(entries);
    },

    authorizeMedia(fileKey, expires, sig) {
      const check = verifyMediaSignature(fileKey, expires, sig, mediaSecret, Math.floor(now().getTime() / 1000));
      if (check === 'expired') throw new DomainError('forbidden', 'This link has expired');
      if (check === 'invalid') throw new DomainError('forbidden', 'Invalid link');
    },
  };
}
