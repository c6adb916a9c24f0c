import { describe, expect, it } from 'vitest';
import { isFinished, listenedPercent } from './progress';

const record = (position_seconds: number, percentage_complete = 0, is_completed = false) => ({
  position_seconds,
  percentage_complete,
  is_completed,
});

describe('isFinished', () => {
  it('is finished at 95 % of the duration or more', () => {
    expect(isFinished(record(57), 60)).toBe(true);
    expect(isFinished(record(60), 60)).toBe(true);
    expect(isFinished(record(56.9), 60)).toBe(false);
  });

  it('trusts the record: its completed flag, else its own percentage', () => {
    expect(isFinished(record(3, 5, true), 60)).toBe(true);
    expect(isFinished(record(10, 96), 0)).toBe(true);
    expect(isFinished(record(58, 40), 60)).toBe(false);
  });

  it('a book never played, or one started over, is not finished', () => {
    expect(isFinished(null, 60)).toBe(false);
    expect(isFinished(undefined, 60)).toBe(false);
    expect(isFinished(record(0), 60)).toBe(false);
    expect(isFinished(record(30), 0)).toBe(false);
  });
});

describe('listenedPercent', () => {
  it('reads the position over the duration when the record has no percentage, within 0..100', () => {
    expect(listenedPercent(record(25), 60)).toBeCloseTo(41.67, 1);
    expect(listenedPercent(record(90), 60)).toBe(100);
    expect(listenedPercent(record(1, 0, true), 60)).toBe(100);
  });
});
