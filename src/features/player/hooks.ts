import { useSnapshot } from 'valtio';
import { chapterAt, chaptersOf } from './chapters';
import { usePlayerCache, usePlayerMetadata } from './data';
import { state } from './store';

/** The player state for rendering (re-renders on change); hands the player the app's data cache. */
export function usePlayer() {
  usePlayerCache();
  return useSnapshot(state);
}

/** The loaded book's chapters and the one playing now. */
export function useChapters() {
  const { currentPosition, currentChapter } = useSnapshot(state);
  const chapters = chaptersOf(usePlayerMetadata());
  const current = chapters.find((chapter) => chapter.id === currentChapter) ?? chapterAt(chapters, currentPosition);
  return { chapters, current };
}
