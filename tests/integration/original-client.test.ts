import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJob, SHORT_TEXT, waitForJob } from '../../server/testing/jobs';
import { appStorage, seedCompletedBook } from '../../server/testing/library-fixtures';
import { createTestApp, type TestApp } from '../../server/testing/app';
import {
  originalAudioMetadata,
  originalJob,
  originalJobList,
  originalProgress,
  originalStep,
  originalStreamInfo,
} from '../support/original-client-schemas';

// The journey of a team that moves to Lectio and keeps the earlier product's own browser client:
// every answer that client reads must pass the schemas it validates with, or its screens show
// "Failed to fetch job" and nothing can be played.
let t: TestApp;
let headers: { authorization: string };
let userId: string;

beforeAll(async () => {
  t = await createTestApp();
  const credentials = { email: 'migrating@example.com', password: 'a long migration passphrase' };
  expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials })).statusCode).toBe(
    201,
  );
  const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
  headers = { authorization: `Bearer ${(login.json() as { access_token: string }).access_token}` };
  userId = (await get('/api/v1/auth/me')).id as string;
});
afterAll(async () => {
  await t?.close();
});

async function get(url: string): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as Record<string, unknown>;
}

describe("the earlier product's client reads every answer of its journey", () => {
  it('a job it created, with its steps, once completed', async () => {
    const created = await createJob(t, headers, {
      title: 'Lighthouse',
      content: SHORT_TEXT,
      voice_config: { provider: 'openai' },
    });
    expect(created.statusCode).toBe(201);
    expect(originalJob.safeParse(created.json()).error).toBeUndefined();

    const id = (created.json() as { id: string }).id;
    const done = await waitForJob(t, headers, id);
    expect(done.status).toBe('COMPLETED');
    const job = await get(`/api/v1/jobs/${id}`);
    expect(originalJob.safeParse(job).error).toBeUndefined();
    expect((job.steps as { status: string }[]).map((s) => s.status)).toEqual([
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
    ]);

    const steps = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/steps`, headers });
    expect(originalStep.array().safeParse(steps.json()).error).toBeUndefined();
  });

  it('its library: the list filtered with the job status value', async () => {
    for (const status of ['COMPLETED', 'completed', 'Completed']) {
      const list = await get(`/api/v1/jobs?status=${status}&page=1&page_size=20`);
      const parsed = originalJobList.safeParse(list);
      expect(parsed.error).toBeUndefined();
      expect(parsed.data?.jobs.length).toBeGreaterThan(0);
      expect(parsed.data?.jobs.every((job) => job.status === 'COMPLETED')).toBe(true);
    }
    expect(originalJobList.safeParse(await get('/api/v1/jobs?status=PENDING')).data?.jobs).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/jobs?status=DONE', headers })).statusCode).toBe(422);
  });

  it('a book with its chapters, and a chapter with its book, played and resumed', async () => {
    const { bookId, chapterIds } = await seedCompletedBook(t.db, appStorage(t.config), {
      userId,
      title: 'A Christmas Carol',
    });

    const book = originalJob.parse(await get(`/api/v1/jobs/${bookId}`));
    expect(book.children?.map((child) => child.id)).toEqual(chapterIds);
    expect(book.children?.every((child) => child.user_id === userId && child.status === 'COMPLETED')).toBe(true);

    const chapter = originalJob.parse(await get(`/api/v1/jobs/${chapterIds[1]}`));
    expect(chapter.parent).toMatchObject({
      id: bookId,
      user_id: userId,
      status: 'COMPLETED',
      title: 'A Christmas Carol',
    });

    for (const id of [bookId, chapterIds[1]!]) {
      expect(originalStreamInfo.safeParse(await get(`/api/v1/audio/${id}/stream`)).error).toBeUndefined();
      expect(originalAudioMetadata.safeParse(await get(`/api/v1/audio/${id}/metadata`)).error).toBeUndefined();
    }

    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${bookId}`,
      headers,
      payload: { position_seconds: 4.5, current_chapter_id: chapterIds[1] },
    });
    expect(originalProgress.safeParse(saved.json()).error).toBeUndefined();
    expect(originalProgress.parse(await get(`/api/v1/progress/${bookId}`)).position_seconds).toBe(4.5);
    const resumed = originalStreamInfo.parse(await get(`/api/v1/audio/${bookId}/stream`));
    expect(resumed.resume_info).toMatchObject({
      has_progress: true,
      resume_position: 4.5,
      current_chapter_id: chapterIds[1],
    });
  });
});
