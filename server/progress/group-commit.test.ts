import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

describe('group commit', () => {
  function gatedWriter() {
    const statements: number[][] = [];
    const gates: (() => void)[] = [];
    const writeMany = async (writes: number[]) => {
      statements.push(writes);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (writes.includes(13)) throw new Error('13 is refused');
      return writes.map((w) => w * 10);
    };
    return { statements, gates, writeMany };
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('writes the first at once, then all that arrived meanwhile in one statement, each caller answered with its own row', async () => {
    const { statements, gates, writeMany } = gatedWriter();
    const write = groupCommit(writeMany);
    const first = write(1);
    await flush();
    const later = [2, 3, 4].map((n) => write(n));
    await flush();
    expect(statements).toEqual([[1]]);
    gates.shift()!();
    expect(await first).toBe(10);
    await flush();
    expect(statements).toEqual([[1], [2, 3, 4]]);
    gates.shift()!();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('keeps a statement to maxBatch writes', async () => {
    const { statements, gates, writeMany } = gatedWriter();
    const write = groupCommit(writeMany, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => write(n));
    for (let i = 0; i < 3; i += 1) {
      await flush();
      gates.shift()!();
    }
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(statements).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('fails only the caller of a bad write: a refused statement is tried again one write at a time', async () => {
    const { statements, gates, writeMany } = gatedWriter();
    const write = groupCommit(writeMany);
    const first = write(1);
    await flush();
    const batch = [12, 13, 14].map((n) => write(n).then(String, (e: Error) => e.message));
    gates.shift()!();
    await first;
    for (let i = 0; i < 4; i += 1) {
      await flush();
      gates.shift()!();
    }
    expect(await Promise.all(batch)).toEqual(['120', '13 is refused', '140']);
    expect(statements).toEqual([[1], [12, 13, 14], [12], [13], [14]]);
  });
});
