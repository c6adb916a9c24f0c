import type { Job } from '../../api/gen/model';

/** A job id is shown as its first 8 characters (docs/product.md#job-statuses). */
export const SHORT_ID_LENGTH = 8;

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/** The title to show: the job's own, else 'Job' plus its short id (docs/product.md#dashboard). */
export function jobTitle(job: Pick<Job, 'id' | 'title'>): string {
  return job.title.trim() || `Job ${shortId(job.id)}`;
}

/**
 * A duration given in SECONDS, as 'Hh Mm' from an hour up and 'Mm Ss' below it.
 * Fixes the earlier client's defect (seconds were treated as minutes; docs/product.md#durations-and-dates): 3725 -> '1h 2m',
 * 125 -> '2m 5s'. Missing or negative values give '—'.
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m ${secs}s`;
}

/** A calendar date in the reader's locale, e.g. 'Feb 1, 2025'; '—' when missing. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** Date and time, e.g. 'Feb 1, 2025, 10:00 AM'; '—' when missing. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** A step's machine name for people: 'split_chapters' -> 'Split chapters', 'synthesize' -> 'Synthesize'. */
export function humanizeStepName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

/** The voice provider a job was made with (config.provider, else its voice config; openai by default). */
export function jobProvider(job: { config: Pick<Job['config'], 'provider' | 'voice_config'> }): 'openai' | 'elevenlabs' {
  return job.config.provider ?? job.config.voice_config?.provider ?? 'openai';
}

/** '1 job', '3 jobs'; '1 chapter', '3 chapters'. */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** Progress as a whole percentage within 0..100. */
export function percent(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}
