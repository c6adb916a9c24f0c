import { describe, expect, it } from 'vitest';
import { normalizeReconnectAttempts, reconnectDelay } from './constants';

describe('voice constants', () => {
  it('reconnect attempts: 1..9 allowed, anything else means 2', () => {
    expect([1, 5, 9].map(normalizeReconnectAttempts)).toEqual([1, 5, 9]);
    expect([0, 10, -1, 2.5, Number.NaN, undefined].map(normalizeReconnectAttempts)).toEqual([2, 2, 2, 2, 2, 2]);
  });

  it('reconnect delay: 1000 x 1.5^attempt, capped at 30 s', () => {
    expect([0, 1, 2, 3].map(reconnectDelay)).toEqual([1000, 1500, 2250, 3375]);
    expect(reconnectDelay(20)).toBe(30000);
  });
});
