import { randomUUID } from 'node:crypto';
import { DomainError } from '../errors';
import { normaliseText, readTextUpload } from '../ingest/text-file';
import type { FileStorage } from '../storage/types';
import { DEFAULT_VOICES } from '../voices/select';
import type { JobQueue } from './queue';
import type { Quotas } from './quotas';
import type { JobRepository, ListFilter } from './repository';
import { readText, sourceKey } from './steps';
import { timingKey } from './timing';
import {
  BOOK_STEPS,
  TEXT_STEPS,
  isActive,
  type JobConfig,
  type JobRecord,
  type JobType,
  type Provider,
  type StepRecord,
} from './types';

export const MIN_TEXT_CHARS = 100;

export interface CreateJobInput {
  title: string;
  description?: string | undefined;
  content?: string | undefined;
  file_key?: string | undefined;
  url?: string | undefined;
  job_type?: JobType | undefined;
  voice_config?: { provider: Provider; voice_id?: string | undefined; voice_settings?: Record<string, string> | undefined } | undefined;
}

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());
const seconds = (from: Date | null, to: Date | null) =>
  from === null ? null : Math.max(0, ((to ?? new Date()).getTime() - from.getTime()) / 1000);

export function stepView(s: StepRecord) {
  return {
    id: s.id,
    step_name: s.stepName,
    step_order: s.stepOrder,
    status: s.status,
    progress: s.progress,
    error_message: s.errorMessage,
    step_metadata: s.metadata,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    started_at: isoOrNull(s.startedAt),
    completed_at: isoOrNull(s.completedAt),
    duration: s.status === 'pending' ? null : seconds(s.startedAt, s.completedAt),
  };
}

function publicConfig(config: JobConfig) {
  const { voice_config, provider, source, source_url, tutoring_analysis } = config;
  return {
    ...(voice_config !== undefined && { voice_config }),
    ...(provider !== undefined && { provider }),
    ...(source !== undefined && { source }),
    ...(source_url !== undefined && { source_url }),
    ...(tutoring_analysis !== undefined && { tutoring_analysis }),
  };
}

function publicResult(job: JobRecord) {
  const { output_file_key: _o, timing_file_key: _t, ...rest } = job.resultData;
  return rest;
}

export function jobView(job: JobRecord, steps: StepRecord[], children: JobRecord[], parent: { id: string; title: string } | null) {
  return {
    id: job.id,
    user_id: job.userId,
    parent_job_id: job.parentJobId,
    job_type: job.jobType,
    title: job.title,
    description: job.description,
    status: job.status,
    progress: job.progress,
    error_message: job.errorMessage,
    config: publicConfig(job.config),
    result_data: publicResult(job),
    input_file_key: job.inputFileKey,
    output_file_key: job.outputFileKey,
    created_at: iso(job.createdAt),
    updated_at: iso(job.updatedAt),
    started_at: isoOrNull(job.startedAt),
    completed_at: isoOrNull(job.completedAt),
    duration: job.duration,
    steps: steps.map(stepView),
    children: children.map((c) => ({
      id: c.id,
      title: c.title,
      status: c.status,
      progress: c.progress,
      created_at: iso(c.createdAt),
      updated_at: iso(c.updatedAt),
      completed_at: isoOrNull(c.completedAt),
      duration: c.duration,
      error_message: c.errorMessage,
      result_data: publicResult(c),
    })),
    parent,
  };
}

export type JobView = ReturnType<typeof jobView>;

export interface JobServiceDeps {
  repo: JobRepository;
  storage: FileStorage;
  queue: Pick<JobQueue, 'send'>;
  quotas: Quotas;
  /** Tells this process's runner to stop work at once (other processes poll the status). */
  onCancelled?: (jobIds: string[]) => void;
}

const notFound = () => new DomainError('not_found', 'Job not found');

/** The jobs domain behind the routes: creation, listing, cancel and retry. Knows nothing of HTTP. */
export function createJobService(deps: JobServiceDeps) {
  const { repo, storage, queue, quotas } = deps;

  async function views(jobs: JobRecord[]): Promise<JobView[]> {
    const ids = jobs.map((j) => j.id);
    const [steps, children, titles] = await Promise.all([
      repo.steps(ids),
      repo.children(ids),
      repo.titles([...new Set(jobs.map((j) => j.parentJobId).filter((id): id is string => id !== null))]),
    ]);
    return jobs.map((job) => {
      const parentTitle = job.parentJobId === null ? undefined : titles.get(job.parentJobId);
      return jobView(
        job,
        steps.filter((s) => s.jobId === job.id),
        children.filter((c) => c.parentJobId === job.id),
        job.parentJobId !== null && parentTitle !== undefined ? { id: job.parentJobId, title: parentTitle } : null,
      );
    });
  }

  async function owned(userId: string, jobId: string): Promise<JobRecord> {
    const job = await repo.getForUser(jobId, userId);
    if (!job) throw notFound();
    return job;
  }

  async function view(job: JobRecord): Promise<JobView> {
    const [v] = await views([job]);
    return v!;
  }

  return {
    async create(userId: string, input: CreateJobInput): Promise<JobView> {
      const sources = [input.content, input.file_key, input.url].filter((v) => v !== undefined);
      if (sources.length !== 1) {
        throw new DomainError('invalid', 'Exactly one of content, file_key, or url must be provided');
      }
      const id = randomUUID();
      const provider = input.voice_config?.provider ?? 'openai';
      const voiceConfig = {
        provider,
        voice_id: input.voice_config?.voice_id?.trim() || DEFAULT_VOICES[provider],
        ...(input.voice_config?.voice_settings !== undefined && { voice_settings: input.voice_config.voice_settings }),
      };
      const config: JobConfig = { voice_config: voiceConfig, provider };
      if (input.job_type !== undefined) config.job_type_requested = input.job_type;
      let inputFileKey: string | null = null;
      const title = input.title.trim() || 'Untitled';
      let source: Buffer | null = null;

      if (input.content !== undefined) {
        const text = normaliseText(input.content);
        if (text.trim().length < MIN_TEXT_CHARS) {
          throw new DomainError('invalid', `Content must be at least ${MIN_TEXT_CHARS} characters (not counting surrounding blank space)`);
        }
        config.source = 'content';
        source = Buffer.from(text, 'utf8');
        config.source_bytes = source.byteLength;
        inputFileKey = sourceKey(id);
      } else if (input.file_key !== undefined) {
        if ((await repo.uploadOwner(input.file_key)) !== userId) throw new DomainError('not_found', 'File not found');
        const text = await readText(storage, input.file_key).catch(() => {
          throw new DomainError('not_found', 'File not found');
        });
        if (text.trim().length < MIN_TEXT_CHARS) {
          throw new DomainError('invalid', `The file must contain at least ${MIN_TEXT_CHARS} characters of text`);
        }
        config.source = 'file';
        inputFileKey = input.file_key;
      } else if (input.url !== undefined) {
        config.source = 'url';
        config.source_url = input.url;
        // The SPA may send the address as the title; the page's own title replaces it then.
        const bare = (u: string) => u.trim().replace(/^https?:\/\//i, '').replace(/\/+$/, '').toLowerCase();
        if (bare(title) === bare(input.url)) config.title_from_page = true;
      }

      // Quotas before anything is written: storage (a web page's text counts once fetched), then
      // the unfinished-jobs limit, counted under a lock in the transaction that inserts the job.
      await quotas.assertStorage(userId, source?.byteLength ?? 0);
      if (source !== null && inputFileKey !== null) await storage.write(inputFileKey, source);
      const steps = input.job_type === 'book_processing' ? BOOK_STEPS : TEXT_STEPS;
      try {
        await repo.db.transaction(async (tx) => {
          await quotas.assertActiveJobs(tx, userId);
          await repo.insertJob(tx, {
            id,
            userId,
            jobType: input.job_type ?? 'text_to_audio',
            title,
            description: input.description ?? null,
            config,
            inputFileKey,
            steps,
          });
        });
      } catch (error) {
        if (source !== null && inputFileKey !== null) await storage.delete(inputFileKey).catch(() => undefined);
        throw error;
      }
      await queue.send(id);
      return view((await repo.get(id))!);
    },

    /** One page of job summaries (the list's shape; `get` has the whole job). */
    async list(filter: ListFilter) {
      const { jobs, total } = await repo.listSummaries(filter);
      return {
        jobs,
        total,
        page: filter.page,
        page_size: filter.pageSize,
        total_pages: Math.ceil(total / filter.pageSize),
      };
    },

    async get(userId: string, jobId: string): Promise<JobView> {
      return view(await owned(userId, jobId));
    },

    async steps(userId: string, jobId: string) {
      await owned(userId, jobId);
      return (await repo.steps([jobId])).map(stepView);
    },

    /** Cancels the job and its unfinished chapters; their work stops within a second. */
    async cancel(userId: string, jobId: string): Promise<JobView> {
      const job = await owned(userId, jobId);
      if (!isActive(job.status)) throw new DomainError('conflict', `Cannot cancel a job that is ${job.status}`);
      const cancelled = await repo.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `UPDATE jobs SET status = 'CANCELLED', updated_at = now()
           WHERE (id = $1 OR parent_job_id = $1) AND status IN ('PENDING', 'PROCESSING') RETURNING id`,
          [jobId],
        );
        const ids = rows.map((r) => r.id);
        await tx.query(
          `UPDATE job_steps SET status = 'failed', error_message = 'Cancelled', completed_at = now(), updated_at = now()
           WHERE job_id = ANY($1::uuid[]) AND status = 'running'`,
          [ids],
        );
        return ids;
      });
      deps.onCancelled?.(cancelled);
      // A chapter cancelled on its own fails its book (which can then be retried).
      if (job.parentJobId !== null) await queue.send(job.parentJobId);
      return view((await repo.get(jobId))!);
    },

    /** DELETE /jobs/{id}: cancels an unfinished job (its view), deletes a finished one (null). */
    async cancelOrRemove(userId: string, jobId: string): Promise<JobView | null> {
      const job = await owned(userId, jobId);
      if (isActive(job.status)) return this.cancel(userId, jobId);
      await this.remove(userId, jobId);
      return null;
    },

    /** A FAILED job resumes from its failed step; for a book, only failed (or cancelled) chapters run again. */
    async retry(userId: string, jobId: string): Promise<JobView> {
      const job = await owned(userId, jobId);
      if (job.status !== 'FAILED') {
        throw new DomainError('conflict', `Only a failed job can be retried (this one is ${job.status})`);
      }
      // A chapter whose book failed because of it: retrying the book re-runs exactly the failed chapters.
      const parent = job.parentJobId === null ? null : await repo.get(job.parentJobId);
      const target = parent !== null && parent.status === 'FAILED' ? parent : job;
      await repo.db.transaction(async (tx) => {
        if (target.parentJobId === null) await quotas.assertActiveJobs(tx, userId);
        const { rows } = await tx.query<{ id: string }>(
          `UPDATE jobs SET status = 'PENDING', error_message = NULL, enqueued_at = NULL, updated_at = now()
           WHERE (id = $1 OR parent_job_id = $1) AND status IN ('FAILED', 'CANCELLED') RETURNING id`,
          [target.id],
        );
        await tx.query(
          `UPDATE job_steps SET status = 'pending', error_message = NULL, progress = 0, started_at = NULL, completed_at = NULL, updated_at = now()
           WHERE job_id = ANY($1::uuid[]) AND status IN ('failed', 'running')`,
          [rows.map((r) => r.id)],
        );
      });
      await queue.send(target.id);
      return view((await repo.get(jobId))!);
    },

    /**
     * A finished (COMPLETED, FAILED or CANCELLED) top-level job is deleted for good: the rows of the
     * job, its chapters and steps, the user's listening progress (all by foreign-key cascade), every
     * stored file under each job's folder (text, audio, timing maps, covers) and the upload it was
     * made from when no other job uses it. Chapters of a failed book that still run are stopped.
     */
    async remove(userId: string, jobId: string): Promise<void> {
      const job = await owned(userId, jobId);
      if (isActive(job.status)) throw new DomainError('conflict', `Cannot delete a job that is ${job.status}; cancel it first`);
      if (job.parentJobId !== null) {
        throw new DomainError('conflict', 'This job is a chapter of a book: delete the book to remove it');
      }
      const rows = await repo.db.transaction(async (tx) => {
        const { rows: found } = await tx.query<{ id: string; output_file_key: string | null }>(
          'SELECT id, output_file_key FROM jobs WHERE (id = $1 OR parent_job_id = $1) AND user_id = $2 FOR UPDATE',
          [jobId, userId],
        );
        await tx.query('DELETE FROM jobs WHERE id = $1 AND user_id = $2', [jobId, userId]);
        return found;
      });
      const ids = rows.map((r) => r.id);
      deps.onCancelled?.(ids);
      for (const row of rows) {
        await storage.deletePrefix(`jobs/${row.id}/`);
        // Audio stored outside the job's folder (older layouts) goes too, with its timing map.
        if (row.output_file_key !== null && !row.output_file_key.startsWith('uploads/')) {
          await storage.delete(row.output_file_key);
          await storage.delete(timingKey(row.output_file_key));
        }
      }
      const upload = job.inputFileKey;
      if (upload !== null && upload.startsWith('uploads/') && (await repo.jobUsingUpload(upload)) === null) {
        await repo.deleteUpload(upload);
        await storage.delete(upload);
      }
    },

    /** Deletes one of the user's uploads; one that a job was made from goes with that job. */
    async removeUpload(userId: string, fileKey: string): Promise<void> {
      if ((await repo.uploadOwner(fileKey)) !== userId) throw new DomainError('not_found', 'File not found');
      const user = await repo.jobUsingUpload(fileKey);
      if (user !== null) {
        throw new DomainError('conflict', `This file is the text of the job "${user.title}"; delete that job to remove it`);
      }
      await repo.deleteUpload(fileKey);
      await storage.delete(fileKey);
    },

    /** Validates and stores an uploaded .txt file for the user; throws IngestError for files it refuses. */
    async upload(userId: string, filename: string, bytes: Uint8Array) {
      const text = readTextUpload(bytes, filename);
      await quotas.assertStorage(userId, bytes.byteLength);
      await quotas.takeUpload(userId);
      const fileKey = `uploads/${randomUUID()}.txt`;
      const data = Buffer.from(text, 'utf8');
      await storage.write(fileKey, data);
      // Control characters (NUL among them) cannot be stored as text and mean nothing in a name.
      const cleanName = (filename.split(/[\\/]/).pop() ?? 'upload.txt').replace(/\p{Cc}/gu, '').slice(0, 255) || 'upload.txt';
      await repo.insertUpload(fileKey, userId, cleanName, bytes.byteLength);
      return { file_key: fileKey, filename: cleanName, size_bytes: bytes.byteLength };
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
