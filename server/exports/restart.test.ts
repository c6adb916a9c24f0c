import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, seedCompletedBook, signedInUser } from '../testing/library-fixtures';

/**
 * A download half-built when the server stopped shows its true state as soon as the server is
 * back (queued from 0 %, then building anew), not the old process's progress until that
 * process's lease lapses a minute or more later.
 */
let db: Db | undefined;
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  await db?.close();
});

interface ExportView {
  format: string;
  status: string;
  progress: number;
}

describe('a download being built when the server stopped', () => {
  it('starts again at once after a restart, its progress true from the first answer', async () => {
    db = await openPglite();
    // The server before the restart: its download of the MP3 was at 40 %, its lease good for ten minutes.
    const before = await createTestApp({ db, env: { WORKERS: 'none' } });
    apps.push(before);
    const ann = await signedInUser(before.app, 'restart.exports@example.com');
    const headers = { authorization: `Bearer ${ann.token}` };
    const { bookId } = await seedCompletedBook(db, appStorage(before.config), { userId: ann.id, chapters: 2 });
    const asked = await before.app.inject({
      method: 'POST',
      url: `/api/v1/audio/${bookId}/exports`,
      headers,
      payload: { format: 'mp3' },
    });
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    await db.query(
      `UPDATE exports SET status = 'building', progress = 40, lease_owner = $2,
         lease_until = now() + interval '10 minutes' WHERE job_id = $1`,
      [bookId, randomUUID()],
    );
    await before.app.close();
    apps.pop();

    // The same data, a new process (same storage directory).
    const after = await createTestApp({ db, env: { STORAGE_DIR: before.config.storageDir } });
    apps.push(after);
    const readings: ExportView[] = [];
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await after.app.inject({ method: 'GET', url: `/api/v1/audio/${bookId}/exports`, headers });
      const mp3 = (res.json() as { exports: ExportView[] }).exports.find((e) => e.format === 'mp3')!;
      readings.push(mp3);
      if (mp3.status === 'ready' || Date.now() > deadline) break;
      await sleep(100);
    }
    expect(readings[0]).not.toMatchObject({ status: 'building', progress: 40 });
    expect(readings.at(-1)?.status, JSON.stringify(readings.slice(-3))).toBe('ready');
  }, 60_000);
});
