import { useSnapshot } from 'valtio';
import { chapterAt, chaptersOf, state } from './store';

/** The player state for rendering (re-renders on change). */
export function usePlayer() {
  return useSnapshot(state);
}

/** The loaded book's chapters and the one playing now. */
export function useChapters() {
  const { metadata, currentPosition, currentChapter } = useSnapshot(state);
  const chapters = chaptersOf(metadata);
  const current = chapters.find((chapter) => chapter.id === currentChapter) ?? chapterAt(chapters, currentPosition);
  return { chapters, current };
}
