import { randomUUID } from 'node:crypto';
import { DomainError } from '../errors';
import type { StoredDocumentInfo } from '../ingest/document';
import { fetchPage } from '../ingest/fetch-page';
import { normaliseText } from '../ingest/text-file';
import { documentReader } from '../ingest/reader';
import type { StorageHealth } from '../storage/health';
import type { FileStorage } from '../storage/types';
import { DEFAULT_VOICES, type VoiceSettings } from '../tts/select';
import { estimateCosts, estimateSeconds, speakingRate } from './estimate';
import { isFrontMatterTitle } from '../ingest/front-matter';
import { jobView, stepView, type JobView } from './job-view';
import {
  assemble,
  chapterStats,
  ChoiceError,
  chooseChapters,
  jobPlan,
  jobTypeOf,
  planSourceOffThread,
  stepsOf,
  type SourcePlan,
} from './plan';
import type { JobQueue } from './queue';
import type { Quotas } from './quotas';
import type { Scheduler } from './scheduler';
import type { JobRepository, ListFilter } from './repository';
import { readText } from './steps';
import { coverKey, isUploadKey, jobFolder, sourceKey, timingKey, uploadCoverKey, uploadInfoKey } from './storage-keys';
import { reservationOf, voiceFigures } from './space';
import { isActive, type JobConfig, type JobRecord, type JobType, type Provider } from './types';
import { storeUpload } from './upload';

export const MIN_TEXT_CHARS = 100;

export interface CreateJobInput {
  title: string;
  description?: string | undefined;
  content?: string | undefined;
  file_key?: string | undefined;
  url?: string | undefined;
  job_type?: JobType | undefined;
  voice_config?:
    | { provider: Provider; voice_id?: string | undefined; voice_settings?: Record<string, string> | undefined }
    | undefined;
  /** Indices (from the preview) of the chapters to convert; all when absent. */
  chapters?: number[] | undefined;
  /** New titles for chapters, by index. */
  chapter_titles?: { index: number; title: string }[] | undefined;
}

export interface JobServiceDeps {
  repo: JobRepository;
  storage: FileStorage;
  queue: Pick<JobQueue, 'send'>;
  /** The voices the server can use (keys decide the speaking rate and the cost table). */
  voices?: VoiceSettings;
  /** How previews of web pages are fetched. */
  fetch?: { allowLoopback: boolean; timeoutMs: number };
  /** Per-user limits (storage, unfinished jobs, uploads per hour). */
  quotas: Quotas;
  /** Hands waiting jobs to the workers, users in turn; without it each new job is sent at once (tests). */
  scheduler?: Scheduler;
  /** Refuses new work (507) while the file store is full. */
  storageHealth?: StorageHealth;
  /** Tells this process's runner to stop work at once (other processes poll the status). */
  onCancelled?: (jobIds: string[]) => void;
  /**
   * The voice a new job will use: the requested one when the provider offers it now, its default
   * when none is named; throws a DomainError (422 for a voice it does not offer) otherwise.
   */
  chooseVoice?: (provider: Provider, voiceId: string | undefined) => Promise<string>;
}

const notFound = () => new DomainError('not_found', 'Job not found');

/** The jobs domain behind the routes: creation, listing, cancel and retry. Knows nothing of HTTP. */
export function createJobService(deps: JobServiceDeps) {
  const { repo, storage, queue, quotas } = deps;

  async function views(jobs: JobRecord[]): Promise<JobView[]> {
    const ids = jobs.map((j) => j.id);
    const [steps, children, parents] = await Promise.all([
      repo.steps.ofJobs(ids),
      repo.jobs.children(ids),
      repo.jobs.byIds([...new Set(jobs.map((j) => j.parentJobId).filter((id): id is string => id !== null))]),
    ]);
    return jobs.map((job) =>
      jobView(
        job,
        steps.filter((s) => s.jobId === job.id),
        children.filter((c) => c.parentJobId === job.id),
        parents.find((p) => p.id === job.parentJobId) ?? null,
      ),
    );
  }

  async function owned(userId: string, jobId: string): Promise<JobRecord> {
    const job = await repo.jobs.getForUser(jobId, userId);
    if (!job) throw notFound();
    return job;
  }

  /** Hands the new or retried job to the workers when its turn has come (the scheduler decides). */
  async function dispatch(jobId: string): Promise<void> {
    if (deps.scheduler !== undefined) await deps.scheduler.dispatch();
    else await queue.send(jobId);
  }

  async function view(job: JobRecord): Promise<JobView & { queue_position?: number }> {
    const [v] = await views([job]);
    if (job.status !== 'PENDING' || job.parentJobId !== null) return v!;
    const ahead = (await repo.jobs.queuePositions([job.id])).get(job.id);
    return ahead === undefined ? v! : { ...v!, queue_position: ahead };
  }

  /** The text (and, for a structured upload, what its format said) of a content or file_key request. */
  async function loadSource(
    userId: string,
    input: CreateJobInput,
  ): Promise<{ kind: 'content' | 'file'; text: string; info: StoredDocumentInfo | null }> {
    const sources = [input.content, input.file_key, input.url].filter((v) => v !== undefined);
    if (sources.length !== 1) {
      throw new DomainError('invalid', 'Exactly one of content, file_key, or url must be provided');
    }
    if (input.content !== undefined) {
      const text = normaliseText(input.content);
      if (text.trim().length < MIN_TEXT_CHARS) {
        throw new DomainError(
          'invalid',
          `Content must be at least ${MIN_TEXT_CHARS} characters (not counting surrounding blank space)`,
        );
      }
      return { kind: 'content', text, info: null };
    }
    const fileKey = input.file_key!;
    if ((await repo.uploads.owner(fileKey)) !== userId) throw new DomainError('not_found', 'File not found');
    const text = await readText(storage, fileKey).catch(() => {
      throw new DomainError('not_found', 'File not found');
    });
    if (text.trim().length < MIN_TEXT_CHARS) {
      throw new DomainError('invalid', `The file must contain at least ${MIN_TEXT_CHARS} characters of text`);
    }
    const info =
      (await storage.stat(uploadInfoKey(fileKey))) === null
        ? null
        : (JSON.parse(await readText(storage, uploadInfoKey(fileKey))) as StoredDocumentInfo);
    return { kind: 'file', text, info };
  }

  function chosenChapters(plan: SourcePlan, choice: Pick<CreateJobInput, 'chapters' | 'chapter_titles'>) {
    try {
      return chooseChapters(plan, choice);
    } catch (error) {
      if (error instanceof ChoiceError) throw new DomainError('invalid', error.message);
      throw error;
    }
  }

  /** An upload's text and what was read from its book (chapters, cover). */
  async function deleteUploadFiles(fileKey: string) {
    for (const key of [fileKey, uploadInfoKey(fileKey), uploadCoverKey(fileKey)]) await storage.delete(key);
  }

  async function copy(from: string, to: string) {
    await storage.write(to, storage.read(from) as AsyncIterable<Uint8Array>);
  }

  return {
    async create(userId: string, input: CreateJobInput): Promise<JobView> {
      await deps.storageHealth?.assertRoom();
      const id = randomUUID();
      const provider = input.voice_config?.provider ?? 'openai';
      const requested = input.voice_config?.voice_id?.trim() || undefined;
      const voiceConfig = {
        provider,
        voice_id: deps.chooseVoice
          ? await deps.chooseVoice(provider, requested)
          : (requested ?? (provider === 'openai_compatible' ? '' : DEFAULT_VOICES[provider])),
        ...(input.voice_config?.voice_settings !== undefined && { voice_settings: input.voice_config.voice_settings }),
      };
      const config: JobConfig = { voice_config: voiceConfig, provider };
      if (input.job_type !== undefined) config.job_type_requested = input.job_type;
      let inputFileKey: string | null = null;
      const title = input.title.trim() || 'Untitled';
      let jobType: JobType = input.job_type ?? 'text_to_audio';
      const choosing = input.chapters !== undefined || input.chapter_titles !== undefined;
      // The job's own text and cover, written only once the quota allows them, and the space
      // reserved for what the conversion will write (unknown for a web page until it is read).
      let sourceBytes: Buffer | null = null;
      let coverFrom: string | null = null;
      let reservedBytes = 0;

      if (input.url !== undefined && input.content === undefined && input.file_key === undefined) {
        if (choosing)
          throw new DomainError(
            'invalid',
            'Chapters can be chosen for pasted text and uploaded files; a web page is converted whole',
          );
        config.source = 'url';
        config.source_url = input.url;
        // The SPA may send the address as the title; the page's own title replaces it then.
        const bare = (u: string) =>
          u
            .trim()
            .replace(/^https?:\/\//i, '')
            .replace(/\/+$/, '')
            .toLowerCase();
        if (bare(title) === bare(input.url)) config.title_from_page = true;
      } else {
        const source = await loadSource(userId, input);
        config.source = source.kind;
        if (source.info?.author !== undefined) config.author = source.info.author;
        // The plan is decided now, once, as the preview showed it: a text, or a book and its chapters.
        const plan = await planSourceOffThread(source.text, title, source.info, input.job_type);
        let converted = source.text;
        if (source.info !== null || choosing) {
          // Only the chosen chapters are kept: the job's own text is theirs, one after the other.
          const assembled = assemble(source.text, chosenChapters(plan, input));
          converted = assembled.text;
          inputFileKey = sourceKey(id);
          sourceBytes = Buffer.from(assembled.text, 'utf8');
          config.plan = jobPlan({ kind: plan.kind, chapters: assembled.chapters });
          if (source.info?.cover !== undefined) {
            coverFrom = source.info.cover.key;
            config.cover_key = coverKey(id);
            config.cover_type = source.info.cover.content_type;
            config.cover_bytes = (await storage.stat(coverFrom))?.size ?? 0;
          }
        } else {
          config.plan = jobPlan(plan);
          if (source.kind === 'content') {
            inputFileKey = sourceKey(id);
            sourceBytes = Buffer.from(source.text, 'utf8');
          } else {
            inputFileKey = input.file_key!;
          }
        }
        jobType = jobTypeOf(config.plan);
        reservedBytes = reservationOf(
          config.plan.kind,
          { characters: converted.length, bytes: Buffer.byteLength(converted, 'utf8') },
          voiceFigures(deps.voices ?? {}, provider, voiceConfig.voice_id),
        );
      }

      // Quotas before anything is written, in the transaction that inserts the job: its text,
      // cover and the estimate of its audio (a web page's once it is read) are reserved against
      // the storage quota, and the unfinished-jobs limit is counted, under the user's lock.
      if (sourceBytes !== null) config.source_bytes = sourceBytes.byteLength;
      const steps = stepsOf(jobType);
      const needed = (sourceBytes?.byteLength ?? 0) + (config.cover_bytes ?? 0) + reservedBytes;
      await repo.transaction(async (tx) => {
        if (config.source === 'url') await quotas.reserveStorage(tx, userId, 0);
        else await quotas.reserveConversion(tx, userId, needed, jobType === 'book_processing' ? 'book' : 'text');
        await quotas.assertQueueRoom(tx, userId);
        await tx.insertJob({
          id,
          userId,
          jobType,
          title,
          description: input.description ?? null,
          config,
          inputFileKey,
          reservedBytes,
          steps,
        });
      });
      try {
        if (sourceBytes !== null && inputFileKey !== null) await storage.write(inputFileKey, sourceBytes);
        if (coverFrom !== null) await copy(coverFrom, coverKey(id));
      } catch (error) {
        // The reservation goes with the job: nothing of it is left counted or stored.
        await repo.deleteWithChapters(id, userId).catch(() => undefined);
        await storage.deletePrefix(jobFolder(id)).catch(() => undefined);
        throw error;
      }
      await dispatch(id);
      return view((await repo.jobs.get(id))!);
    },

    /** What `create` would make of the same request, without creating anything. */
    async preview(userId: string, input: CreateJobInput) {
      let text: string;
      let info: StoredDocumentInfo | null = null;
      let title = input.title.trim() || 'Untitled';
      if (input.url !== undefined && input.content === undefined && input.file_key === undefined) {
        if (deps.fetch === undefined) throw new DomainError('invalid', 'Web pages cannot be previewed on this server');
        const page = await fetchPage(input.url, {
          allowLoopback: deps.fetch.allowLoopback,
          timeoutMs: deps.fetch.timeoutMs,
        });
        const article = await documentReader().extractArticle(page.body, page.finalUrl, page.contentType);
        text = normaliseText(article.text);
        if (article.title.trim() !== '') title = article.title.trim().slice(0, 200);
      } else {
        const source = await loadSource(userId, input);
        text = source.text;
        info = source.info;
        if (info?.title !== undefined) title = info.title.slice(0, 200);
      }
      const plan = await planSourceOffThread(text, title, info, input.job_type);
      // Validates the choice the same way create does; the preview itself lists every chapter.
      chosenChapters(plan, { chapter_titles: input.chapter_titles });
      const titles = new Map((input.chapter_titles ?? []).map((o) => [o.index, o.title.replace(/\s+/g, ' ').trim()]));
      const provider = input.voice_config?.provider ?? 'openai';
      const rate = speakingRate(deps.voices ?? {}, provider, input.voice_config?.voice_id);
      const selected = new Set(input.chapters ?? plan.chapters.map((_c, i) => i));
      const chapters = plan.chapters.map((c, index) => {
        const stats = chapterStats(text, c);
        return {
          index,
          title: titles.get(index) || c.title,
          ...stats,
          estimated_seconds: estimateSeconds(stats.characters, rate),
          // A book's front matter is offered unticked (a single text has none).
          front_matter: plan.kind === 'book' && (c.frontMatter === true || isFrontMatterTitle(c.title)),
        };
      });
      const chosenChars = chapters.filter((c) => selected.has(c.index)).reduce((n, c) => n + c.characters, 0);
      return {
        job_type: plan.kind === 'book' ? ('book_processing' as const) : ('text_to_audio' as const),
        title,
        author: info?.author ?? null,
        has_cover: info?.cover !== undefined,
        chapters,
        total_characters: chosenChars,
        estimated_seconds: estimateSeconds(chosenChars, rate),
        characters_per_second: rate,
        estimated_cost: estimateCosts(deps.voices ?? {}, chosenChars),
      };
    },

    /** One page of job summaries (the list's shape; `get` has the whole job). */
    async list(filter: ListFilter) {
      const { jobs: summaries, total, waiting } = await repo.jobs.listSummaries(filter);
      // Waiting jobs say how many start before them ("queued, 3 ahead"); a page without any costs no query.
      const positions = await repo.jobs.queuePositions(waiting);
      const jobs = summaries.map((j) => (positions.has(j.id) ? { ...j, queue_position: positions.get(j.id)! } : j));
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
      return (await repo.steps.ofJobs([jobId])).map(stepView);
    },

    /** Cancels the job and its unfinished chapters; their work stops within a second. */
    async cancel(userId: string, jobId: string): Promise<JobView> {
      const job = await owned(userId, jobId);
      if (!isActive(job.status)) throw new DomainError('conflict', `Cannot cancel a job that is ${job.status}`);
      const cancelled = await repo.cancelWithChapters(jobId);
      deps.onCancelled?.(cancelled);
      // A chapter cancelled on its own fails its book (which can then be retried).
      if (job.parentJobId !== null) await queue.send(job.parentJobId);
      else await deps.scheduler?.dispatch(); // its place among the user's running jobs is free
      return view((await repo.jobs.get(jobId))!);
    },

    /**
     * DELETE /jobs/{id}: cancels an unfinished job (its view); with `remove`, deletes a finished one
     * (null). Deleting needs that explicit intent, so a cancel that arrives just after the job
     * finished answers 409 instead of removing the reader's book.
     */
    async cancelOrRemove(userId: string, jobId: string, options: { remove: boolean }): Promise<JobView | null> {
      if (!options.remove) return this.cancel(userId, jobId);
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
      const parent = job.parentJobId === null ? null : await repo.jobs.get(job.parentJobId);
      const target = parent !== null && parent.status === 'FAILED' ? parent : job;
      await deps.storageHealth?.assertRoom();
      await repo.transaction(async (tx) => {
        if (target.parentJobId === null) await quotas.assertQueueRoom(tx, userId);
        // The space its unfinished parts reserved counts again, within the quota.
        const what = target.jobType === 'book_processing' ? 'book' : 'text';
        await quotas.keepWithin(tx, userId, what, () => tx.resetForRetry(target.id));
      });
      // A book or a text waits for its turn again; a chapter of a running book goes straight back to its book's work.
      if (target.parentJobId === null) await dispatch(target.id);
      else await queue.send(target.id);
      return view((await repo.jobs.get(jobId))!);
    },

    /**
     * A finished (COMPLETED, FAILED or CANCELLED) top-level job is deleted for good: the rows of the
     * job, its chapters and steps, the user's listening progress (all by foreign-key cascade), every
     * stored file under each job's folder (text, audio, timing maps, covers) and the upload it was
     * made from when no other job uses it. Chapters of a failed book that still run are stopped.
     */
    async remove(userId: string, jobId: string): Promise<void> {
      const job = await owned(userId, jobId);
      if (isActive(job.status))
        throw new DomainError('conflict', `Cannot delete a job that is ${job.status}; cancel it first`);
      if (job.parentJobId !== null) {
        throw new DomainError('conflict', 'This job is a chapter of a book: delete the book to remove it');
      }
      const rows = await repo.deleteWithChapters(jobId, userId);
      const ids = rows.map((r) => r.id);
      deps.onCancelled?.(ids);
      for (const row of rows) {
        await storage.deletePrefix(jobFolder(row.id));
        // Audio stored outside the job's folder (older layouts) goes too, with its timing map.
        if (row.outputFileKey !== null && !isUploadKey(row.outputFileKey)) {
          await storage.delete(row.outputFileKey);
          await storage.delete(timingKey(row.outputFileKey));
        }
      }
      const upload = job.inputFileKey;
      if (upload !== null && isUploadKey(upload) && (await repo.jobs.madeFrom(upload)) === null) {
        await repo.uploads.remove(upload);
        await deleteUploadFiles(upload);
      }
    },

    /** Deletes one of the user's uploads; one that a job was made from goes with that job. */
    async removeUpload(userId: string, fileKey: string): Promise<void> {
      if ((await repo.uploads.owner(fileKey)) !== userId) throw new DomainError('not_found', 'File not found');
      const user = await repo.jobs.madeFrom(fileKey);
      if (user !== null) {
        throw new DomainError(
          'conflict',
          `This file is the text of the job "${user.title}"; delete that job to remove it`,
        );
      }
      await repo.uploads.remove(fileKey);
      await deleteUploadFiles(fileKey);
    },

    /** Validates, reads and stores an uploaded book for the user; throws IngestError for files it refuses. */
    upload: (userId: string, filename: string, bytes: Uint8Array) => storeUpload(deps, userId, filename, bytes),

    /** What the user's data holds (reservations of unfinished jobs included) and their storage quota. */
    storageUse: (userId: string) => quotas.storageUse(userId),
  };
}

export type JobService = ReturnType<typeof createJobService>;
