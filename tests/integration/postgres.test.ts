import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg_ from 'pg';
import { createApp } from '../../server/app';
import { openPostgres } from '../../server/db/postgres';
import { createJobRepository } from '../../server/jobs/repository';
import { BOOK_STEPS, CHAPTER_STEPS } from '../../server/jobs/types';
import { TEST_PASSWORD_COST, testConfig } from '../../server/testing/app';
import { appStorage } from '../../server/testing/library-fixtures';
import { seedConvertingBook } from '../../server/testing/listening-fixtures';
import { startPostgres, type TestPostgres } from '../support/postgres';

// DATABASE_URL selects a real PostgreSQL server: the same migrations and the same behaviour as
// the embedded database.
let pg: TestPostgres;
let app: FastifyInstance;
let config: ReturnType<typeof testConfig>;

beforeAll(async () => {
  pg = await startPostgres();
  config = testConfig({ DATABASE_URL: pg.url, WORKERS: 'none' });
  app = await createApp(config, { passwordCost: TEST_PASSWORD_COST });
});

afterAll(async () => {
  await app?.close();
  pg?.stop();
});

describe('the server on a PostgreSQL server', () => {
  it('migrates, registers, signs in and answers the current user', async () => {
    const credentials = { email: 'pg.reader@example.com', password: 'correct-horse' };
    expect((await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials })).statusCode).toBe(
      201,
    );
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    expect(login.statusCode).toBe(200);
    const me = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${login.json().access_token}` },
    });
    expect(me.json().email).toBe(credentials.email);
  });

  it('refuses a second account for the same email, as on the embedded database', async () => {
    const credentials = { email: 'PG.Reader@Example.com', password: 'another-passphrase' };
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Email already registered');
  });

  it('applies migrations once even when a second server starts on the same database, through its Unix socket', async () => {
    // A server on the database's host may connect through its socket directory (`?host=/dir`):
    // no network address at the server's end.
    const client = new pg_.Client({ connectionString: pg.socketUrl });
    await client.connect();
    const { rows } = await client.query<{ addr: string | null }>('SELECT inet_server_addr() AS addr');
    await client.end();
    expect(rows).toEqual([{ addr: null }]);
    const second = await createApp(testConfig({ DATABASE_URL: pg.socketUrl }), { passwordCost: TEST_PASSWORD_COST });
    try {
      const credentials = { email: 'pg.reader@example.com', password: 'correct-horse' };
      const login = await second.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
      expect(login.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("drops a cached job-list page when another process changes the owner's jobs", async () => {
    const credentials = { email: 'pg.lister@example.com', password: 'correct-horse' };
    await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    const headers = { authorization: `Bearer ${login.json().access_token}` };
    const me = (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json() as { id: string };
    const text =
      'The lighthouse keeper climbed the stairs at dusk. He lit the great lamp and watched the ships on the calm sea.';
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers,
      payload: { title: 'Cached', content: text },
    });
    expect(created.statusCode).toBe(201);
    const list = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/jobs', headers })).json() as { jobs: { title: string }[] };
    expect((await list()).jobs.map((j) => j.title)).toEqual(['Cached']);
    await list(); // now served from the cache

    // Another process (a worker) writes through its own connection.
    const worker = new pg_.Client({ connectionString: pg.url });
    await worker.connect();
    try {
      await worker.query(`UPDATE jobs SET title = 'Renamed elsewhere', updated_at = now() WHERE user_id = $1`, [me.id]);
    } finally {
      await worker.end();
    }
    const deadline = Date.now() + 5000;
    let title = (await list()).jobs[0]?.title;
    while (title !== 'Renamed elsewhere' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      title = (await list()).jobs[0]?.title;
    }
    expect(title).toBe('Renamed elsewhere');
  });

  it('lists a converting book as listenable and its chapters in chapter order, as on the embedded database', async () => {
    const credentials = { email: 'pg.early.listener@example.com', password: 'correct-horse' };
    await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    const headers = { authorization: `Bearer ${login.json().access_token}` };
    const me = (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json() as { id: string };
    const db = await openPostgres(pg.url);
    try {
      await seedConvertingBook(db, appStorage(config), { userId: me.id, title: 'Voyage', chapters: 11, ready: [1, 2] });
      // Only its first chapter's opening plays yet: listed too.
      await seedConvertingBook(db, appStorage(config), {
        userId: me.id,
        title: 'Early',
        chapters: 2,
        ready: [],
        openingSeconds: 1,
      });
    } finally {
      await db.close();
    }
    const list = async (query: string) =>
      (await app.inject({ method: 'GET', url: `/api/v1/jobs?page_size=100${query}`, headers })).json() as {
        jobs: { title: string; chapters_ready: number; listenable: boolean }[];
      };
    const listenable = await list('&status=listenable&top_level=true&sort=title&order=desc');
    expect(listenable.jobs.map((j) => [j.title, j.chapters_ready, j.listenable])).toEqual([
      ['Voyage', 2, true],
      ['Early', 0, true],
    ]);
    const chapters = Array.from({ length: 11 }, (_v, i) => `Voyage - Chapter ${i + 1}`);
    const byTitle = (await list('&sort=title&order=asc')).jobs.filter((j) => j.title.startsWith('Voyage'));
    expect(byTitle.map((j) => j.title)).toEqual(['Voyage', ...chapters]);
    const newest = (await list('')).jobs.map((j) => j.title).filter((title) => title.startsWith('Voyage - '));
    expect(newest).toEqual(chapters);
  });

  it("stores a long book's chapters and their steps in a few statements, as on the embedded database", async () => {
    const credentials = { email: 'pg.long.book@example.com', password: 'correct-horse' };
    await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    const headers = { authorization: `Bearer ${login.json().access_token}` };
    const me = (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json() as { id: string };
    const db = await openPostgres(pg.url);
    try {
      const repo = createJobRepository(db);
      const bookId = randomUUID();
      await repo.transaction((tx) =>
        tx.insertJob({
          id: bookId,
          userId: me.id,
          jobType: 'book_processing',
          title: 'Saga',
          config: {},
          steps: BOOK_STEPS,
        }),
      );
      // More chapters than one statement takes, with titles a SQL array must quote.
      const chapters = Array.from({ length: 1201 }, (_v, i) => ({
        id: randomUUID(),
        userId: me.id,
        parentJobId: bookId,
        chapterOrder: i + 1,
        jobType: 'text_to_audio' as const,
        title: `Saga - "Part" {${i + 1}}, the \\ end`,
        description: null,
        config: { source: 'content' as const, char_offset: i * 10, chapter_title: `Part ${i + 1}` },
        inputFileKey: `jobs/${i}/source.txt`,
        steps: CHAPTER_STEPS,
      }));
      await repo.replaceChapters(bookId, chapters);
      const children = await repo.jobs.children([bookId]);
      expect(children.map((c) => [c.id, c.title, c.chapterOrder, c.config.char_offset])).toEqual(
        chapters.map((c) => [c.id, c.title, c.chapterOrder, c.config.char_offset]),
      );
      const steps = await repo.steps.ofJobs([chapters[0]!.id, chapters[1200]!.id]);
      expect(steps.map((s) => [s.stepName, s.stepOrder, s.status])).toEqual(
        [1, 2].flatMap(() => CHAPTER_STEPS.map((name, i) => [name, i + 1, 'pending'])),
      );
    } finally {
      await db.close();
    }
  });
});
