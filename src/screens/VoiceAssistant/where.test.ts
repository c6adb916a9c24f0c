import { describe, expect, it } from 'vitest';
import { whereLabel } from './BookBar';

const chapters = [
  { order: 1, start: 0 },
  { order: 2, start: 600 },
  { order: 3, start: 1200 },
];

describe('where the reader is, on the voice page', () => {
  it('names the chapter and the time into it', () => {
    expect(whereLabel(chapters, 1960)).toBe('You are at chapter 3, 12:40');
    expect(whereLabel(chapters, 600)).toBe('You are at chapter 2, 0:00');
    expect(whereLabel([...chapters].reverse(), 45.9)).toBe('You are at chapter 1, 0:45');
  });

  it('gives the clock alone for a book of one chapter, and says when nothing was heard', () => {
    expect(whereLabel([{ order: 1, start: 0 }], 3725)).toBe('You are at 1:02:05');
    expect(whereLabel([], 90)).toBe('You are at 1:30');
    expect(whereLabel(chapters, 0)).toBe("You haven't started this book yet");
    expect(whereLabel(chapters, null)).toBe("You haven't started this book yet");
  });
});
