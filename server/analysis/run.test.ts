import { GrowingPcm, releasePcm } from '../audio/pcm-memory';

// Each analysis thread's start and exit, in order, with the thread's number. The threads are the
// real ones, each kept alive by a timer once its half has answered and ended 100 ms after
// terminate() is called, as a thread freeing a large heap takes a while.
const threadEvents = vi.hoisted((): Array<{ thread: number; event: 'start' | 'exit' }> => []);
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  const KEPT_ALIVE = `
    setInterval(() => {}, 60_000);
    import(require('node:worker_threads').workerData.analysisWorker);
  `;
  class RecordedWorker extends real.Worker {
    constructor(filename: URL, options: import('node:worker_threads').WorkerOptions) {
      const workerData = { ...(options.workerData as object), analysisWorker: filename.href };
      super(KEPT_ALIVE, { ...options, eval: true, workerData });
      const thread = threadEvents.filter(({ event }) => event === 'start').length;
      threadEvents.push({ thread, event: 'start' });
      this.once('exit', () => threadEvents.push({ thread, event: 'exit' }));
    }

    override async terminate(): Promise<number> {
      await new Promise((resolve) => setTimeout(resolve, 100)); // a large heap takes a while to free
      return super.terminate();
    }
  }
  return { ...real, Worker: RecordedWorker };
});

import { analyseInWorker, freeWhatSpeechLeft } from './run';
import { analyseText } from './analyse';

const TEXT = [
  'Elizabeth Bennet walked from Longbourn to Netherfield in the rain.',
  'Mr. Darcy watched her arrive, and Elizabeth smiled at his surprise.',
  'That evening Jane and Elizabeth talked about pride, letters and marriage in the quiet house.',
]
  .join(' ')
  .repeat(6);

describe('freeWhatSpeechLeft', () => {
  it('starts a full collection where gc() is exposed, and gives back the speech blocks no piece is using', () => {
    const gc = vi.fn();
    vi.stubGlobal('gc', gc);
    try {
      const spoken = new GrowingPcm();
      spoken.append(new Uint8Array(64_000));
      const piece = spoken.take();
      releasePcm(piece); // encoded: the block waits for the next piece
      expect(piece.buffer.byteLength).toBe(64_000);
      freeWhatSpeechLeft();
      expect(piece.buffer.byteLength).toBe(0);
      expect(gc).toHaveBeenCalledExactlyOnceWith({ type: 'major', execution: 'async' });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('analyseInWorker', () => {
  it('gives the same analysis as running it in the server thread', async () => {
    const now = new Date('2026-01-02T03:04:05Z');
    const analysis = await analyseInWorker(TEXT, undefined, now);
    expect(analysis).toEqual(analyseText(TEXT, now));
    expect(analysis.characters.map((c) => c.name)).toContain('Elizabeth Bennet');
  });

  it("reads a text's UTF-8 bytes as the text, handing them to the thread instead of copying them", async () => {
    const now = new Date('2026-01-02T03:04:05Z');
    const bytes = new TextEncoder().encode(`${TEXT} Élodie waited in the café.`);
    const analysis = await analyseInWorker(bytes, undefined, now);
    expect(analysis).toEqual(analyseText(`${TEXT} Élodie waited in the café.`, now));
    expect(bytes.byteLength).toBe(0); // moved to the analysis thread
  });

  it("forces no collection of the server's heap itself: a text's analysis starts with its synthesis", async () => {
    const gc = vi.fn();
    vi.stubGlobal('gc', gc);
    try {
      const analysis = await analyseInWorker(TEXT, undefined, new Date('2026-01-02T03:04:05Z'));
      expect(analysis.characters.map((c) => c.name)).toContain('Elizabeth Bennet');
      expect(gc).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("starts its second half's thread only once the first's has exited, so their memory never adds up", async () => {
    const before = threadEvents.filter(({ event }) => event === 'start').length;
    await analyseInWorker(TEXT, undefined, new Date('2026-01-02T03:04:05Z'));
    const own = threadEvents.filter(({ thread }) => thread >= before);
    expect(own).toEqual([
      { thread: before, event: 'start' },
      { thread: before, event: 'exit' },
      { thread: before + 1, event: 'start' },
      { thread: before + 1, event: 'exit' },
    ]);
  });

  it('stops when the job is cancelled', async () => {
    const controller = new AbortController();
    const running = analyseInWorker(TEXT, controller.signal);
    controller.abort(new Error('The job was cancelled'));
    await expect(running).rejects.toThrow('The job was cancelled');
  });
});
