import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../tests/support/postgres';
import { createApp } from '../app';
import { createConversationRepository } from '../assistant/conversations';
import { openDatabase } from '../db/open';
import type { Config } from '../config';
import { TEST_PASSWORD_COST, testConfig, type TestApp } from '../testing/app';
import { SHORT_TEXT, waitForJob } from '../testing/jobs';
import { backupInstance, BackupError, restoreInstance } from './backup';

/**
 * A backup and its restore into a new instance give the same accounts, the same audio, byte for
 * byte, and the same listening positions: on the embedded database and on PostgreSQL.
 */
const credentials = { email: 'keeper@example.com', password: 'a lamp that never goes out' };
let postgres: TestPostgres | undefined;
afterAll(() => postgres?.stop());

/** Signs up, converts a text, saves a listening position; answers what must come back. */
async function fill(config: Config) {
  const app = await createApp(config, { passwordCost: TEST_PASSWORD_COST });
  try {
    await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    const headers = { authorization: `Bearer ${(login.json() as { access_token: string }).access_token}` };
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers,
      payload: { title: 'Lighthouse', content: SHORT_TEXT },
    });
    const id = (created.json() as { id: string }).id;
    const job = await waitForJob({ app } as TestApp, headers, id);
    expect(job.status).toBe('COMPLETED');
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${id}`,
      headers,
      payload: { position_seconds: 4.25, duration_seconds: job.result_data.duration_seconds },
    });
    expect(saved.statusCode).toBe(200);
    const audio = readFileSync(path.join(config.storageDir, ...job.output_file_key!.split('/')));
    return { id, audio, progress: saved.json() as { position_seconds: number; percentage_complete: number } };
  } finally {
    await app.close();
  }
}

/** Signs in to the restored instance and reads back what `fill` left. */
async function readBack(config: Config, id: string) {
  const app = await createApp(config, { passwordCost: TEST_PASSWORD_COST });
  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    expect(login.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${(login.json() as { access_token: string }).access_token}` };
    const job = await app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers });
    const progress = await app.inject({ method: 'GET', url: `/api/v1/progress/${id}`, headers });
    const key = (job.json() as { output_file_key: string }).output_file_key;
    return {
      status: (job.json() as { status: string }).status,
      audio: readFileSync(path.join(config.storageDir, ...key.split('/'))),
      progress: progress.json() as { position_seconds: number; percentage_complete: number },
    };
  } finally {
    await app.close();
  }
}

/** Adds a turn to the reader's conversation about the book; answers the conversation's texts. */
async function say(config: Config, jobId: string, text: string): Promise<string[]> {
  const db = await openDatabase(config);
  try {
    const { rows } = await db.query<{ id: string }>('SELECT id FROM users');
    const conversations = createConversationRepository(db);
    await conversations.add({ userId: rows[0]!.id, jobId, mode: 'xray', speaker: 'reader', text });
    return (await conversations.list(rows[0]!.id, jobId)).map((turn) => turn.text);
  } finally {
    await db.close();
  }
}

async function roundTrip(source: Config, target: Config) {
  const before = await fill(source);
  await say(source, before.id, 'Who keeps the lamp?');
  const dir = mkdtempSync(path.join(tmpdir(), 'lectio-backup-'));
  rmSync(dir, { recursive: true });
  try {
    const manifest = await backupInstance(source, dir);
    expect(manifest.tables).toMatchObject({ users: 1, playback_progress: 1 });
    expect(Object.keys(manifest.files ?? {})).toContain(`jobs/${before.id}/audio.mp3`);
    await restoreInstance(target, dir);
    // Restoring twice into the same instance is refused: it is no longer empty.
    await expect(restoreInstance(target, dir)).rejects.toBeInstanceOf(BackupError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const after = await readBack(target, before.id);
  expect(after.status).toBe('COMPLETED');
  // The kept conversation came back, and the next turn gets an id of its own (sequences moved on).
  expect(await say(target, before.id, 'And who lit it first?')).toEqual([
    'Who keeps the lamp?',
    'And who lit it first?',
  ]);
  expect(after.audio.equals(before.audio)).toBe(true);
  expect(after.progress).toMatchObject({
    position_seconds: before.progress.position_seconds,
    percentage_complete: before.progress.percentage_complete,
  });
}

describe('npm run backup / npm run restore', () => {
  it('round-trips an embedded instance into a new DATA_DIR', { timeout: 180_000 }, async () => {
    await roundTrip(testConfig({ ENCODER_THREADS: '0' }), testConfig({ ENCODER_THREADS: '0' }));
  });

  it('round-trips a PostgreSQL instance into an empty database', { timeout: 180_000 }, async () => {
    postgres = await startPostgres();
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE lectio_restored');
    await admin.end();
    const restoredUrl = postgres.url.replace(/\/lectio$/, '/lectio_restored');
    await roundTrip(
      testConfig({ ENCODER_THREADS: '0', DATABASE_URL: postgres.url }),
      testConfig({ ENCODER_THREADS: '0', DATABASE_URL: restoredUrl }),
    );
  });
});
