/**
 * FOR TESTS AND PACT PROVIDER STATES ONLY: what the listening side reads, written without running
 * the pipeline: a job's text with its sentence timing map, and books part way through conversion.
 */
import type { DbExecutor } from '../db/types';
import type { FileStorage } from '../storage/types';
import { BOOK_STEPS, CHAPTER_STEPS } from '../jobs/types';
import { openingKey } from '../jobs/storage-keys';
import { insertJob, insertSteps, seedCompletedAudiobook, writeMp3 } from './library-fixtures';

export interface WrittenSentence {
  text: string;
  start: number;
  end: number;
  char_start: number;
  char_end: number;
}

/**
 * Gives a seeded job a text (paragraphs of sentences, blank lines between paragraphs) and the
 * timing map the synthesize step would have written beside its audio: each sentence's share of
 * `seconds` in proportion to its length. Answers the sentences as written.
 */
export async function writeTranscript(
  db: DbExecutor,
  storage: FileStorage,
  job: { jobId: string; fileKey: string; durationSeconds: number },
  paragraphs: readonly (readonly string[])[],
): Promise<WrittenSentence[]> {
  let text = '';
  const spans: { text: string; char_start: number; char_end: number }[] = [];
  for (const [p, sentences] of paragraphs.entries()) {
    if (p > 0) text += '\n\n';
    for (const [s, sentence] of sentences.entries()) {
      if (s > 0) text += ' ';
      spans.push({ text: sentence, char_start: text.length, char_end: text.length + sentence.length });
      text += sentence;
    }
  }
  const total = spans.reduce((n, s) => n + s.text.length, 0);
  let t = 0;
  const written = spans.map((s) => {
    const share = (s.text.length / total) * job.durationSeconds;
    const entry = { ...s, start: Math.round(t * 1000) / 1000, end: Math.round((t + share) * 1000) / 1000 };
    t += share;
    return entry;
  });
  const textKey = `jobs/${job.jobId}/source.txt`;
  await storage.write(textKey, new TextEncoder().encode(text));
  const timing = written.map(({ start, end, char_start, char_end }) => ({ start, end, char_start, char_end }));
  await storage.write(`${job.fileKey}.timing.json`, new TextEncoder().encode(JSON.stringify(timing)));
  await db.query('UPDATE jobs SET input_file_key = $2 WHERE id = $1', [job.jobId, textKey]);
  return written;
}

/** Two short paragraphs for chapter `n`, so each chapter's text is its own. */
export function chapterParagraphs(n: number): string[][] {
  return [
    [`Chapter ${n} begins at the harbour.`, `The boats of chapter ${n} come home at dusk.`],
    [`A new paragraph in chapter ${n} starts here.`, 'It ends the chapter.'],
  ];
}

/**
 * A book still converting (PROCESSING, synthesize_chapters running) with `chapters` chapter jobs
 * titled "Chapter 1".."Chapter N", all created at the same instant as split_chapters creates them.
 * The chapters numbered in `ready` are COMPLETED with an MP3 and a transcript; the others PENDING
 * (or `notReadyStatus`).
 */
export async function seedConvertingBook(
  db: DbExecutor,
  storage: FileStorage,
  options: {
    userId: string;
    title?: string;
    chapters: number;
    ready: readonly number[];
    secondsPerChapter?: number;
    notReadyStatus?: 'PENDING' | 'PROCESSING' | 'FAILED';
    bookStatus?: 'PENDING' | 'PROCESSING' | 'FAILED';
    /** Seconds of chapter 1's opening (a real MP3), chapter 1 converting and not ready. */
    openingSeconds?: number;
  },
): Promise<{ bookId: string; chapterIds: string[] }> {
  const title = options.title ?? 'The Long Voyage';
  const createdAt = new Date();
  const bookId = await insertJob(db, {
    userId: options.userId,
    title,
    jobType: 'book_processing',
    status: options.bookStatus ?? 'PROCESSING',
    progress: 50,
    // The book is created first; split_chapters creates its chapters later, all at one instant.
    createdAt: new Date(createdAt.getTime() - 1000),
  });
  await insertSteps(db, bookId, BOOK_STEPS, BOOK_STEPS.indexOf('synthesize_chapters'));
  const chapterIds: string[] = [];
  for (let order = 1; order <= options.chapters; order += 1) {
    const config = {
      provider: 'openai',
      voice_config: { provider: 'openai', voice_id: 'alloy' },
      chapter_title: `Chapter ${order}`,
    };
    let id: string;
    if (options.ready.includes(order)) {
      const done = await seedCompletedAudiobook(db, storage, {
        userId: options.userId,
        title: `${title} - Chapter ${order}`,
        seconds: options.secondsPerChapter ?? 2,
        parentJobId: bookId,
        chapterOrder: order,
        seed: order,
      });
      id = done.jobId;
      await db.query('UPDATE jobs SET config = $2::jsonb, created_at = $3 WHERE id = $1', [
        id,
        JSON.stringify(config),
        createdAt.toISOString(),
      ]);
      await writeTranscript(db, storage, done, chapterParagraphs(order));
    } else if (order === 1 && options.openingSeconds !== undefined) {
      // Chapter 1 synthesising, its opening written and recorded as the synthesize step does.
      id = await insertJob(db, {
        userId: options.userId,
        title: `${title} - Chapter ${order}`,
        status: 'PROCESSING',
        parentJobId: bookId,
        chapterOrder: order,
        config,
        createdAt,
      });
      await insertSteps(db, id, CHAPTER_STEPS, CHAPTER_STEPS.indexOf('synthesize'));
      const fileKey = openingKey(id);
      const { durationSeconds } = await writeMp3(storage, fileKey, options.openingSeconds, order);
      await db.query('UPDATE jobs SET config = config || $2::jsonb WHERE id = $1', [
        id,
        JSON.stringify({ opening: { file_key: fileKey, duration: durationSeconds } }),
      ]);
    } else {
      id = await insertJob(db, {
        userId: options.userId,
        title: `${title} - Chapter ${order}`,
        status: options.notReadyStatus ?? 'PENDING',
        parentJobId: bookId,
        chapterOrder: order,
        config,
        createdAt,
      });
      await insertSteps(db, id, CHAPTER_STEPS, options.notReadyStatus === 'PROCESSING' ? 1 : -1);
    }
    chapterIds.push(id);
  }
  return { bookId, chapterIds };
}
