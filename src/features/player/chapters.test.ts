import { describe, expect, it } from 'vitest';
import { chapterInfoFixtures, convertingChapterInfoFixtures } from '../../mocks/audio';
import {
  chapterAt,
  clampToPlayable,
  isChapterPlayable,
  isChapterReady,
  isPartlyPlayable,
  nextPlayableChapter,
  playableSeconds,
} from './chapters';

describe('chapters of a book still converting', () => {
  it('a chapter whose opening alone is converted plays that long, and is not ready', () => {
    const [first, second] = convertingChapterInfoFixtures({ ready: 0, openingSeconds: 12 });
    expect([isChapterReady(first!), isChapterPlayable(first!), isPartlyPlayable(first!)]).toEqual([false, true, true]);
    expect(playableSeconds(first!)).toBe(12);
    expect([isChapterPlayable(second!), playableSeconds(second!)]).toEqual([false, 0]);
  });

  it('a ready chapter plays whole; one the server sent without playable_seconds counts as ready', () => {
    const [ready] = chapterInfoFixtures();
    expect([isChapterPlayable(ready!), isPartlyPlayable(ready!), playableSeconds(ready!)]).toEqual([true, false, 20]);
    const { playable_seconds: _, ready: __, ...older } = ready!;
    expect(playableSeconds(older)).toBe(20);
  });

  it('positions stay inside the opening; the chapter after it cannot be reached', () => {
    const chapters = convertingChapterInfoFixtures({ ready: 0, openingSeconds: 12 });
    expect(chapterAt(chapters, 30)?.id).toBe(chapters[0]!.id);
    expect(clampToPlayable(chapters, 30)).toBe(12);
    expect(clampToPlayable(chapters, 7)).toBe(7);
    expect(nextPlayableChapter(chapters, 0)).toBeUndefined();
  });

  it('a whole ready chapter is not clamped', () => {
    const chapters = convertingChapterInfoFixtures({ ready: 1 });
    expect(clampToPlayable(chapters, 19.5)).toBe(19.5);
  });
});
