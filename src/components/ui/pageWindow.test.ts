import { describe, expect, it } from 'vitest';
import { pageWindow } from './pageWindow';

describe('pageWindow', () => {
  it.each([
    [1, 0, []],
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [2, 5, [1, 2, 3, 4, 5]],
    [1, 12, [1, 2, 3, 4, 5]],
    [2, 12, [1, 2, 3, 4, 5]],
    [3, 12, [1, 2, 3, 4, 5]],
    [4, 12, [2, 3, 4, 5, 6]],
    [7, 12, [5, 6, 7, 8, 9]],
    [11, 12, [8, 9, 10, 11, 12]],
    [12, 12, [8, 9, 10, 11, 12]],
    [40, 12, [8, 9, 10, 11, 12]],
    [0, 12, [1, 2, 3, 4, 5]],
  ])('page %s of %s -> %j', (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });

  it('never shows more than the maximum and always includes the current page', () => {
    for (let total = 1; total <= 30; total += 1) {
      for (let current = 1; current <= total; current += 1) {
        const pages = pageWindow(current, total);
        expect(pages.length).toBe(Math.min(5, total));
        expect(pages).toContain(current);
      }
    }
  });

  it('honours a smaller maximum', () => {
    expect(pageWindow(5, 10, 3)).toEqual([4, 5, 6]);
  });
});
