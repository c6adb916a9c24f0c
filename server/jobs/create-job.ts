/**
 * Creating a job (POST /jobs): exactly one source; its plan decided once, as the preview showed it;
 * the quotas counted, and the space of its text, cover and audio reserved, in the transaction that
 * inserts it; only then is anything written and the job handed to the workers.
 */
import { randomUUID } from 'node:crypto';
import { DomainError } from '../errors';
import { DEFAULT_VOICES } from '../tts/select';
import { dispatchJob, viewJobById, type JobServiceDeps } from './job-access';
import { chosenChapters, isPageRequest, loadSource, type CreateJobInput } from './job-source';
import type { JobView } from './job-view';
import { assemble, jobPlan, jobTypeOf, planSourceOffThread, stepsOf } from './plan';
import { reservationOf, voiceFigures } from './space';
import { coverKey, jobFolder, sourceKey } from './storage-keys';
import type { JobConfig, JobType, Provider } from './types';

/**
 * What a new job keeps besides its row: its own text and cover, written only once the quota allows
 * them, and the space reserved for what the conversion will write (unknown for a web page until it is read).
 */
interface NewJobSource {
  jobType: JobType;
  inputFileKey: string | null;
  sourceBytes: Buffer | null;
  coverFrom: string | null;
  reservedBytes: number;
}

/** The job's voice: the one asked for when its provider offers it, else the provider's default. */
async function voiceConfigOf(deps: JobServiceDeps, input: CreateJobInput) {
  const provider = input.voice_config?.provider ?? 'openai';
  const requested = input.voice_config?.voice_id?.trim() || undefined;
  return {
    provider,
    voice_id: deps.chooseVoice
      ? await deps.chooseVoice(provider, requested)
      : (requested ?? (provider === 'openai_compatible' ? '' : DEFAULT_VOICES[provider])),
    ...(input.voice_config?.voice_settings !== undefined && { voice_settings: input.voice_config.voice_settings }),
    // Kept only when asked for: a job without a cast keeps the voice_config it always had.
    ...(input.voice_config?.cast === true && { cast: true as const }),
    ...(input.voice_config?.cast === true &&
      input.voice_config.cast_voices !== undefined && { cast_voices: input.voice_config.cast_voices }),
  };
}

/** A web page is read when the job runs: nothing is planned, written or reserved now. */
function pageSource(config: JobConfig, input: CreateJobInput & { url: string }, title: string): NewJobSource {
  if (input.chapters !== undefined || input.chapter_titles !== undefined)
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
  return {
    jobType: input.job_type ?? 'text_to_audio',
    inputFileKey: null,
    sourceBytes: null,
    coverFrom: null,
    reservedBytes: 0,
  };
}

/** Pasted text or an upload: its plan, decided now, and what the job keeps of it. */
async function textSource(
  deps: JobServiceDeps,
  userId: string,
  id: string,
  input: CreateJobInput,
  title: string,
  config: JobConfig,
  voice: { provider: Provider; voice_id: string },
): Promise<NewJobSource> {
  const { storage } = deps;
  const source = await loadSource(deps, userId, input);
  config.source = source.kind;
  if (source.info?.author !== undefined) config.author = source.info.author;
  // The plan is decided now, once, as the preview showed it: a text, or a book and its chapters.
  const plan = await planSourceOffThread(source.text, title, source.info, input.job_type);
  const choosing = input.chapters !== undefined || input.chapter_titles !== undefined;
  let converted = source.text;
  let inputFileKey: string;
  let sourceBytes: Buffer | null = null;
  let coverFrom: string | null = null;
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
  const reservedBytes = reservationOf(
    config.plan.kind,
    { characters: converted.length, bytes: Buffer.byteLength(converted, 'utf8') },
    voiceFigures(deps.voices ?? {}, voice.provider, voice.voice_id),
  );
  return { jobType: jobTypeOf(config.plan), inputFileKey, sourceBytes, coverFrom, reservedBytes };
}

/** Creates the user's job from exactly one source and hands it to the workers. */
export async function createJob(deps: JobServiceDeps, userId: string, input: CreateJobInput): Promise<JobView> {
  const { repo, storage, quotas } = deps;
  await deps.storageHealth?.assertRoom();
  const id = randomUUID();
  const voiceConfig = await voiceConfigOf(deps, input);
  const config: JobConfig = { voice_config: voiceConfig, provider: voiceConfig.provider };
  if (input.job_type !== undefined) config.job_type_requested = input.job_type;
  const title = input.title.trim() || 'Untitled';
  const { jobType, inputFileKey, sourceBytes, coverFrom, reservedBytes } = isPageRequest(input)
    ? pageSource(config, input, title)
    : await textSource(deps, userId, id, input, title, config, voiceConfig);

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
    if (coverFrom !== null) {
      await storage.write(coverKey(id), storage.read(coverFrom) as AsyncIterable<Uint8Array>);
    }
  } catch (error) {
    // The reservation goes with the job: nothing of it is left counted or stored.
    await repo.deleteWithChapters(id, userId).catch(() => undefined);
    await storage.deletePrefix(jobFolder(id)).catch(() => undefined);
    throw error;
  }
  await dispatchJob(deps, id);
  return viewJobById(repo, id);
}
