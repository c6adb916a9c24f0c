import { vi } from 'vitest';

/**
 * Enough of an <audio> element for the player's tests: it records what the player did, fires the
 * events a real one would, and with `refuse` rejects play() as a browser blocking autoplay does.
 */
export class FakeMedia extends EventTarget {
  currentTime = 0;
  duration = Number.NaN;
  volume = 1;
  playbackRate = 1;
  src = '';
  error: MediaError | null = null;
  paused = true;
  refuse = false;
  /** Positions the player set (filled by tests that watch `currentTime`). */
  seeks: number[] = [];
  play = vi.fn(async () => {
    if (this.refuse) throw new DOMException('The user has not interacted with the page', 'NotAllowedError');
    this.paused = false;
    this.dispatchEvent(new Event('play'));
  });
  pause = vi.fn(() => {
    if (this.paused) return;
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  });
  load = vi.fn();
  removeAttribute = vi.fn((name: string) => {
    if (name === 'src') this.src = '';
  });
  /** The element reaching `seconds` on its own, as it does while playing. */
  advanceTo(seconds: number) {
    this.currentTime = seconds;
    this.dispatchEvent(new Event('timeupdate'));
  }
}
