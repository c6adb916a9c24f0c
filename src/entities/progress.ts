import type { PlaybackProgressOutput } from '../api/gen/model';

/** A book listened to this far (percent of its duration) is finished (docs/product.md#library). */
export const FINISHED_AT_PERCENT = 95;

type ProgressFigures = Pick<PlaybackProgressOutput, 'position_seconds' | 'percentage_complete' | 'is_completed'>;

/**
 * Percent of a book listened, 0..100: the record's own figure, else its position over the book's
 * duration (seconds); 100 once the record says the book is completed; 0 without a record.
 */
export function listenedPercent(record: ProgressFigures | null | undefined, durationSeconds: number): number {
  if (!record) return 0;
  if (record.is_completed) return 100;
  const percent =
    record.percentage_complete > 0
      ? record.percentage_complete
      : durationSeconds > 0
        ? (record.position_seconds / durationSeconds) * 100
        : 0;
  return Math.min(100, Math.max(0, percent));
}

/** The saved place is at the end: the record says completed, or at least 95 % was listened. */
export function isFinished(record: ProgressFigures | null | undefined, durationSeconds: number): boolean {
  return listenedPercent(record, durationSeconds) >= FINISHED_AT_PERCENT;
}
