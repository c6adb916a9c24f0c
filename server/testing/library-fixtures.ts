/**
 * FOR TESTS AND PACT PROVIDER STATES ONLY: finished jobs as the pipeline leaves them (rows in
 * jobs/job_steps and real MP3 files in storage), written without running the pipeline.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createMp3Writer } from '../audio/mp3';
import { speechLikePcm } from './synthetic-pcm';
import type { Config } from '../config';
import type { DbExecutor } from '../db/types';
import { BOOK_STEPS, CHAPTER_STEPS, TEXT_STEPS } from '../jobs/types';
import { LocalFileStorage, type FileStorage } from '../storage/index';

/** The storage createApp uses when none is injected. */
export function appStorage(config: Config): FileStorage {
  return new LocalFileStorage(config.storageDir);
}

export const FIXTURE_SAMPLE_RATE = 22050;

/** Encodes `seconds` of speech-like PCM into an MP3 under `key`; answers its exact duration and size. */
export async function writeMp3(
  storage: FileStorage,
  key: string,
  seconds: number,
  seed = 1,
): Promise<{ durationSeconds: number; bytes: number }> {
  const writer = createMp3Writer({ sampleRate: FIXTURE_SAMPLE_RATE, sink: await storage.createWriter(key) });
  await writer.write(speechLikePcm(seconds, FIXTURE_SAMPLE_RATE, seed));
  const { durationSeconds, bytes } = await writer.finish();
  return { durationSeconds, bytes };
}

/** Registers (or reuses) an account through the API and signs it in. */
export async function signedInUser(
  app: FastifyInstance,
  email: string,
  password = 'correct-horse-battery',
): Promise<{ id: string; token: string }> {
  await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email, password } });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`Could not sign in ${email}: ${login.statusCode} ${login.body}`);
  const token = String((login.json() as { access_token: string }).access_token);
  const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });
  return { id: String((me.json() as { id: string }).id), token };
}

export interface JobFixture {
  id?: string;
  userId: string;
  title: string;
  status?: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  jobType?: 'text_to_audio' | 'book_processing';
  parentJobId?: string | null;
  chapterOrder?: number | null;
  progress?: number;
  config?: Record<string, unknown>;
  resultData?: Record<string, unknown>;
  inputFileKey?: string | null;
  outputFileKey?: string | null;
  duration?: number | null;
  errorMessage?: string | null;
  createdAt?: Date;
}

export async function insertJob(db: DbExecutor, job: JobFixture): Promise<string> {
  const id = job.id ?? randomUUID();
  const status = job.status ?? 'COMPLETED';
  const created = (job.createdAt ?? new Date()).toISOString();
  await db.query(
    `INSERT INTO jobs (id, user_id, parent_job_id, chapter_order, job_type, title, status, progress, error_message,
       config, result_data, input_file_key, output_file_key, duration, created_at, updated_at, started_at, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14, $15, $15,
       CASE WHEN $7 = 'PENDING' THEN NULL ELSE $15::timestamptz END,
       CASE WHEN $7 IN ('COMPLETED', 'FAILED', 'CANCELLED') THEN $15::timestamptz ELSE NULL END)`,
    [
      id,
      job.userId,
      job.parentJobId ?? null,
      job.chapterOrder ?? null,
      job.jobType ?? 'text_to_audio',
      job.title,
      status,
      job.progress ?? (status === 'COMPLETED' ? 100 : 0),
      job.errorMessage ?? null,
      JSON.stringify(job.config ?? { provider: 'openai', voice_config: { provider: 'openai', voice_id: 'alloy' } }),
      JSON.stringify(job.resultData ?? {}),
      job.inputFileKey ?? null,
      job.outputFileKey ?? null,
      job.duration ?? null,
      created,
    ],
  );
  return id;
}

/** One row per step; steps before `runningIndex` completed, that one running, the rest pending. */
export async function insertSteps(
  db: DbExecutor,
  jobId: string,
  names: readonly string[] = TEXT_STEPS,
  runningIndex = names.length,
): Promise<void> {
  for (const [order, name] of names.entries()) {
    const status = order < runningIndex ? 'completed' : order === runningIndex ? 'running' : 'pending';
    await db.query(
      `INSERT INTO job_steps (id, job_id, step_name, step_order, status, progress, started_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $5 = 'pending' THEN NULL ELSE now() END,
         CASE WHEN $5 = 'completed' THEN now() ELSE NULL END)`,
      [randomUUID(), jobId, name, order + 1, status, status === 'completed' ? 100 : status === 'running' ? 40 : 0],
    );
  }
}

/** A COMPLETED text_to_audio job with a real MP3 at audio/<id>.mp3, as the pipeline leaves it. */
export async function seedCompletedAudiobook(
  db: DbExecutor,
  storage: FileStorage,
  options: {
    userId: string;
    title?: string;
    seconds?: number;
    id?: string;
    parentJobId?: string;
    chapterOrder?: number;
    seed?: number;
  },
): Promise<{ jobId: string; fileKey: string; durationSeconds: number; bytes: number }> {
  const jobId = options.id ?? randomUUID();
  const fileKey = `audio/${jobId}.mp3`;
  const { durationSeconds, bytes } = await writeMp3(storage, fileKey, options.seconds ?? 3, options.seed);
  await storage.write(`${fileKey}.timing.json`, new TextEncoder().encode(JSON.stringify({ sentences: [] })));
  await insertJob(db, {
    id: jobId,
    userId: options.userId,
    title: options.title ?? 'The Tell-Tale Heart',
    parentJobId: options.parentJobId ?? null,
    chapterOrder: options.chapterOrder ?? null,
    outputFileKey: fileKey,
    duration: durationSeconds,
    resultData: {
      duration: durationSeconds,
      duration_seconds: durationSeconds,
      file_size_bytes: bytes,
      format: 'mp3',
      tts_engine: 'espeak-ng',
    },
  });
  await insertSteps(db, jobId, options.parentJobId === undefined ? TEXT_STEPS : CHAPTER_STEPS);
  return { jobId, fileKey, durationSeconds, bytes };
}

/**
 * A COMPLETED book with `chapters` COMPLETED chapter jobs, each with its own MP3; the book has a
 * combined file unless `combined` is false.
 */
export async function seedCompletedBook(
  db: DbExecutor,
  storage: FileStorage,
  options: { userId: string; title?: string; chapters?: number; secondsPerChapter?: number; combined?: boolean },
): Promise<{ bookId: string; chapterIds: string[]; fileKey: string | null; durationSeconds: number }> {
  const bookId = randomUUID();
  const title = options.title ?? 'A Christmas Carol';
  const count = options.chapters ?? 3;
  // The parent row must exist before its children reference it; its result is filled in below.
  await insertJob(db, { id: bookId, userId: options.userId, title, jobType: 'book_processing', status: 'PROCESSING' });
  await insertSteps(db, bookId, BOOK_STEPS);
  const chapters: { title: string; order: number; duration: number; file_key: string; job_id: string }[] = [];
  for (let order = 1; order <= count; order += 1) {
    const chapterTitle = `Stave ${order}`;
    const chapter = await seedCompletedAudiobook(db, storage, {
      userId: options.userId,
      title: `${title} - ${chapterTitle}`,
      seconds: options.secondsPerChapter ?? 2,
      parentJobId: bookId,
      chapterOrder: order,
      seed: order,
    });
    chapters.push({
      title: chapterTitle,
      order,
      duration: chapter.durationSeconds,
      file_key: chapter.fileKey,
      job_id: chapter.jobId,
    });
  }
  const durationSeconds = chapters.reduce((sum, c) => sum + c.duration, 0);
  let fileKey: string | null = null;
  let bytes = 0;
  if (options.combined !== false) {
    fileKey = `audio/${bookId}.mp3`;
    // A stand-in for the concatenation: same length, its own bytes.
    bytes = (await writeMp3(storage, fileKey, durationSeconds, 99)).bytes;
  }
  await db.query(
    `UPDATE jobs SET status = 'COMPLETED', progress = 100, completed_at = now(), output_file_key = $2, duration = $3,
       result_data = $4::jsonb WHERE id = $1`,
    [
      bookId,
      fileKey,
      durationSeconds,
      JSON.stringify({
        duration: durationSeconds,
        duration_seconds: durationSeconds,
        ...(fileKey !== null && { file_size_bytes: bytes }),
        format: 'mp3',
        tts_engine: 'espeak-ng',
        chapters,
        child_job_ids: chapters.map((c) => c.job_id),
      }),
    ],
  );
  return { bookId, chapterIds: chapters.map((c) => c.job_id), fileKey, durationSeconds };
}
