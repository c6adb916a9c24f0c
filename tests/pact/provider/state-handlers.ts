import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HEARD_POSITION, seedRochesterBook } from '../../../server/testing/assistant-fixtures';
import {
  insertJob,
  insertSteps,
  seedCompletedAudiobook,
  seedCompletedBook,
  signedInUser,
} from '../../../server/testing/library-fixtures';
import { seedConvertingBook, writeTranscript } from '../../../server/testing/listening-fixtures';
import { TEXT_STEPS } from '../../../server/jobs/types';
import type { FileStorage } from '../../../server/storage/types';
import { type TestApp, truncateAll } from '../../../server/testing/app';
import { makeEpub3, multipartFile } from '../../../server/testing/books';
import { createPasswordResets } from '../../../server/auth/password-resets';
import { createCastRepository } from '../../../server/cast/repository';
import { reader, states } from '../states';

/**
 * What the state handlers work on: the real server twice (development: signup open; production:
 * signup closed) on one database, the app the next interaction goes to, and the voice session the
 * last voice state started. docs/contracts.md describes every state in plain words.
 */
export interface ProviderContext {
  dev: TestApp;
  prod: TestApp;
  storage: FileStorage;
  /** Sends the following interactions to this app. */
  use(app: FastifyInstance): void;
  /** The websocket URL of the voice assistant (the development app's). */
  voiceUrl: string;
  voice: { token: string; jobId: string } | null;
}

export type StateHandler = (params: unknown) => Promise<Record<string, unknown> | undefined>;

async function call(app: FastifyInstance, method: string, url: string, payload?: object) {
  const res = await app.inject({ method: method as 'POST', url, payload });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

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
  seconds?: number;
  characters?: { id: string; name: string; gender: 'female' | 'male' | 'unknown'; voice_id: string }[];
};

async function ensureAccount(app: FastifyInstance, email: string, password: string) {
  const { status } = await call(app, 'POST', '/api/v1/auth/register', { email, password });
  if (status !== 201 && status !== 409) throw new Error(`Could not create ${email}: ${status}`);
}

/** A fresh database with one signed-in reader: each seeded state starts from nothing. */
async function freshReader(ctx: ProviderContext) {
  ctx.use(ctx.dev.app);
  await truncateAll(ctx.dev.db);
  return signedInUser(ctx.dev.app, reader.email, reader.password);
}

const seedParams = (params: unknown) => (params ?? {}) as SeedParams;

async function savePronunciations(app: FastifyInstance, token: string, entries: { text: string; say_as: string }[]) {
  const saved = await app.inject({
    method: 'PUT',
    url: '/api/v1/pronunciations',
    headers: { authorization: `Bearer ${token}` },
    payload: entries,
  });
  if (saved.statusCode !== 200) throw new Error(`Could not save pronunciations: ${saved.statusCode} ${saved.body}`);
}

/** One handler per provider state (tests/pact/states.ts), keyed by the state's name. */
export function createStateHandlers(ctx: ProviderContext): Record<string, StateHandler> {
  return {
    [states.signupEnabled]: async () => {
      ctx.use(ctx.dev.app);
      return undefined;
    },
    [states.signupDisabled]: async () => {
      ctx.use(ctx.prod.app);
      return undefined;
    },
    [states.noAccount]: async () => {
      ctx.use(ctx.dev.app);
      await truncateAll(ctx.dev.db);
      return undefined;
    },
    [states.accountExists]: async (params: unknown) => {
      ctx.use(ctx.dev.app);
      const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
      await ensureAccount(ctx.dev.app, email, password);
      return undefined;
    },
    [states.passwordResetByEmail]: async (params: unknown) => {
      // The production app is the one configured with an SMTP server (harness.ts).
      ctx.use(ctx.prod.app);
      const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
      await ensureAccount(ctx.dev.app, email, password);
      return undefined;
    },
    [states.passwordResetLink]: async (params: unknown) => {
      ctx.use(ctx.dev.app);
      const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
      await ensureAccount(ctx.dev.app, email, password);
      const { rows } = await ctx.dev.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
      const resets = createPasswordResets(ctx.dev.db, { ttlSeconds: 3600, now: () => new Date() });
      return { token: await resets.create(rows[0]!.id) };
    },
    [states.preferencesSaved]: async (params: unknown) => {
      ctx.use(ctx.dev.app);
      const {
        email = reader.email,
        password = reader.password,
        provider,
        voice_id,
        default_speed = null,
      } = (params ?? {}) as NonNullable<Params> & {
        provider?: string;
        voice_id?: string;
        default_speed?: number | null;
      };
      await ensureAccount(ctx.dev.app, email, password);
      const { status, body } = await call(ctx.dev.app, 'POST', '/api/v1/auth/login', { email, password });
      if (status !== 200) throw new Error(`Could not sign in ${email}: ${status}`);
      const token = String(body.access_token);
      const saved = await ctx.dev.app.inject({
        method: 'PUT',
        url: '/api/v1/auth/preferences',
        headers: { authorization: `Bearer ${token}` },
        payload: {
          default_voice: provider === undefined ? null : { provider, ...(voice_id !== undefined && { voice_id }) },
          default_speed,
        },
      });
      if (saved.statusCode !== 200) throw new Error(`Could not save preferences: ${saved.statusCode} ${saved.body}`);
      return { token };
    },
    [states.signedIn]: async (params: unknown) => {
      ctx.use(ctx.dev.app);
      const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
      await ensureAccount(ctx.dev.app, email, password);
      const { status, body } = await call(ctx.dev.app, 'POST', '/api/v1/auth/login', { email, password });
      if (status !== 200) throw new Error(`Could not sign in ${email}: ${status}`);
      return { token: String(body.access_token) };
    },
    [states.completedAudiobook]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Tell-Tale Heart' } = seedParams(params);
      const { jobId } = await seedCompletedAudiobook(ctx.dev.db, ctx.storage, { userId: user.id, title, seconds: 3 });
      return { token: user.token, jobId };
    },
    [states.bookWithChapters]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'A Christmas Carol' } = seedParams(params);
      const book = await seedCompletedBook(ctx.dev.db, ctx.storage, {
        userId: user.id,
        title,
        chapters: 3,
        secondsPerChapter: 2,
      });
      return { token: user.token, jobId: book.bookId, chapterId: book.chapterIds[0] };
    },
    [states.audiobookWithTranscript]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const {
        title = 'The Tell-Tale Heart',
        paragraphs = [['True! nervous, very dreadfully nervous I had been and am.']],
      } = seedParams(params);
      const job = await seedCompletedAudiobook(ctx.dev.db, ctx.storage, { userId: user.id, title, seconds: 3 });
      await writeTranscript(ctx.dev.db, ctx.storage, job, paragraphs);
      return { token: user.token, jobId: job.jobId };
    },
    [states.bookConverting]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Long Voyage', chapters = 3, ready = [1] } = seedParams(params);
      const book = await seedConvertingBook(ctx.dev.db, ctx.storage, { userId: user.id, title, chapters, ready });
      return { token: user.token, jobId: book.bookId, chapterId: book.chapterIds[0] };
    },
    [states.bookOpening]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Long Voyage', chapters = 3, seconds = 2 } = seedParams(params);
      const book = await seedConvertingBook(ctx.dev.db, ctx.storage, {
        userId: user.id,
        title,
        chapters,
        ready: [],
        openingSeconds: seconds,
      });
      return { token: user.token, jobId: book.bookId, chapterId: book.chapterIds[0] };
    },
    [states.jobProcessing]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'Moby-Dick', steps = true } = seedParams(params);
      const jobId = await insertJob(ctx.dev.db, { userId: user.id, title, status: 'PROCESSING', progress: 40 });
      // acquire_content and split_chapters done, synthesize running, the rest pending.
      if (steps) await insertSteps(ctx.dev.db, jobId, TEXT_STEPS, TEXT_STEPS.indexOf('synthesize'));
      return { token: user.token, jobId };
    },
    [states.progressSaved]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Tell-Tale Heart', position_seconds = 1.5, current_chapter_id = null } = seedParams(params);
      const { jobId } = await seedCompletedAudiobook(ctx.dev.db, ctx.storage, { userId: user.id, title, seconds: 3 });
      const saved = await ctx.dev.app.inject({
        method: 'PUT',
        url: `/api/v1/progress/${jobId}`,
        headers: { authorization: `Bearer ${user.token}` },
        payload: { position_seconds, current_chapter_id },
      });
      if (saved.statusCode !== 200) throw new Error(`Could not save progress: ${saved.statusCode} ${saved.body}`);
      return { token: user.token, jobId };
    },
    [states.uploadedFile]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { filename = 'the-raven.txt' } = seedParams(params);
      const fileKey = `uploads/${user.id}/${randomUUID()}.txt`;
      const text = new TextEncoder().encode(
        'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume of forgotten lore.\n'.repeat(
          3,
        ),
      );
      await ctx.storage.write(fileKey, text);
      await ctx.dev.db.query(
        'INSERT INTO uploaded_files (file_key, user_id, filename, size_bytes) VALUES ($1, $2, $3, $4)',
        [fileKey, user.id, filename, text.byteLength],
      );
      return { token: user.token, fileKey };
    },
    [states.uploadedBook]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Lighthouse', author = 'Ada Marlow' } = seedParams(params);
      const body = multipartFile('lighthouse.epub', makeEpub3({ title, author }));
      const res = await ctx.dev.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: { authorization: `Bearer ${user.token}`, ...body.headers },
        payload: body.payload,
      });
      if (res.statusCode !== 201) throw new Error(`Could not upload the book: ${res.statusCode} ${res.body}`);
      return { token: user.token, fileKey: (res.json() as { file_key: string }).file_key };
    },
    [states.bookWithCover]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Lighthouse' } = seedParams(params);
      const auth = { authorization: `Bearer ${user.token}` };
      const body = multipartFile('lighthouse.epub', makeEpub3({ title }));
      const up = await ctx.dev.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: { ...auth, ...body.headers },
        payload: body.payload,
      });
      if (up.statusCode !== 201) throw new Error(`Could not upload the book: ${up.statusCode} ${up.body}`);
      const fileKey = (up.json() as { file_key: string }).file_key;
      const job = await ctx.dev.app.inject({
        method: 'POST',
        url: '/api/v1/jobs',
        headers: auth,
        payload: { title, file_key: fileKey },
      });
      if (job.statusCode !== 201) throw new Error(`Could not create the book: ${job.statusCode} ${job.body}`);
      const jobId = (job.json() as { id: string }).id;
      // The cover is the book's from creation on; the conversion itself is not needed here.
      await ctx.dev.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${jobId}`, headers: auth });
      return { token: user.token, jobId };
    },
    [states.pronunciationsSaved]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { entries = [] } = seedParams(params);
      await savePronunciations(ctx.dev.app, user.token, entries);
      return { token: user.token };
    },
    [states.audiobookWithChangedWord]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Tell-Tale Heart', word = 'Hermione' } = seedParams(params);
      const job = await seedCompletedAudiobook(ctx.dev.db, ctx.storage, { userId: user.id, title, seconds: 3 });
      await writeTranscript(ctx.dev.db, ctx.storage, job, [[`${word} opened the door.`, 'Nobody was there.']]);
      await savePronunciations(ctx.dev.app, user.token, [{ text: word, say_as: 'her-my-oh-nee' }]);
      return { token: user.token, jobId: job.jobId };
    },
    [states.castBook]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'The Farm', characters = [] } = seedParams(params);
      const job = await seedCompletedAudiobook(ctx.dev.db, ctx.storage, { userId: user.id, title, seconds: 3 });
      const voice = { provider: 'offline', voice_id: 'en-us+f3', cast: true };
      await ctx.dev.db.query('UPDATE jobs SET config = $2::jsonb WHERE id = $1', [
        job.jobId,
        JSON.stringify({ provider: 'offline', voice_config: voice }),
      ]);
      // One quote per character, one after the other: "Hello." "Hello." ...
      const quote = '"Hello." ';
      const sentences = characters.map(() => quote.trim());
      await writeTranscript(ctx.dev.db, ctx.storage, job, [sentences]);
      await createCastRepository(ctx.storage).write(job.jobId, {
        narrator_voice: voice.voice_id,
        characters: characters.map((c) => ({ ...c, aliases: [] })),
        chapters: [
          characters.map((c, i) => ({
            char_start: i * quote.length,
            char_end: i * quote.length + quote.trim().length,
            speaker: c.id,
          })),
        ],
      });
      return { token: user.token, jobId: job.jobId };
    },
    [states.pendingJobsExist]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { title = 'Carol' } = seedParams(params);
      for (const [index, name] of [`${title} of the Bells`, `A ${title} for Winter`].entries()) {
        const jobId = await insertJob(ctx.dev.db, {
          userId: user.id,
          title: name,
          status: 'PENDING',
          createdAt: new Date(Date.now() - index * 60_000),
        });
        await insertSteps(ctx.dev.db, jobId, TEXT_STEPS, -1);
      }
      await insertJob(ctx.dev.db, { userId: user.id, title: 'Unrelated and finished', status: 'COMPLETED' });
      return { token: user.token };
    },
    [states.voiceSession]: async (params: unknown) => {
      const user = await freshReader(ctx);
      const { mode = 'xray' } = (params ?? {}) as { mode?: string };
      const jobId = await seedRochesterBook(ctx.dev.db, ctx.storage, user.id, { positionSeconds: HEARD_POSITION });
      const started = await ctx.dev.app.inject({
        method: 'POST',
        url: '/api/v1/voice-assistant/start',
        headers: { authorization: `Bearer ${user.token}` },
        payload: { mode, jobId },
      });
      if (started.statusCode !== 200)
        throw new Error(`Could not start the assistant: ${started.statusCode} ${started.body}`);
      ctx.voice = { token: user.token, jobId };
      return { token: user.token, jobId };
    },
  };
}
