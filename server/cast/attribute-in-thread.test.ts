import { describe, expect, it } from 'vitest';
import { attributeInThread } from './attribute-in-thread';
import { attributeBook } from './attribution';

describe('attribution in a thread', () => {
  it('answers what attributeBook answers, without running it on the event loop', async () => {
    const chapters = [
      { text: '"Come here," said Marta, "and look."\n\nTobias shook his head. "No."' },
      { text: 'The rain went on.\n\n"It will stop," Marta said.' },
    ];
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 1);
    try {
      const inThread = await attributeInThread(chapters);
      expect(inThread).toEqual(attributeBook(chapters));
      expect(inThread.chapters[0]!.length).toBeGreaterThan(0);
    } finally {
      clearInterval(ticking);
    }
    // The event loop went on turning while the thread worked.
    expect(ticks).toBeGreaterThan(0);
  });
});
