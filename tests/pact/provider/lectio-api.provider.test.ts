import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appStorage,
  insertJob,
  insertSteps,
  seedCompletedAudiobook,
  seedCompletedBook,
  signedInUser,
} from '../../../server/testing/library-fixtures';
import { seedConvertingBook, writeTranscript } from '../../../server/testing/listening-fixtures';
import { TEXT_STEPS } from '../../../server/jobs/types';
import type { FileStorage } from '../../../server/storage/types';
import { createTestApp, type TestApp, truncateAll } from '../../../server/testing/app';
import { makeEpub3, multipartFile } from '../../../server/testing/books';
import { reader, states } from '../states';

// The real server, twice: one configured for development (signup open) and one for production
// (signup closed). A small forwarding proxy sends each interaction to the app its provider state
// selects, so every interaction is replayed against a real app on a real, fresh database.
let dev: TestApp;
let prod: TestApp;
let devApp: FastifyInstance;
let prodApp: FastifyInstance;
let current: FastifyInstance;
let proxy: Server;
let storage: FileStorage;

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

async function call(app: FastifyInstance, method: string, url: string, payload?: object) {
  const res = await app.inject({ method: method as 'POST', url, payload });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

async function ensureAccount(email: string, password: string) {
  const { status } = await call(devApp, 'POST', '/api/v1/auth/register', { email, password });
  if (status !== 201 && status !== 409) throw new Error(`Could not create ${email}: ${status}`);
}

beforeAll(async () => {
  // Both apps share one fresh in-memory database.
  dev = await createTestApp({ env: { APP_ENV: 'dev' } });
  prod = await createTestApp({ db: dev.db, env: { APP_ENV: 'production' } });
  devApp = dev.app;
  prodApp = prod.app;
  await devApp.listen({ port: 0, host: '127.0.0.1' });
  await prodApp.listen({ port: 0, host: '127.0.0.1' });
  current = devApp;
  storage = appStorage(dev.config);
  proxy = createServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: portOf(current), path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
});

afterAll(async () => {
  await new Promise((done) => proxy?.close(done));
  await prod?.close();
  await dev?.close();
});

type Params = { email?: string; password?: string } | undefined;
type SeedParams = {
  title?: string;
  position_seconds?: number;
  current_chapter_id?: string | null;
  filename?: string;
  steps?: boolean;
  author?: string;
  paragraphs?: string[][];
  chapters?: number;
  ready?: number[];
  entries?: { text: string; say_as: string }[];
  word?: string;
};

/** A fresh database with one signed-in reader: each seeded state starts from nothing. */
async function freshReader() {
  current = devApp;
  await truncateAll(dev.db);
  return signedInUser(devApp, reader.email, reader.password);
}

const seedParams = (params: unknown) => (params ?? {}) as SeedParams;

async function savePronunciations(token: string, entries: { text: string; say_as: string }[]) {
  const saved = await devApp.inject({
    method: 'PUT',
    url: '/api/v1/pronunciations',
    headers: { authorization: `Bearer ${token}` },
    payload: entries,
  });
  if (saved.statusCode !== 200) throw new Error(`Could not save pronunciations: ${saved.statusCode} ${saved.body}`);
}

const stateHandlers = {
  [states.signupEnabled]: async () => {
    current = devApp;
    return undefined;
  },
  [states.signupDisabled]: async () => {
    current = prodApp;
    return undefined;
  },
  [states.noAccount]: async () => {
    current = devApp;
    await truncateAll(dev.db);
    return undefined;
  },
  [states.accountExists]: async (params: unknown) => {
    current = devApp;
    const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
    await ensureAccount(email, password);
    return undefined;
  },
  [states.signedIn]: async (params: unknown) => {
    current = devApp;
    const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
    await ensureAccount(email, password);
    const { status, body } = await call(devApp, 'POST', '/api/v1/auth/login', { email, password });
    if (status !== 200) throw new Error(`Could not sign in ${email}: ${status}`);
    return { token: String(body.access_token) };
  },
  [states.completedAudiobook]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'The Tell-Tale Heart' } = seedParams(params);
    const { jobId } = await seedCompletedAudiobook(dev.db, storage, { userId: user.id, title, seconds: 3 });
    return { token: user.token, jobId };
  },
  [states.bookWithChapters]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'A Christmas Carol' } = seedParams(params);
    const book = await seedCompletedBook(dev.db, storage, {
      userId: user.id,
      title,
      chapters: 3,
      secondsPerChapter: 2,
    });
    return { token: user.token, jobId: book.bookId, chapterId: book.chapterIds[0] };
  },
  [states.audiobookWithTranscript]: async (params: unknown) => {
    const user = await freshReader();
    const {
      title = 'The Tell-Tale Heart',
      paragraphs = [['True! nervous, very dreadfully nervous I had been and am.']],
    } = seedParams(params);
    const job = await seedCompletedAudiobook(dev.db, storage, { userId: user.id, title, seconds: 3 });
    await writeTranscript(dev.db, storage, job, paragraphs);
    return { token: user.token, jobId: job.jobId };
  },
  [states.bookConverting]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'The Long Voyage', chapters = 3, ready = [1] } = seedParams(params);
    const book = await seedConvertingBook(dev.db, storage, { userId: user.id, title, chapters, ready });
    return { token: user.token, jobId: book.bookId, chapterId: book.chapterIds[0] };
  },
  [states.jobProcessing]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'Moby-Dick', steps = true } = seedParams(params);
    const jobId = await insertJob(dev.db, { userId: user.id, title, status: 'PROCESSING', progress: 40 });
    // acquire_content done, tutoring_analysis running, the rest pending.
    if (steps) await insertSteps(dev.db, jobId, TEXT_STEPS, 1);
    return { token: user.token, jobId };
  },
  [states.progressSaved]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'The Tell-Tale Heart', position_seconds = 1.5, current_chapter_id = null } = seedParams(params);
    const { jobId } = await seedCompletedAudiobook(dev.db, storage, { userId: user.id, title, seconds: 3 });
    const saved = await devApp.inject({
      method: 'PUT',
      url: `/api/v1/progress/${jobId}`,
      headers: { authorization: `Bearer ${user.token}` },
      payload: { position_seconds, current_chapter_id },
    });
    if (saved.statusCode !== 200) throw new Error(`Could not save progress: ${saved.statusCode} ${saved.body}`);
    return { token: user.token, jobId };
  },
  [states.uploadedFile]: async (params: unknown) => {
    const user = await freshReader();
    const { filename = 'the-raven.txt' } = seedParams(params);
    const fileKey = `uploads/${user.id}/${randomUUID()}.txt`;
    const text = new TextEncoder().encode(
      'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume of forgotten lore.\n'.repeat(
        3,
      ),
    );
    await storage.write(fileKey, text);
    await dev.db.query('INSERT INTO uploaded_files (file_key, user_id, filename, size_bytes) VALUES ($1, $2, $3, $4)', [
      fileKey,
      user.id,
      filename,
      text.byteLength,
    ]);
    return { token: user.token, fileKey };
  },
  [states.uploadedBook]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'The Lighthouse', author = 'Ada Marlow' } = seedParams(params);
    const body = multipartFile('lighthouse.epub', makeEpub3({ title, author }));
    const res = await devApp.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { authorization: `Bearer ${user.token}`, ...body.headers },
      payload: body.payload,
    });
    if (res.statusCode !== 201) throw new Error(`Could not upload the book: ${res.statusCode} ${res.body}`);
    return { token: user.token, fileKey: (res.json() as { file_key: string }).file_key };
  },
  [states.bookWithCover]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'The Lighthouse' } = seedParams(params);
    const auth = { authorization: `Bearer ${user.token}` };
    const body = multipartFile('lighthouse.epub', makeEpub3({ title }));
    const up = await devApp.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...auth, ...body.headers },
      payload: body.payload,
    });
    if (up.statusCode !== 201) throw new Error(`Could not upload the book: ${up.statusCode} ${up.body}`);
    const fileKey = (up.json() as { file_key: string }).file_key;
    const job = await devApp.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: auth,
      payload: { title, file_key: fileKey },
    });
    if (job.statusCode !== 201) throw new Error(`Could not create the book: ${job.statusCode} ${job.body}`);
    const jobId = (job.json() as { id: string }).id;
    // The cover is the book's from creation on; the conversion itself is not needed here.
    await devApp.inject({ method: 'DELETE', url: `/api/v1/jobs/${jobId}`, headers: auth });
    return { token: user.token, jobId };
  },
  [states.pronunciationsSaved]: async (params: unknown) => {
    const user = await freshReader();
    const { entries = [] } = seedParams(params);
    await savePronunciations(user.token, entries);
    return { token: user.token };
  },
  [states.audiobookWithChangedWord]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'The Tell-Tale Heart', word = 'Hermione' } = seedParams(params);
    const job = await seedCompletedAudiobook(dev.db, storage, { userId: user.id, title, seconds: 3 });
    await writeTranscript(dev.db, storage, job, [[`${word} opened the door.`, 'Nobody was there.']]);
    await savePronunciations(user.token, [{ text: word, say_as: 'her-my-oh-nee' }]);
    return { token: user.token, jobId: job.jobId };
  },
  [states.pendingJobsExist]: async (params: unknown) => {
    const user = await freshReader();
    const { title = 'Carol' } = seedParams(params);
    for (const [index, name] of [`${title} of the Bells`, `A ${title} for Winter`].entries()) {
      const jobId = await insertJob(dev.db, {
        userId: user.id,
        title: name,
        status: 'PENDING',
        createdAt: new Date(Date.now() - index * 60_000),
      });
      await insertSteps(dev.db, jobId, TEXT_STEPS, -1);
    }
    await insertJob(dev.db, { userId: user.id, title: 'Unrelated and finished', status: 'COMPLETED' });
    return { token: user.token };
  },
};

describe('lectio-api honours the pact of lectio-web', () => {
  it('verifies every interaction against the real server', async () => {
    const output = await new Verifier({
      provider: 'lectio-api',
      providerBaseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      pactUrls: [resolve('contracts/pacts/lectio-web-lectio-api.json')],
      stateHandlers,
      logLevel: 'warn',
    }).verifyProvider();
    expect(output).toBeTruthy();
  });
});
