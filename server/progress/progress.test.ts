import type { Book } from '../books/book';
import { appStorage, seedCompletedAudiobook, signedInUser } from '../testing/library-fixtures';
import { createTestApp, manualClock, type TestApp } from '../testing/app';
import type { ProgressRecord, ProgressRepository, ProgressWrite } from './repository';
import { createListCache } from '../jobs/list-cache';
import { keepFinishedBooks } from '../jobs/kept-books';
import { createProgressService } from './service';

describe('saving a place that did not move', () => {
  const clock = manualClock();
  let t: TestApp;
  let ann: { id: string; token: string };
  let jobId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    ann = await signedInUser(t.app, 'ann@example.com');
    ({ jobId } = await seedCompletedAudiobook(t.db, appStorage(t.config), { userId: ann.id, seconds: 4 }));
  });
  afterAll(() => t.close());

  const save = (position: number) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${jobId}`,
      headers: { authorization: `Bearer ${ann.token}` },
      payload: { position_seconds: position },
    });
  /** The row's version: PostgreSQL gives every write of a row a new xmin. */
  const version = async () =>
    (
      await t.db.query<{ v: string; updated_at: Date | string }>(
        'SELECT xmin::text AS v, updated_at FROM playback_progress WHERE user_id = $1 AND job_id = $2',
        [ann.id, jobId],
      )
    ).rows[0];

  it('writes nothing, and answers the place as saved', async () => {
    await save(2);
    const first = await version();
    clock.advance(5);
    const statements = vi.spyOn(t.db, 'query');
    const again = await save(2);
    // One statement answers it: the row as it stands comes back with the write that did nothing.
    const progressStatements = statements.mock.calls.filter(([sql]) => /playback_progress/.test(String(sql)));
    statements.mockRestore();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ position_seconds: 2, percentage_complete: 50 });
    expect(await version()).toEqual(first);
    expect(progressStatements).toHaveLength(1);
  });

  it('writes when the place moves, and when the same place is played again a minute later', async () => {
    const before = await version();
    clock.advance(5);
    await save(3);
    const moved = await version();
    expect(moved?.v).not.toBe(before?.v);
    clock.advance(61);
    const later = (await save(3)).json();
    expect(later.last_played_at).toBe(clock.now().toISOString());
    expect((await version())?.v).not.toBe(moved?.v);
  });
});

describe("a listener's book", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is read once for their stream answer and their saves', async () => {
    const bo = await signedInUser(t.app, 'bo@example.com');
    const { jobId } = await seedCompletedAudiobook(t.db, appStorage(t.config), { userId: bo.id, seconds: 4 });
    const headers = { authorization: `Bearer ${bo.token}` };
    const statements = vi.spyOn(t.db, 'query');
    try {
      const stream = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${jobId}/stream`, headers });
      expect(stream.statusCode, stream.body).toBe(200);
      for (const position of [1, 2, 3]) {
        const saved = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/progress/${jobId}`,
          headers,
          payload: { position_seconds: position },
        });
        expect(saved.statusCode, saved.body).toBe(200);
      }
      const bookReads = statements.mock.calls.filter(([sql]) => /^\s*SELECT\b[\s\S]*\bFROM jobs\b/.test(String(sql)));
      expect(bookReads).toHaveLength(1);
    } finally {
      statements.mockRestore();
    }
  });
});

/** Ann's finished book, as the jobs repository reads it, for the services tested without a database. */
const book = {
  id: 'book',
  userId: 'ann',
  parentJobId: null,
  status: 'COMPLETED',
  title: 'Bartleby',
  durationSeconds: 100,
  chaptersReady: 0,
  opening: null,
  openingReady: false,
} as Partial<Book> as Book;

describe("one listener's saves arriving faster than they are written", () => {
  it('write the first and then only the newest, and every caller gets an answer', async () => {
    const writes: number[] = [];
    const gates: (() => void)[] = [];
    const repository: ProgressRepository = {
      find: () => Promise.resolve(null),
      async upsertMany(ws: ProgressWrite[]): Promise<ProgressRecord[]> {
        writes.push(...ws.map((w) => w.positionSeconds));
        await new Promise<void>((resolve) => gates.push(resolve));
        return ws.map(({ at, ...rest }) => ({ ...rest, id: 'row', lastPlayedAt: at, createdAt: at, updatedAt: at }));
      },
      delete: () => Promise.resolve(),
      recent: () => Promise.resolve([]),
    };
    const service = createProgressService({
      repository,
      jobs: {
        findBook: () => Promise.resolve(book),
        titles: () => Promise.resolve(new Map()),
        chapterJobs: () => Promise.resolve([]),
      },
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    const flush = () => new Promise((resolve) => setTimeout(resolve, 5));

    const saves = [1, 2, 3, 4].map((p) => service.save('ann', 'book', { positionSeconds: p }));
    await flush();
    expect(writes).toEqual([1]);
    gates.shift()!();
    await flush();
    // 2 and 3 were overtaken by 4 while 1 was written.
    expect(writes).toEqual([1, 4]);
    gates.shift()!();
    const answers = await Promise.all(saves);
    expect(answers.map((a) => a.positionSeconds)).toEqual([1, 4, 4, 4]);

    // Another listener's or another book's saves never wait for these.
    const other = service.save('bob', 'book', { positionSeconds: 9 });
    await flush();
    expect(writes).toEqual([1, 4, 9]);
    gates.shift()!();
    expect((await other).positionSeconds).toBe(9);
  });
});

describe("saves through the API: the book read once until the owner's jobs change, many at once", () => {
  const clock = manualClock();
  let t: TestApp;
  let ann: { id: string; token: string };
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    ann = await signedInUser(t.app, 'ann.kept@example.com');
  });
  afterAll(() => t.close());

  const save = (jobId: string, position: number) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${jobId}`,
      headers: { authorization: `Bearer ${ann.token}` },
      payload: { position_seconds: position },
    });
  /** Until the database's change notification has reached the app (it arrives on its own connection). */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 200 && !(await check()); i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(await check()).toBe(true);
  };

  it('answer with the title the book has now, after it is renamed', async () => {
    const { jobId } = await seedCompletedAudiobook(t.db, appStorage(t.config), { userId: ann.id, seconds: 4 });
    expect((await save(jobId, 1)).statusCode).toBe(200);
    await t.db.query("UPDATE jobs SET title = 'Renamed' WHERE id = $1", [jobId]);
    await eventually(async () => (await save(jobId, 2)).json().job_title === 'Renamed');
  });

  it('answer 404 once the book is deleted', async () => {
    const { jobId } = await seedCompletedAudiobook(t.db, appStorage(t.config), { userId: ann.id, seconds: 4 });
    expect((await save(jobId, 1)).statusCode).toBe(200);
    await t.db.query('DELETE FROM jobs WHERE id = $1', [jobId]);
    const after = await save(jobId, 2);
    expect(after.statusCode, after.body).toBe(404);
    expect(after.json().detail).toBe('Job not found');
  });

  it('each get their own place saved and answered, a place that did not move and a deleted book among them', async () => {
    const books: string[] = [];
    for (let i = 0; i < 12; i += 1)
      books.push((await seedCompletedAudiobook(t.db, appStorage(t.config), { userId: ann.id, seconds: 30 })).jobId);
    for (const id of books) expect((await save(id, 1)).statusCode).toBe(200);
    await t.db.query('DELETE FROM jobs WHERE id = $1', [books[5]]);

    const answers = await Promise.all(books.map((id, i) => save(id, i === 11 ? 1 : 2 + i)));
    for (const [i, answer] of answers.entries()) {
      if (i === 5) {
        expect(answer.statusCode).toBe(404);
        continue;
      }
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ job_id: books[i], position_seconds: i === 11 ? 1 : 2 + i });
    }
    const { rows } = await t.db.query<{ job_id: string; position_seconds: number }>(
      'SELECT job_id, position_seconds FROM playback_progress WHERE user_id = $1 AND job_id = ANY($2::uuid[])',
      [ann.id, books],
    );
    const stored = new Map(rows.map((r) => [r.job_id, Number(r.position_seconds)]));
    expect(stored.size).toBe(11);
    books.forEach((id, i) => i !== 5 && expect(stored.get(id)).toBe(i === 11 ? 1 : 2 + i));
  });
});

describe('the book a save is checked against', () => {
  const repository: ProgressRepository = {
    find: () => Promise.resolve(null),
    upsertMany: (ws: ProgressWrite[]) =>
      Promise.resolve(
        ws.map(({ at, ...rest }) => ({ ...rest, id: 'row', lastPlayedAt: at, createdAt: at, updatedAt: at })),
      ),
    delete: () => Promise.resolve(),
    recent: () => Promise.resolve([]),
  };

  function service(found: Book) {
    const reads: string[] = [];
    const cache = createListCache();
    cache.setListening(true);
    const progress = createProgressService({
      repository,
      jobs: keepFinishedBooks(
        {
          findBook: (userId: string, jobId: string) => {
            reads.push(`${userId}/${jobId}`);
            return Promise.resolve(userId === found.userId ? found : null);
          },
          titles: () => Promise.resolve(new Map()),
          chapterJobs: () => Promise.resolve([]),
        },
        cache,
      ),
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    return { progress, reads, cache };
  }

  it("is read once for a listener's many saves, again after their jobs change, and never for someone else", async () => {
    const { progress, reads, cache } = service(book);
    for (const p of [1, 2, 3]) await progress.save('ann', 'book', { positionSeconds: p });
    expect(reads).toEqual(['ann/book']);
    cache.changed('ann');
    await progress.save('ann', 'book', { positionSeconds: 4 });
    expect(reads).toEqual(['ann/book', 'ann/book']);
    await expect(progress.save('bob', 'book', { positionSeconds: 5 })).rejects.toThrow('Job not found');
    // Unheard of changes (the notifications stopped): nothing kept is trusted.
    cache.setListening(false);
    await progress.save('ann', 'book', { positionSeconds: 6 });
    expect(reads).toEqual(['ann/book', 'ann/book', 'bob/book', 'ann/book']);
  });

  it('says "Job not found" when the book was deleted after it was read, as its place was written', async () => {
    const deleted = Object.assign(
      new Error('insert or update on table "playback_progress" violates foreign key constraint'),
      {
        code: '23503',
      },
    );
    const gone = createProgressService({
      repository: { ...repository, upsertMany: () => Promise.reject(deleted) },
      jobs: {
        findBook: () => Promise.resolve(book),
        titles: () => Promise.resolve(new Map()),
        chapterJobs: () => Promise.resolve([]),
      },
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    await expect(gone.save('ann', 'book', { positionSeconds: 2 })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'Job not found',
    });
  });

  it('is read for every save while the book converts', async () => {
    const { progress, reads } = service({ ...book, status: 'PROCESSING', chaptersReady: 1 } as Book);
    for (const p of [1, 2]) await progress.save('ann', 'book', { positionSeconds: p });
    expect(reads).toEqual(['ann/book', 'ann/book']);
  });
});
