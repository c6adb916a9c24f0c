/**
 * The read model of a book: a job as everyone who reads it sees it (listening, progress, downloads,
 * feeds, the voice assistant, and through them the audio, transcript and cover routes). The jobs
 * repository, the owner of the jobs table, builds it from a row (server/jobs/book.ts, private to the
 * jobs module) and hands it out through the `BookReader` it implements (./reader.ts); nothing else
 * decodes a job's config or result_data. A text job is a book of one chapter; a book's chapter
 * jobs read as books of their own (their audio, text and timing map), named by `parentJobId`.
 */
import { isActive, type JobStatus, type JobType, type Provider } from '../jobs/types';

/** A chapter as the finished book records it (result_data), in book order. */
export interface RecordedChapter {
  title: string;
  /** 1-based position in the book. */
  order: number;
  /** Seconds of its audio, when known. */
  duration: number | null;
  /** The chapter's own MP3, when it has one. */
  fileKey: string | null;
  /** The chapter job's id, when it has one. */
  jobId: string | null;
}

/** The tutoring analysis as readers use it (the analyze step writes it into the job's config). */
export interface BookAnalysis {
  themes: string[];
  characters: { name: string; role: string }[];
  setting: { time: string; place: string } | null;
  discussionQuestions: string[];
}

export interface Book {
  id: string;
  userId: string;
  /** For a chapter job, its book; null for a text or a book. */
  parentJobId: string | null;
  chapterOrder: number | null;
  jobType: JobType;
  title: string;
  description: string | null;
  status: JobStatus;
  /** The voice provider the reader asked for. */
  provider: Provider | null;
  outputFileKey: string | null;
  /** The text the conversion read (its timing map's character offsets point into it). */
  inputFileKey: string | null;
  /** For a book: its chapter jobs that are COMPLETED (playable while the rest converts). */
  chaptersReady: number;
  /**
   * A chapter job still converting: its opening, once that is playable (only a book's first
   * chapter has one; docs/listening.md#the-opening-of-the-first-chapter). Null otherwise.
   */
  opening: { fileKey: string; durationSeconds: number } | null;
  /** For a book still converting: one of its chapters' opening is playable (counted with the row). */
  openingReady: boolean;
  /** A chapter job's own title (its `title` is prefixed with the book's). */
  chapterTitle: string | null;
  /** From the book's file (EPUB, ...), when it names one. */
  author: string | null;
  /** The cover supplied with the input, when there was one. */
  cover: { key: string; contentType: string } | null;
  /** Seconds of audio, when known (the column, else result_data). */
  durationSeconds: number | null;
  /** Bytes of the text the job reads (a chapter's own text): how long it will speak, before it has. */
  sourceBytes: number | null;
  fileSizeBytes: number | null;
  format: string | null;
  /** The engine that spoke it: espeak-ng, openai or elevenlabs. */
  ttsEngine: string | null;
  /** A finished book's chapters; empty for a text and for a book still converting. */
  chapters: RecordedChapter[];
  analysis: BookAnalysis | null;
  createdAt: Date;
  completedAt: Date | null;
}

/** A chapter as a listener meets it: where it starts in the whole audio and whether it plays yet. */
export interface ChapterInfo {
  /** The chapter job's id, else `<book id>:<order>`, else the job's own id (a text). */
  id: string;
  title: string;
  order: number;
  /** Seconds from the start of the combined audio. */
  start: number;
  duration: number;
  /** The chapter's own audio file, when it has one. */
  fileKey: string | null;
  /** Converted and playable (a book's later chapters may still convert). */
  ready: boolean;
  /** Seconds from its start that can be played now: `duration` when ready, else its opening's (or 0). */
  playableSeconds: number;
  /** Bytes of its text, when known (estimates a chapter not converted yet). */
  sourceBytes: number | null;
  /** The engine that spoke it, once it has. */
  ttsEngine: string | null;
}

function record(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The analysis of a job's config (or a fixture's), keeping only well-formed characters; null when there is none. */
export function parseAnalysis(value: unknown): BookAnalysis | null {
  if (value === null || value === undefined) return null;
  const a = record(value);
  const characters = Array.isArray(a.characters)
    ? a.characters.flatMap((c: unknown) => {
        const r = record(c);
        return typeof r.name === 'string' && r.name.trim() !== ''
          ? [{ name: r.name.trim(), role: typeof r.role === 'string' ? r.role : 'character' }]
          : [];
      })
    : [];
  const setting = record(a.setting);
  return {
    themes: strings(a.themes),
    characters,
    setting:
      typeof setting.time === 'string' || typeof setting.place === 'string'
        ? { time: String(setting.time ?? ''), place: String(setting.place ?? '') }
        : null,
    discussionQuestions: strings(a.discussion_questions),
  };
}

/**
 * Whether anything of the job can be played now: it is finished, or it still converts and a
 * chapter of it is ready or has its opening ready (or it is such a chapter).
 */
export function isListenable(book: Pick<Book, 'status' | 'chaptersReady' | 'opening' | 'openingReady'>): boolean {
  if (book.status === 'COMPLETED') return true;
  return isActive(book.status) && (book.chaptersReady > 0 || book.openingReady || book.opening !== null);
}

/**
 * Whether a book's chapters are read from its chapter jobs: a book (book_processing) that has not
 * recorded them, because it still converts or an earlier version finished it. A finished book has
 * them recorded, and a text never has chapter jobs, so neither costs a query.
 */
export function listsChapterJobs(book: Pick<Book, 'chapters' | 'jobType'>): boolean {
  return book.chapters.length === 0 && book.jobType === 'book_processing';
}

/**
 * A book's chapters as a listener meets them, in order, each with where it starts in the whole
 * audio: a finished book's recorded chapters; else, while it converts, its chapter jobs (those
 * converted are ready); else the job itself as its one chapter.
 */
export function chaptersOf(book: Book, chapterJobs: readonly Book[]): ChapterInfo[] {
  let listed: Omit<ChapterInfo, 'start'>[];
  if (book.chapters.length > 0) {
    listed = book.chapters.map((c) => ({
      id: c.jobId ?? `${book.id}:${c.order}`,
      title: c.title,
      order: c.order,
      duration: c.duration ?? 0,
      fileKey: c.fileKey,
      ready: c.fileKey !== null,
      playableSeconds: c.fileKey !== null ? (c.duration ?? 0) : 0,
      sourceBytes: null,
      ttsEngine: book.ttsEngine,
    }));
  } else if (chapterJobs.length > 0) {
    listed = chapterJobs.map((chapter, index) => {
      const ready = chapter.status === 'COMPLETED' && chapter.outputFileKey !== null;
      // A chapter still converting plays its opening, when that is ready, for as long as it lasts.
      const opening = ready ? null : chapter.opening;
      const duration = ready ? (chapter.durationSeconds ?? 0) : (opening?.durationSeconds ?? 0);
      return {
        id: chapter.id,
        title: chapter.chapterTitle ?? chapter.title,
        order: chapter.chapterOrder ?? index + 1,
        duration,
        fileKey: ready ? chapter.outputFileKey : (opening?.fileKey ?? null),
        ready,
        playableSeconds: duration,
        sourceBytes: chapter.sourceBytes,
        ttsEngine: chapter.ttsEngine,
      };
    });
  } else {
    listed = [
      {
        id: book.id,
        title: book.title,
        order: 1,
        duration: book.durationSeconds ?? 0,
        fileKey: book.outputFileKey,
        ready: true,
        playableSeconds: book.durationSeconds ?? 0,
        sourceBytes: book.sourceBytes,
        ttsEngine: book.ttsEngine,
      },
    ];
  }
  let start = 0;
  return listed.map((chapter) => {
    const withStart = { ...chapter, start };
    start += chapter.duration;
    return withStart;
  });
}
