import type { AudioMetadataOutput } from '../../api/gen/model';

/** Chapter maths: pure functions of a book's chapters and a position in seconds. */

export type ChapterInfo = AudioMetadataOutput['chapters'][number];

type Chapters = { readonly chapters: readonly Readonly<ChapterInfo>[] } | null | undefined;

/** The chapters of a book in playing order. */
export function chaptersOf(metadata: Chapters): ChapterInfo[] {
  return [...(metadata?.chapters ?? [])].sort((a, b) => a.start - b.start || a.order - b.order);
}

/**
 * A chapter can be played once it is converted: a book still converting marks the others
 * `ready: false` (docs/listening.md#listening-while-a-book-converts); they are never played.
 */
export function isChapterReady(chapter: Pick<ChapterInfo, 'ready'>): boolean {
  return chapter.ready !== false;
}

/** The chapter playing at `position`: the last ready one starting at or before it. */
export function chapterAt<C extends Readonly<ChapterInfo>>(chapters: readonly C[], position: number): C | null {
  let found: C | null = null;
  for (const chapter of chapters) {
    if (isChapterReady(chapter) && chapter.start <= position + 0.001) found = chapter;
  }
  return found ?? chapters.find(isChapterReady) ?? null;
}

/** Where the chapter playing at `position` ends (`duration`, the book's end, without chapters). */
export function chapterEndAt(chapters: readonly ChapterInfo[], position: number, duration: number): number {
  const chapter = chapterAt(chapters, position);
  if (!chapter) return duration;
  const next = chapters.find((c) => c.start > chapter.start);
  const end = chapter.duration > 0 ? chapter.start + chapter.duration : (next?.start ?? duration);
  return Math.min(end, duration || end);
}

/** The next ready chapter after the one at `position`, if any. */
export function nextReadyChapter(chapters: readonly ChapterInfo[], position: number): ChapterInfo | undefined {
  const current = chapterAt(chapters, position);
  return chapters.slice(current ? chapters.indexOf(current) + 1 : 0).find(isChapterReady);
}

/** The ready chapter before the one at `position`, if any. */
export function previousReadyChapter(chapters: readonly ChapterInfo[], position: number): ChapterInfo | undefined {
  const current = chapterAt(chapters, position);
  const index = current ? chapters.indexOf(current) : -1;
  return chapters.slice(0, Math.max(0, index)).findLast(isChapterReady);
}

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
