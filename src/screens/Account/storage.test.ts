import { describe, expect, it } from 'vitest';
import { formatStorage, storageFigures } from './storage';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('storage figures', () => {
  it('says sizes as a reader reads them', () => {
    expect(formatStorage(0)).toBe('0 MB');
    expect(formatStorage(300)).toBe('1 KB');
    expect(formatStorage(850 * 1024)).toBe('850 KB');
    expect(formatStorage(2.44 * MB)).toBe('2.4 MB');
    expect(formatStorage(12 * MB)).toBe('12 MB');
    expect(formatStorage(2 * GB)).toBe('2 GB');
    expect(formatStorage(1.5 * GB)).toBe('1.5 GB');
  });

  it('"12 MB of 2 GB used", what is left, and how full it is', () => {
    expect(storageFigures(12 * MB, 2 * GB)).toEqual({
      summary: '12 MB of 2 GB used',
      left: '2 GB left',
      percent: 1,
      level: 'plenty',
    });
    expect(storageFigures(1.85 * GB, 2 * GB)).toMatchObject({ left: '154 MB left', percent: 93, level: 'nearlyFull' });
    expect(storageFigures(2 * GB, 2 * GB)).toMatchObject({ left: 'No space left', percent: 100, level: 'full' });
    // Past the quota (it was lowered), the meter stays full.
    expect(storageFigures(3 * GB, 2 * GB)).toMatchObject({
      summary: '3 GB of 2 GB used',
      percent: 100,
      level: 'full',
    });
  });
});
