import { appStorage, insertJob, seedCompletedAudiobook, signedInUser } from '../testing/library-fixtures';
import type { FileStorage } from '../storage/types';
import { createTestApp, manualClock, type TestApp } from '../testing/app';

const clock = manualClock();
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
let book: Awaited<ReturnType<typeof seedCompletedAudiobook>>;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann@example.com');
  bob = await signedInUser(t.app, 'bob@example.com');
  book = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'Bartleby', seconds: 4 });
});
afterAll(() => t.close());

const auth = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });
type Method = 'GET' | 'PUT' | 'DELETE';

function call(method: Method, url: string, user = ann, payload?: object) {
  return t.app.inject({ method, url, headers: auth(user), ...(payload !== undefined && { payload }) });
}

const save = (jobId: string, payload: object, user = ann) => call('PUT', `/api/v1/progress/${jobId}`, user, payload);

describe('progress of a book', () => {
  it('is null, then saved, read back, listed as recent and deleted', async () => {
    const none = await call('GET', `/api/v1/progress/${book.jobId}`);
    expect(none.statusCode).toBe(200);
    expect(none.headers['content-type']).toMatch(/^application\/json/);
    expect(none.body).toBe('null');

    const put = await save(book.jobId, { position_seconds: 1, current_chapter_id: book.jobId });
    expect(put.statusCode).toBe(200);
    const saved = put.json();
    expect(saved).toMatchObject({
      user_id: ann.id,
      job_id: book.jobId,
      job_title: 'Bartleby',
      position_seconds: 1,
      duration_seconds: book.durationSeconds,
      current_chapter_id: book.jobId,
      current_chapter_position: 0,
      is_completed: false,
      last_played_at: clock.now().toISOString(),
    });

    const read = await call('GET', `/api/v1/progress/${book.jobId}`);
    expect(read.json()).toEqual(saved);

    const recent = await call('GET', '/api/v1/progress/user/recent');
    expect(recent.statusCode).toBe(200);
    expect(recent.json()).toEqual([saved]);

    const deleted = await call('DELETE', `/api/v1/progress/${book.jobId}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('GET', `/api/v1/progress/${book.jobId}`)).body).toBe('null');
    // Deleting again is not an error.
    expect((await call('DELETE', `/api/v1/progress/${book.jobId}`)).statusCode).toBe(204);
  });

  it('computes the percentage from the job’s real duration, not the client’s', async () => {
    const res = await save(book.jobId, { position_seconds: book.durationSeconds / 4, duration_seconds: 1000 });
    const body = res.json();
    expect(body.duration_seconds).toBe(book.durationSeconds);
    expect(body.percentage_complete).toBeCloseTo(25, 2);
    expect(body.is_completed).toBe(false);
  });

  it('is completed from 95 %, and a position past the end is clamped', async () => {
    const below = (await save(book.jobId, { position_seconds: book.durationSeconds * 0.94 })).json();
    expect(below.is_completed).toBe(false);
    const at = (await save(book.jobId, { position_seconds: book.durationSeconds * 0.95 })).json();
    expect(at.is_completed).toBe(true);
    const past = (await save(book.jobId, { position_seconds: book.durationSeconds + 100 })).json();
    expect(past.position_seconds).toBe(book.durationSeconds);
    expect(past.percentage_complete).toBe(100);
    expect(past.is_completed).toBe(true);
  });

  it('keeps one row per user and job, and updates last_played_at', async () => {
    await save(book.jobId, { position_seconds: 1 });
    clock.advance(60);
    const later = (await save(book.jobId, { position_seconds: 2 })).json();
    expect(later.last_played_at).toBe(clock.now().toISOString());
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM playback_progress WHERE user_id = $1 AND job_id = $2',
      [ann.id, book.jobId],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('refuses to save progress for a job that is not completed', async () => {
    const id = await insertJob(t.db, { userId: ann.id, title: 'Busy', status: 'PROCESSING' });
    const res = await save(id, { position_seconds: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('Progress can only be saved for a completed audiobook');
  });

  it('validates the payload', async () => {
    const res = await save(book.jobId, { position_seconds: -1 });
    expect(res.statusCode).toBe(422);
  });
});

describe('recent progress', () => {
  it('lists the most recently played first, with titles, up to the limit', async () => {
    const carol = await signedInUser(t.app, 'carol@example.com');
    const titles = ['First', 'Second', 'Third'];
    for (const title of titles) {
      const job = await seedCompletedAudiobook(t.db, storage, { userId: carol.id, title, seconds: 1 });
      clock.advance(10);
      expect((await save(job.jobId, { position_seconds: 0.5 }, carol)).statusCode).toBe(200);
    }
    const all = (await call('GET', '/api/v1/progress/user/recent', carol)).json() as { job_title: string }[];
    expect(all.map((p) => p.job_title)).toEqual(['Third', 'Second', 'First']);
    const two = (await call('GET', '/api/v1/progress/user/recent?limit=2', carol)).json() as unknown[];
    expect(two).toHaveLength(2);
    expect((await call('GET', '/api/v1/progress/user/recent?limit=0', carol)).statusCode).toBe(422);
    expect((await call('GET', '/api/v1/progress/user/recent?limit=51', carol)).statusCode).toBe(422);
    // Nobody else's progress shows up.
    expect((await call('GET', '/api/v1/progress/user/recent', bob)).json()).toEqual([]);
  });
});

describe('ownership', () => {
  it('answers 404 Job not found for another user’s job on every progress route', async () => {
    for (const [method, payload] of [['GET'], ['PUT', { position_seconds: 1 }], ['DELETE']] as const) {
      const res = await call(method, `/api/v1/progress/${book.jobId}`, bob, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().detail).toBe('Job not found');
    }
    const missing = await call('GET', '/api/v1/progress/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
  });
});
