import { describe, expect, it } from 'vitest';
import { aacKbps } from './download-formats';

describe('the M4B bitrate', () => {
  const hour = 3600;
  const bytesAt = (kbps: number, seconds: number) => (kbps * 1000 * seconds) / 8;

  it("follows the source MP3's own rate, so the M4B stays about the MP3's size", () => {
    expect(aacKbps(bytesAt(48, 15 * hour), 15 * hour)).toBe(48);
    // The chapter tag and cover in the MP3 add a little: still 48.
    expect(aacKbps(bytesAt(48, hour) + 200_000, hour)).toBe(48);
    expect(aacKbps(bytesAt(47.5, hour), hour)).toBe(48);
    expect(aacKbps(bytesAt(40, hour), hour)).toBe(40);
  });

  it('never goes above 64 kbit/s for a richer source, nor under 32 for a poorer one', () => {
    expect(aacKbps(bytesAt(128, hour), hour)).toBe(64);
    expect(aacKbps(bytesAt(24, hour), hour)).toBe(32);
  });

  it('falls back to 64 kbit/s when the size or duration is unknown', () => {
    expect(aacKbps(0, hour)).toBe(64);
    expect(aacKbps(bytesAt(48, hour), 0)).toBe(64);
  });
});
