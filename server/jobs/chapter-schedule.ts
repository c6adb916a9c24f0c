/**
 * A book's chapters while they convert: which are handed to the queue next (CHAPTER_CONCURRENCY at
 * a time, the first chapter alone until it is done), the book's progress as their mean, and what a
 * chapter's end means for its book (start more, fail the book, or wake it up to join the audio).
 * The runner (./runner.ts) calls it when a chapter ends; the book's synthesize_chapters step when
 * it looks at its chapters.
 */
import type { JobQueue } from './queue';
import type { JobRepository } from './repository';
import type { ChapterState } from './steps';
import { isActive } from './types';

export interface ChapterScheduleDeps {
  repo: JobRepository;
  queue: Pick<JobQueue, 'send'>;
  chapterConcurrency: number;
}

export function createChapterSchedule({ repo, queue, chapterConcurrency }: ChapterScheduleDeps) {
  /** Looks at a book's chapters: hands more to the queue (CHAPTER_CONCURRENCY at a time) and rolls up progress. */
  async function scheduleChapters(parentId: string): Promise<ChapterState> {
    const { state, start } = await repo.transaction(async (tx) => {
      await tx.jobs.lockJob(parentId);
      const chapters = await tx.jobs.chapterStates(parentId);
      if (chapters.length === 0)
        return { state: { state: 'failed', message: 'The book has no chapters' } as ChapterState, start: [] };
      await tx.setBookProgress(parentId, chapters.reduce((n, c) => n + c.progress, 0) / chapters.length);
      const bad = chapters.find((c) => c.status === 'FAILED' || c.status === 'CANCELLED');
      if (bad) {
        const n = bad.chapterOrder ?? chapters.indexOf(bad) + 1;
        const message =
          bad.status === 'CANCELLED'
            ? `Chapter ${n} was cancelled`
            : `Chapter ${n} failed: ${bad.errorMessage ?? 'unknown error'}`;
        return { state: { state: 'failed', message } as ChapterState, start: [] };
      }
      if (chapters.every((c) => c.status === 'COMPLETED'))
        return { state: { state: 'done' } as ChapterState, start: [] };
      const running = chapters.filter((c) => isActive(c.status) && c.enqueued).length;
      // The first chapter first: until it is done it converts alone (on every encoder stream), so
      // the reader can start listening as soon as possible (docs/listening.md#the-first-chapter-first).
      const limit = chapters[0]?.status === 'COMPLETED' ? chapterConcurrency : 1;
      const slots = Math.max(0, limit - running);
      const start = chapters
        .filter((c) => c.status === 'PENDING' && !c.enqueued)
        .slice(0, slots)
        .map((c) => c.id);
      await tx.jobs.markEnqueued(start);
      return { state: { state: 'waiting' } as ChapterState, start };
    });
    for (const id of start) await queue.send(id);
    return state;
  }

  /** A chapter ended: start the next ones, fail the book, or wake it up to join the audio. */
  async function afterChapter(parentId: string): Promise<void> {
    const parent = await repo.jobs.get(parentId);
    if (!parent || !isActive(parent.status)) return;
    const state = await scheduleChapters(parentId);
    if (state.state === 'failed') {
      await repo.steps.update(parentId, 'synthesize_chapters', {
        status: 'failed',
        errorMessage: state.message,
        complete: true,
      });
      await repo.jobs.patch(parentId, { status: 'FAILED', errorMessage: state.message }, { onlyIfActive: true });
    } else if (state.state === 'done') {
      await queue.send(parentId);
    }
  }

  return { scheduleChapters, afterChapter };
}
