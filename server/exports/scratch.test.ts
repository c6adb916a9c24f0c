import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../storage/local';
import { createScratch, lowestFreeBytes } from '../storage/scratch';
import { TEMP_DIR_NAME, type FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, seedCompletedBook, signedInUser } from '../testing/library-fixtures';

/**
 * The files ffmpeg needs on disk while it builds an M4B or converts a cover live in the store's
 * own temp area (counted by the free-space floor, cleaned at start), never in the machine's /tmp,
 * where a build killed half-way used to leave its partial M4B for good.
 */

/** An `ffmpeg` first on PATH that notes its arguments, then runs the real one. */
function recordingFfmpeg(): { log: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'lectio-ffmpeg-wrapper-'));
  const log = path.join(dir, 'calls.log');
  const real = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const script = path.join(dir, 'ffmpeg');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(script, 0o755);
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH ?? ''}`;
  return { log };
}

let t: TestApp;
let storage: FileStorage;
let log: string;
beforeAll(async () => {
  ({ log } = recordingFfmpeg());
  t = await createTestApp({ env: { EXPORT_FFMPEG: 'native' } });
  storage = appStorage(t.config);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("a build's scratch files", () => {
  it("live in the store's temp area while ffmpeg works, and are gone when the download is ready", async () => {
    const ann = await signedInUser(t.app, 'scratch@example.com');
    const { bookId } = await seedCompletedBook(t.db, storage, { userId: ann.id, chapters: 2, secondsPerChapter: 2 });
    const headers = { authorization: `Bearer ${ann.token}` };
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${bookId}/download?format=m4b`, headers });
      if (res.statusCode === 200) break;
      expect(res.statusCode, res.body).toBe(202);
      await sleep(200);
    }
    const temp = path.join(t.config.storageDir, TEMP_DIR_NAME);
    const files = readFileSync(log, 'utf8')
      .split('\n')
      .filter((arg) => path.isAbsolute(arg));
    // The cover (drawn, then made a JPEG) and the M4B with its chapters and cover.
    expect(files.some((f) => f.endsWith('book.m4b'))).toBe(true);
    expect(files.some((f) => f.endsWith('cover.jpg'))).toBe(true);
    for (const file of files) {
      expect(file.startsWith(temp + path.sep), file).toBe(true);
      expect(existsSync(path.dirname(file)), `${file} left behind`).toBe(false);
    }
  }, 120_000);
});

describe('scratch space', () => {
  it("of a process that died is removed at the next start; a live build's is kept", async () => {
    const dataDir = await fs.mkdtemp(path.join(tmpdir(), 'lectio-scratch-'));
    // Object storage: the scratch space is under DATA_DIR.
    const scratch = createScratch({} as FileStorage, dataDir);
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    await scratch.withDir(async (live) => {
      await fs.writeFile(path.join(live, 'book.m4b'), Buffer.alloc(1024));
      const crashed = path.join(path.dirname(live), path.basename(live).replace(/^\d+/, String(deadPid)));
      await fs.mkdir(crashed);
      await fs.writeFile(path.join(crashed, 'book.m4b'), Buffer.alloc(64 * 1024));

      expect(await scratch.removeOrphaned()).toBe(1);
      expect(existsSync(crashed)).toBe(false);
      expect(existsSync(path.join(live, 'book.m4b'))).toBe(true);
      expect(live.startsWith(path.join(dataDir, 'scratch') + path.sep)).toBe(true);
    });
    expect(await fs.readdir(path.join(dataDir, 'scratch', TEMP_DIR_NAME))).toEqual([]);
  });

  it("counts for the free-space floor: the lower of the store's and the scratch disk's room", async () => {
    const dataDir = await fs.mkdtemp(path.join(tmpdir(), 'lectio-scratch-'));
    const scratch = createScratch({} as FileStorage, dataDir);
    const disk = await new LocalFileStorage(dataDir).freeBytes();
    expect(await lowestFreeBytes({ freeBytes: async () => 1000 }, scratch)).toBe(1000);
    const withoutLimit = await lowestFreeBytes({ freeBytes: async () => null }, scratch);
    expect(Math.abs(withoutLimit - disk)).toBeLessThan(disk / 10);
  });
});
