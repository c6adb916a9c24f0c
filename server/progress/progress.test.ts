import type { Book } from '../books/book';
import { appStorage, seedCompletedAudiobook, signedInUser } from '../testing/library-fixtures';
import { createTestApp, manualClock, type TestApp } from '../testing/app';
import type { ProgressRecord, ProgressRepository, ProgressWrite } from './repository';
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
    const again = await save(2);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ position_seconds: 2, percentage_complete: 50 });
    expect(await version()).toEqual(first);
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

describe("one listener's saves arriving faster than they are written", () => {
  it('write the first and then only the newest, and every caller gets an answer', async () => {
    const writes: number[] = [];
    const gates: (() => void)[] = [];
    const repository: ProgressRepository = {
      find: () => Promise.resolve(null),
      async upsert(w: ProgressWrite): Promise<ProgressRecord> {
        writes.push(w.positionSeconds);
        await new Promise<void>((resolve) => gates.push(resolve));
        const { at, ...rest } = w;
        return { ...rest, id: 'row', lastPlayedAt: at, createdAt: at, updatedAt: at };
      },
      delete: () => Promise.resolve(),
      recent: () => Promise.resolve([]),
    };
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
