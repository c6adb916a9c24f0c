/**
 * Read-along transcripts: one chapter of an audiobook's text, sentence by sentence, with the time
 * span at which each sentence is spoken. Built from what the conversion keeps beside every MP3:
 * its timing map (`<audio key>.timing.json`, see jobs/timing.ts) whose character offsets point
 * into the text the job read (its input file). A book's chapters are chapter jobs, each with its
 * own audio, timing map and text, so a chapter is readable as soon as it is converted.
 */
import { DomainError } from '../errors';
import { timingKey } from '../jobs/storage-keys';
import type { FileStorage } from '../storage/types';
import type { Book } from '../jobs/book';
import type { JobsTable } from '../jobs/repository';
import { timingFileSchema, type TimingEntry } from '../jobs/timing';
import { JOB_NOT_FOUND } from './service';

export interface TranscriptSentence {
  index: number;
  /** Seconds from the start of the chapter's own audio. */
  start: number;
  end: number;
  text: string;
  /** UTF-16 offsets into the chapter's text. */
  charStart: number;
  charEnd: number;
  paragraphStart: boolean;
  /** When the voice timed its words: each word's time and place in the chapter's text, in order. */
  words?: { start: number; end: number; char_start: number; char_end: number }[];
}

export interface Transcript {
  jobId: string;
  chapter: { id: string; order: number; title: string; start: number; duration: number };
  chapterCount: number;
  sentences: TranscriptSentence[];
}

export interface TranscriptService {
  /** Chapter `chapter` (1-based, reading order) of the user's job. */
  transcript(userId: string, jobId: string, chapter: number): Promise<Transcript>;
}

export const NO_TRANSCRIPT = 'This audiobook has no transcript (it was converted without a timing map)';

const round = (n: number) => Math.round(n * 1000) / 1000;

async function readUtf8(storage: FileStorage, key: string): Promise<string | null> {
  if ((await storage.stat(key)) === null) return null;
  const parts: Buffer[] = [];
  for await (const chunk of storage.read(key) as AsyncIterable<Buffer | string>) {
    parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The sentences of `text` as its timing map places them, trimmed of surrounding blank space. */
export function sentencesOf(text: string, entries: readonly TimingEntry[]): TranscriptSentence[] {
  const ordered = [...entries].sort((a, b) => a.char_start - b.char_start || a.start - b.start);
  const out: TranscriptSentence[] = [];
  let previousEnd = 0;
  for (const entry of ordered) {
    let from = Math.min(entry.char_start, text.length);
    let to = Math.min(Math.max(entry.char_end, from), text.length);
    while (from < to && /\s/.test(text[from]!)) from += 1;
    while (to > from && /\s/.test(text[to - 1]!)) to -= 1;
    if (from === to) continue;
    out.push({
      index: out.length,
      start: round(entry.start),
      end: round(Math.max(entry.end, entry.start)),
      text: text.slice(from, to),
      charStart: from,
      charEnd: to,
      paragraphStart: out.length === 0 || text.slice(previousEnd, from).includes('\n'),
      ...(entry.words !== undefined && {
        words: entry.words
          .filter((w) => w.char_start >= from && w.char_end <= to && w.char_end > w.char_start)
          .map((w) => ({
            start: round(w.start),
            end: round(Math.max(w.end, w.start)),
            char_start: w.char_start,
            char_end: w.char_end,
          })),
      }),
    });
    previousEnd = to;
  }
  return out;
}

export function createTranscriptService(deps: {
  books: Pick<JobsTable, 'findBook' | 'chapterJobs'>;
  storage: FileStorage;
}): TranscriptService {
  const { books, storage } = deps;

  async function sentencesFor(job: Book): Promise<TranscriptSentence[]> {
    if (job.outputFileKey === null || job.inputFileKey === null) throw new DomainError('not_found', NO_TRANSCRIPT);
    const [timing, text] = await Promise.all([
      readUtf8(storage, timingKey(job.outputFileKey)),
      readUtf8(storage, job.inputFileKey),
    ]);
    if (timing === null || text === null) throw new DomainError('not_found', NO_TRANSCRIPT);
    let entries;
    try {
      entries = timingFileSchema.parse(JSON.parse(timing));
    } catch {
      throw new DomainError('not_found', NO_TRANSCRIPT);
    }
    return sentencesOf(text, entries);
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
          sentences: await sentencesFor(job),
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
        sentences: await sentencesFor(own),
      };
    },
  };
}
