/** At most 5 page buttons (docs/product.md#jobs-list). */
export const MAX_PAGE_BUTTONS = 5;

/**
 * The page numbers to show as buttons: a window of at most `max` pages around `current`,
 * centred where it can be and slid inwards at either end. [] when there are no pages.
 */
export function pageWindow(current: number, total: number, max: number = MAX_PAGE_BUTTONS): number[] {
  if (total <= 0 || max <= 0) return [];
  const size = Math.min(max, total);
  const page = Math.min(Math.max(1, current), total);
  const first = Math.min(Math.max(1, page - Math.floor(size / 2)), total - size + 1);
  return Array.from({ length: size }, (_, index) => first + index);
}
