import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { processSemiSpaceMb } from './thread-nursery';

describe('processSemiSpaceMb', () => {
  it("reads the process's --max-semi-space-size in each form Node accepts, 0 without it", () => {
    expect(processSemiSpaceMb(['--max-semi-space-size=4'])).toBe(4);
    expect(processSemiSpaceMb(['--expose-gc', '--max_semi_space_size', '16'])).toBe(16);
    expect(processSemiSpaceMb(['--expose-gc', ''])).toBe(0);
    expect(processSemiSpaceMb(['--max-semi-space-size=2', '--max-semi-space-size=4'])).toBe(4); // the last wins
  });
});

describe('threadWithSmallNursery', () => {
  // A process started as the server is, whose flag would give every thread 8 MB of young generation:
  // each thread churns through objects until its young generation has grown as far as it may, and
  // reports the size it settled at: the one seen most often. (Node 24's V8 lets the young
  // generation run a few 256 KB pages past its size for a moment before a collection, so a single
  // reading may be above it; CI read 2.75 MB once.)
  const SCRIPT = `
    import { Worker } from 'node:worker_threads';
    const { threadWithSmallNursery } = await import(process.env.MODULE_URL);
    const churn = \`
      import v8 from 'node:v8';
      import { parentPort } from 'node:worker_threads';
      let kept = [];
      const seen = new Map();
      for (let i = 0; i < 400000; i++) {
        kept.push({ i, s: 'x' + i, a: [i] });
        if (kept.length > 60000) kept = kept.slice(30000);
        if (i % 1000 === 0) {
          const size = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
          seen.set(size, (seen.get(size) ?? 0) + 1);
        }
      }
      parentPort.postMessage([...seen].sort((a, b) => b[1] - a[1])[0][0]);
    \`;
    const url = new URL('data:text/javascript,' + encodeURIComponent(churn));
    const young = (worker) => new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
    const small = await young(threadWithSmallNursery(url, {}));
    const plainAfter = await young(new Worker(url));
    console.log(JSON.stringify({ small, plainAfter }));
  `;

  it("gives a thread at most 2 MB of young generation under the server's flag, and leaves the flag as it was", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--max-semi-space-size=4', '--import', 'tsx', '--input-type=module', '-e', SCRIPT],
      { env: { ...process.env, MODULE_URL: new URL('./thread-nursery.ts', import.meta.url).href } },
    );
    const { small, plainAfter } = JSON.parse(stdout) as { small: number; plainAfter: number };
    expect(small).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(plainAfter).toBe(8 * 1024 * 1024); // a thread started afterwards has the process's own size
  });
});
