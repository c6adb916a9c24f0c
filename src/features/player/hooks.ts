import { useSnapshot } from 'valtio';
import { chapterAt, chaptersOf } from './chapters';
import { usePlayerMetadata } from './data';
import { useSavedProgress } from './progressCache';
import { state } from './store';

/** The player state for rendering (re-renders on change). */
export function usePlayer() {
  return useSnapshot(state);
}

/** The loaded book's chapters and the one playing now. */
export function useChapters() {
  const { currentPosition, currentChapter } = useSnapshot(state);
  const chapters = chaptersOf(usePlayerMetadata());
  const current = chapters.find((chapter) => chapter.id === currentChapter) ?? chapterAt(chapters, currentPosition);
  return { chapters, current };
}

/**
 * Where the reader is in a book, from one rule: the player's live position while it holds the
 * book, else `fallback` (a position the page was opened at), else the saved place; null when
 * the book was never played.
 */
export function useListeningPosition(jobId: string | null, fallback: number | null = null): number | null {
  const player = useSnapshot(state);
  const saved = useSavedProgress(jobId ?? '', { enabled: jobId !== null && fallback === null });
  if (jobId === null) return null;
  if (player.currentJobId === jobId && !player.isLoading) return player.currentPosition;
  return fallback ?? saved.data?.position_seconds ?? null;
}
