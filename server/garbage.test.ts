import { Worker } from 'node:worker_threads';
import { collectGarbageSoon, collectThreadGarbageNow } from './garbage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('collectGarbageSoon', () => {
  it('asks for a full collection, run as a task of its own, where gc() is exposed', () => {
    const gc = vi.fn();
    vi.stubGlobal('gc', gc);
    collectGarbageSoon();
    expect(gc).toHaveBeenCalledExactlyOnceWith({ type: 'major', execution: 'async' });
  });
});

describe('collectThreadGarbageNow', () => {
  it("never collects on the main thread, whose pause would keep the API's requests waiting", () => {
    const gc = vi.fn();
    vi.stubGlobal('gc', gc);
    collectThreadGarbageNow();
    expect(gc).not.toHaveBeenCalled();
  });

  it("collects a worker thread's own heap at once", async () => {
    // The thread loads this module from source (tsx) with gc() recording its calls.
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      (async () => {
        const calls = [];
        globalThis.gc = (...args) => calls.push(args);
        const { register } = await import(workerData.tsx);
        register();
        const { collectThreadGarbageNow } = await import(workerData.module);
        collectThreadGarbageNow();
        parentPort.postMessage(calls);
      })();
    `;
    const worker = new Worker(source, {
      eval: true,
      workerData: {
        tsx: import.meta.resolve('tsx/esm/api'),
        module: new URL('./garbage.ts', import.meta.url).href,
      },
    });
    try {
      const calls = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(calls).toEqual([[]]); // one collection, synchronous (no options)
    } finally {
      await worker.terminate();
    }
  });
});
