import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, formatDuration, formatTimeLeft } from './time';

describe('time formatting (seconds, never minutes)', () => {
  it.each([
    [5, '5s'],
    [59, '59s'],
    [60, '1m 00s'],
    [125, '2m 05s'],
    [125.4, '2m 05s'],
    [3599, '59m 59s'],
    [3600, '1h 00m'],
    [3725, '1h 02m'],
    [90061, '25h 01m'],
    [0, '0s'],
  ])('formatDuration(%s) = %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([null, undefined, -1, Number.NaN])('formatDuration(%s) is unknown: —', (value) => {
    expect(formatDuration(value)).toBe('—');
  });

  it('counts whole seconds like the player clock, so a duration and the next start agree', () => {
    expect(formatDuration(60.6)).toBe('1m 00s');
    expect(formatClock(60.6)).toBe('1:00');
    expect(formatDuration(59.9)).toBe('59s');
  });

  it.each([
    [0, '0:00'],
    [5.9, '0:05'],
    [125, '2:05'],
    [3725, '1:02:05'],
    [Number.NaN, '0:00'],
  ])('formatClock(%s) = %s', (seconds, text) => {
    expect(formatClock(seconds)).toBe(text);
  });

  it('formatBytes', () => {
    expect(formatBytes(60192)).toBe('58.8 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatBytes(0)).toBe('Unknown');
  });
});

describe('formatTimeLeft', () => {
  it('says hours and minutes, minutes alone, or seconds under a minute', () => {
    expect(formatTimeLeft(7800)).toBe('2h 10m');
    expect(formatTimeLeft(3600)).toBe('1h 00m');
    expect(formatTimeLeft(725)).toBe('12m');
    expect(formatTimeLeft(44.2)).toBe('45s');
    expect(formatTimeLeft(-3)).toBe('0s');
  });
});
