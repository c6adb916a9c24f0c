import { describe, expect, it } from 'vitest';
import { countLabel, formatDuration, humanizeStepName, jobProvider, jobTitle, percent, shortId } from './format';

describe('formatDuration (seconds, the earlier client\'s defect fixed)', () => {
  it.each([
    [3725, '1h 2m'],
    [125, '2m 5s'],
    [0, '0m 0s'],
    [59, '0m 59s'],
    [60, '1m 0s'],
    [3599, '59m 59s'],
    [3600, '1h 0m'],
    [7260, '2h 1m'],
    [90061, '25h 1m'],
    [125.4, '2m 5s'],
  ])('%s s -> %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([null, undefined, -1, Number.NaN])('%s -> —', (value) => {
    expect(formatDuration(value)).toBe('—');
  });
});

describe('job text helpers', () => {
  it('shortId keeps the first 8 characters', () => {
    expect(shortId('9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c')).toBe('9b2e7c1a');
  });

  it('jobTitle falls back to Job plus the short id', () => {
    expect(jobTitle({ id: '9b2e7c1a-4d5f', title: 'Raven' })).toBe('Raven');
    expect(jobTitle({ id: '9b2e7c1a-4d5f', title: '  ' })).toBe('Job 9b2e7c1a');
  });

  it('humanizes step names', () => {
    expect(humanizeStepName('synthesize')).toBe('Synthesize');
    expect(humanizeStepName('split_chapters')).toBe('Split chapters');
  });

  it('reads the provider from config, then the voice config, then defaults to openai', () => {
    expect(jobProvider({ config: { provider: 'elevenlabs' } })).toBe('elevenlabs');
    expect(jobProvider({ config: { voice_config: { provider: 'elevenlabs' } } })).toBe('elevenlabs');
    expect(jobProvider({ config: {} })).toBe('openai');
  });

  it('counts and percentages', () => {
    expect(countLabel(1, 'job')).toBe('1 job');
    expect(countLabel(3, 'chapter')).toBe('3 chapters');
    expect(percent(42.6)).toBe(43);
    expect(percent(140)).toBe(100);
    expect(percent(null)).toBe(0);
  });
});
