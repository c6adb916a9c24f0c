import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp } from '../testing/app';
import { LocalFileStorage } from './local';
import { TEMP_DIR_NAME } from './types';

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

describe('half-written files at server start', () => {
  it('removes those of dead processes and keeps those a live writer may still finish', async () => {
    const storageDir = await fs.mkdtemp(path.join(tmpdir(), 'lectio-tmp-writes-'));
    const temp = path.join(storageDir, TEMP_DIR_NAME);
    await fs.mkdir(temp, { recursive: true });

    // Files this process writes carry its host tag; learn it from a real write that is left open.
    const live = await new LocalFileStorage(storageDir).createWriter('books/live.mp3');
    await live.write(new Uint8Array(1024));
    const [ownName] = await fs.readdir(temp);
    const hostTag = ownName!.split('@')[1]!;

    const dead = deadPid();
    const crashed = `${dead}-${randomUUID()}@${hostTag}`;
    const crashedBeforeTags = `${dead}-${randomUUID()}`;
    const otherHostFresh = `${dead}-${randomUUID()}@0123456789ab`;
    const otherHostStale = `${dead + 1}-${randomUUID()}@0123456789ab`;
    for (const name of [crashed, crashedBeforeTags, otherHostFresh, otherHostStale]) {
      await fs.writeFile(path.join(temp, name), Buffer.alloc(64 * 1024, 1));
    }
    const old = new Date(Date.now() - 7 * 3600 * 1000);
    await fs.utimes(path.join(temp, otherHostStale), old, old);

    const t = await createTestApp({ env: { STORAGE_DIR: storageDir } });
    const left = (await fs.readdir(temp)).sort();
    await t.close();

    expect(left).toEqual([ownName, otherHostFresh].sort());
    // The live writer still commits its file.
    expect(await live.commit()).toEqual({ size: 1024 });
    expect((await fs.stat(path.join(storageDir, 'books', 'live.mp3'))).size).toBe(1024);
  });
});
