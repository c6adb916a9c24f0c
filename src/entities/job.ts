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

/** A finished job's length in seconds: its result's figures, else the job's own; 0 when unknown. */
export function jobDuration(
  job: Pick<JobSummaryOutput, 'duration'> & { result_data: Pick<JobSummaryOutput['result_data'], 'duration' | 'duration_seconds'> },
): number {
  return job.result_data.duration ?? job.result_data.duration_seconds ?? job.duration ?? 0;
}

/** Chapters a finished book plays: its chapter jobs (or chapter list), else one (a single text). */
export function chapterCount(job: { chapter_count: number } | Pick<JobOutput, 'result_data' | 'children'>): number {
  const counted = 'chapter_count' in job ? job.chapter_count : job.result_data.chapters?.length || job.children.length;
  return counted || 1;
}
