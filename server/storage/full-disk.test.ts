import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { makeEpub3, multipartFile } from '../testing/books';
import { createJob, longText, signIn, waitForJob } from '../testing/jobs';
import { DISK_FULL_MESSAGE } from '../jobs/step-run';
import { LocalFileStorage } from './local';
import type { StorageWriter } from './types';

/**
 * A disk that fills up: the storage directory's files as LocalFileStorage keeps them, with a
 * switch that makes every write fail the way a full filesystem does (ENOSPC) and the free space
 * reported drop to almost nothing.
 */
class FillableStorage extends LocalFileStorage {
  full = false;

  override async freeBytes(): Promise<number> {
    return this.full ? 4096 : 50 * 1024 * 1024 * 1024;
  }

  override async createWriter(key: string): Promise<StorageWriter> {
    const writer = await super.createWriter(key);
    return {
      key,
      write: async (chunk) => {
        if (this.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        await writer.write(chunk);
      },
      commit: () => writer.commit(),
      abort: () => writer.abort(),
    };
  }
}

let t: TestApp;
let storage: FillableStorage;
let headers: { authorization: string };

beforeAll(async () => {
  const config = (await import('../testing/app')).testConfig();
  storage = new FillableStorage(config.storageDir);
  t = await createTestApp({
    env: { ENCODER_THREADS: '0', STORAGE_MIN_FREE_BYTES: String(10 * 1024 * 1024), STORAGE_DIR: config.storageDir },
    storage,
    conversion: { stepRetryDelayMs: 10 },
  });
  headers = await signIn(t, 'reader@example.com');
});
afterAll(async () => {
  await t?.close();
});

const files = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true }).map(String).sort();
  } catch {
    return [];
  }
};

describe('a full disk', () => {
  it('fails the job it interrupts cleanly, says "storage full" and refuses new work with 507, then the job completes on retry', async () => {
    const created = await createJob(t, headers, { title: 'Tide tables', content: longText(40) });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    const usedBefore = await storageUsed();
    storage.full = true;

    const failed = await waitForJob(t, headers, id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error_message).toBe(DISK_FULL_MESSAGE);
    // Nothing half-written is left: the job's folder holds only its text, and no temporary file remains.
    expect(files(path.join(t.config.storageDir, 'jobs', id))).toEqual(['source.txt']);
    expect(files(path.join(t.config.storageDir, '.tmp-writes'))).toEqual([]);
    expect(await storageUsed()).toBe(usedBefore);

    // The free-space reading taken when the job was created is trusted for a second; a fast machine
    // fails the job inside that second, so wait it out before asking whether the disk is full.
    await new Promise((r) => setTimeout(r, 1100));
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ checks: { storage: 'full' }, detail: 'Not ready: storage is full' });
    const refusedJob = await createJob(t, headers, { title: 'More', content: longText(3) });
    expect(refusedJob.statusCode).toBe(507);
    expect(refusedJob.json()).toMatchObject({
      detail:
        "The server's storage is full, so nothing new can be stored for now. Try again later; the server's operator has been told",
    });
    const body = multipartFile('book.epub', makeEpub3());
    const refusedUpload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(refusedUpload.statusCode).toBe(507);

    // Space is freed: ready again, and the same job completes when retried.
    storage.full = false;
    await new Promise((r) => setTimeout(r, 1100)); // the free-space reading is trusted for a second
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const retried = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/retry`, headers });
    expect(retried.statusCode).toBe(200);
    const done = await waitForJob(t, headers, id);
    expect(done.status).toBe('COMPLETED');
    expect(files(path.join(t.config.storageDir, 'jobs', id))).toEqual([
      'audio.mp3',
      'audio.mp3.timing.json',
      'source.txt',
    ]);
  });
});

async function storageUsed(): Promise<number> {
  const { rows } = await t.db.query<{ used: string }>(
    `SELECT (SELECT COALESCE(sum(size_bytes), 0) FROM uploaded_files)
          + (SELECT COALESCE(sum(COALESCE((result_data->>'file_size_bytes')::bigint, 0)
                               + COALESCE((config->>'source_bytes')::bigint, 0)), 0) FROM jobs) AS used`,
  );
  return Number(rows[0]!.used);
}
