import type { JobOutput, JobSummaryOutput } from '../api/gen/model';

/** A job id is shown as its first 8 characters. */
const SHORT_ID_LENGTH = 8;

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/** PENDING and PROCESSING jobs are active: they may change, so they are polled and may be cancelled. */
export function isActiveStatus(status: string): boolean {
  return status === 'PENDING' || status === 'PROCESSING';
}

/** The title to show for a job: its own, else 'Job' plus its short id. */
export function jobTitle(job: Pick<JobOutput, 'id' | 'title'>): string {
  return job.title.trim() || `Job ${shortId(job.id)}`;
}

/** The title to show for a finished book: its own, else 'Audiobook' plus its short id. */
export function bookTitle(job: Pick<JobOutput, 'id' | 'title'>): string {
  return job.title.trim() || `Audiobook ${shortId(job.id)}`;
}

/** A step's machine name for people: 'split_chapters' -> 'Split chapters', 'synthesize' -> 'Synthesize'. */
export function humanizeStepName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

/** '1 job', '3 jobs'; '1 chapter', '3 chapters'. */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * A job waiting for its turn in the queue: "Queued, 3 ahead" ("Queued, next" when none is ahead);
 * null for a job that is running, finished, or whose answer gives no place.
 */
export function queuedLabel(job: { status: string; queue_position?: number | null | undefined }): string | null {
  if (job.status !== 'PENDING' || job.queue_position === undefined || job.queue_position === null) return null;
  return job.queue_position === 0 ? 'Queued, next' : `Queued, ${job.queue_position} ahead`;
}

/** A finished job's length in seconds: its result's figures, else the job's own; 0 when unknown. */
export function jobDuration(
  job: Pick<JobSummaryOutput, 'duration'> & {
    result_data: Pick<JobSummaryOutput['result_data'], 'duration' | 'duration_seconds'>;
  },
): number {
  return job.result_data.duration ?? job.result_data.duration_seconds ?? job.duration ?? 0;
}

/** Chapters a finished book plays: its chapter jobs (or chapter list), else one (a single text). */
export function chapterCount(job: { chapter_count: number } | Pick<JobOutput, 'result_data' | 'children'>): number {
  const counted = 'chapter_count' in job ? job.chapter_count : job.result_data.chapters?.length || job.children.length;
  return counted || 1;
}

/** A book job: it was made a book, or it has chapter jobs. */
export function isBook(job: Pick<JobSummaryOutput, 'job_type' | 'chapter_count'>): boolean {
  return job.job_type === 'book_processing' || job.chapter_count > 0;
}

/**
 * '12 of 70 chapters done' for a book in the jobs list; null when the job has no chapters yet or
 * the answer did not say how many are ready (`chapters_ready` is optional in the contract).
 */
export function chaptersDoneLabel(job: Pick<JobSummaryOutput, 'chapter_count' | 'chapters_ready'>): string | null {
  if (job.chapter_count <= 0 || job.chapters_ready === undefined) return null;
  return `${job.chapters_ready} of ${countLabel(job.chapter_count, 'chapter')} done`;
}

/**
 * A book still converting that can already be played (docs/listening.md#listening-while-a-book-converts):
 * 'Converting · 3 of 12 chapters ready' while its status is not COMPLETED and some of its chapters
 * are not ready yet; null for a finished job, or when the answer does not say how many are ready.
 */
export function convertingLabel(
  job: Pick<JobSummaryOutput, 'status' | 'chapter_count' | 'chapters_ready'>,
): string | null {
  const ready = job.chapters_ready;
  if (job.status === 'COMPLETED' || job.chapter_count <= 0 || ready === undefined || ready >= job.chapter_count)
    return null;
  return `Converting · ${ready} of ${countLabel(job.chapter_count, 'chapter')} ready`;
}

/**
 * How far a job is, 0..100: a book's chapters done out of its chapters (2 of 33 is 6 %, whatever
 * its steps say), a single text's own progress, 100 once it is COMPLETED.
 */
export function jobProgress(
  job: Pick<JobSummaryOutput, 'status' | 'progress' | 'chapter_count' | 'chapters_ready'>,
): number {
  if (job.status === 'COMPLETED') return 100;
  if (job.chapter_count > 0 && job.chapters_ready !== undefined)
    return (Math.min(job.chapters_ready, job.chapter_count) / job.chapter_count) * 100;
  return job.progress;
}

/**
 * The library plays a finished job, or a book still converting with a chapter or its first
 * chapter's opening ready (docs/listening.md). The server says so in `listenable`; an answer
 * without it (an older server) is judged by its status and `chapters_ready`, which cannot see an opening.
 */
export function isListenable(job: Pick<JobSummaryOutput, 'status' | 'chapters_ready' | 'listenable'>): boolean {
  if (job.listenable !== undefined) return job.listenable;
  return job.status === 'COMPLETED' || (isActiveStatus(job.status) && (job.chapters_ready ?? 0) > 0);
}

/**
 * What of a converting book plays already: '3 of 12 chapters ready', or 'First minutes ready' while
 * only its first chapter's opening does (no chapter ready, the server says it plays); null for a
 * job without chapters, or when the answer does not say how many are ready.
 */
export function readyText(
  job: Pick<JobSummaryOutput, 'status' | 'chapter_count' | 'chapters_ready' | 'listenable'>,
): string | null {
  const ready = job.chapters_ready;
  if (job.chapter_count <= 0 || ready === undefined) return null;
  if (ready === 0 && isActiveStatus(job.status) && job.listenable === true) return 'First minutes ready';
  return `${ready} of ${job.chapter_count} chapters ready`;
}

interface BookWithChapters<T extends { id: string }> {
  children: readonly T[];
  result_data: { chapters?: readonly { job_id?: string; order: number }[]; child_job_ids?: readonly string[] };
}

/**
 * A book's chapter jobs in chapter order, never by their titles' text ('Chapter 10' after
 * 'Chapter 9'): by the order the book's result gives each chapter job (`chapters[].order`, else
 * its place in `child_job_ids`); a chapter the result does not name keeps the place the server
 * listed it in (the server lists `children` in chapter order, docs/listening.md#chapter-order).
 */
export function chaptersInOrder<T extends { id: string }>(book: BookWithChapters<T>): T[] {
  const rank = new Map<string, number>();
  const { chapters, child_job_ids } = book.result_data;
  if (chapters?.some((chapter) => chapter.job_id !== undefined)) {
    for (const chapter of chapters) if (chapter.job_id !== undefined) rank.set(chapter.job_id, chapter.order);
  } else if (child_job_ids) {
    child_job_ids.forEach((id, index) => rank.set(id, index + 1));
  }
  return book.children
    .map((child, index) => ({ child, index, order: rank.get(child.id) ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.order - b.order || a.index - b.index)
    .map(({ child }) => child);
}

/** A chapter job's title without its book's ('Tales - Chapter 2' -> 'Chapter 2'), as the server names chapters. */
export function chapterTitle(chapter: Pick<JobOutput, 'id' | 'title'>, bookTitleText: string): string {
  const prefix = `${bookTitleText} - `;
  const own = chapter.title.startsWith(prefix) ? chapter.title.slice(prefix.length).trim() : '';
  return own || jobTitle(chapter);
}
