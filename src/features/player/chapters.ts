import type { AudioMetadataOutput } from '../../api/gen/model';

/** Chapter maths: pure functions of a book's chapters and a position in seconds. */

export type ChapterInfo = AudioMetadataOutput['chapters'][number];

type Chapters = { readonly chapters: readonly Readonly<ChapterInfo>[] } | null | undefined;

/** The chapters of a book in playing order. */
export function chaptersOf(metadata: Chapters): ChapterInfo[] {
  return [...(metadata?.chapters ?? [])].sort((a, b) => a.start - b.start || a.order - b.order);
}

/**
 * The chapter is converted, all of it: a book still converting marks the others `ready: false`
 * (docs/listening.md#listening-while-a-book-converts).
 */
export function isChapterReady(chapter: Pick<ChapterInfo, 'ready'>): boolean {
  return chapter.ready !== false;
}

/**
 * Seconds from the chapter's start that can be played now: all of a ready chapter; of one still
 * converting, its opening (its first minutes, converted first) once that is ready, else 0.
 */
export function playableSeconds(chapter: Pick<ChapterInfo, 'ready' | 'duration' | 'playable_seconds'>): number {
  if (isChapterReady(chapter)) return chapter.duration;
  return Math.max(0, chapter.playable_seconds ?? 0);
}

/** Something of the chapter can be played: it is ready, or its opening is. */
export function isChapterPlayable(chapter: Pick<ChapterInfo, 'ready' | 'duration' | 'playable_seconds'>): boolean {
  return isChapterReady(chapter) || playableSeconds(chapter) > 0;
}

/** Only the chapter's opening can be played: the rest still converts. */
export function isPartlyPlayable(chapter: Pick<ChapterInfo, 'ready' | 'duration' | 'playable_seconds'>): boolean {
  return !isChapterReady(chapter) && playableSeconds(chapter) > 0;
}

/** The chapter playing at `position`: the last playable one starting at or before it. */
export function chapterAt<C extends Readonly<ChapterInfo>>(chapters: readonly C[], position: number): C | null {
  let found: C | null = null;
  for (const chapter of chapters) {
    if (isChapterPlayable(chapter) && chapter.start <= position + 0.001) found = chapter;
  }
  return found ?? chapters.find(isChapterPlayable) ?? null;
}

/** Where the chapter playing at `position` ends (`duration`, the book's end, without chapters). */
export function chapterEndAt(chapters: readonly ChapterInfo[], position: number, duration: number): number {
  const chapter = chapterAt(chapters, position);
  if (!chapter) return duration;
  const next = chapters.find((c) => c.start > chapter.start);
  const end = chapter.duration > 0 ? chapter.start + chapter.duration : (next?.start ?? duration);
  return Math.min(end, duration || end);
}

/**
 * `position` kept inside what can be played: in a chapter whose opening alone is converted, no
 * further than the opening's end.
 */
export function clampToPlayable(chapters: readonly ChapterInfo[], position: number): number {
  const chapter = chapterAt(chapters, position);
  if (!chapter || !isPartlyPlayable(chapter)) return position;
  return Math.min(position, chapter.start + playableSeconds(chapter));
}

/** The next playable chapter after the one at `position`, if any. */
export function nextPlayableChapter(chapters: readonly ChapterInfo[], position: number): ChapterInfo | undefined {
  const current = chapterAt(chapters, position);
  return chapters.slice(current ? chapters.indexOf(current) + 1 : 0).find(isChapterPlayable);
}

/** The playable chapter before the one at `position`, if any. */
export function previousPlayableChapter(chapters: readonly ChapterInfo[], position: number): ChapterInfo | undefined {
  const current = chapterAt(chapters, position);
  const index = current ? chapters.indexOf(current) : -1;
  return chapters.slice(0, Math.max(0, index)).findLast(isChapterPlayable);
}

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
