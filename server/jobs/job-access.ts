/**
 * What every use case of the jobs service shares: its dependencies, the reader's own job (404
 * otherwise), handing a job to the workers, and the contract's Job view of a job record.
 */
import { DomainError } from '../errors';
import type { StorageHealth } from '../storage/health';
import type { FileStorage } from '../storage/types';
import type { VoiceSettings } from '../tts/select';
import type { VoiceCatalog } from '../voices/catalog';
import { jobView, type JobView } from './job-view';
import type { JobQueue } from './queue';
import type { Quotas } from './quotas';
import type { JobRepository } from './repository';
import type { Scheduler } from './scheduler';
import type { JobRecord, Provider } from './types';

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
  /** The voices a full-cast preview chooses its characters' from; without it a preview has no cast. */
  catalog?: Pick<VoiceCatalog, 'list'>;
}

/** The user's own job; someone else's answers as a job that does not exist. */
export async function ownedJob(repo: JobRepository, userId: string, jobId: string): Promise<JobRecord> {
  const job = await repo.jobs.getForUser(jobId, userId);
  if (!job) throw new DomainError('not_found', 'Job not found');
  return job;
}

/** Hands the new or retried job to the workers when its turn has come (the scheduler decides). */
export async function dispatchJob(deps: Pick<JobServiceDeps, 'queue' | 'scheduler'>, jobId: string): Promise<void> {
  if (deps.scheduler !== undefined) await deps.scheduler.dispatch();
  else await deps.queue.send(jobId);
}

async function jobViews(repo: JobRepository, jobs: JobRecord[]): Promise<JobView[]> {
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

/** The job as the API answers it; a waiting book or text says how many start before it. */
export async function viewJob(repo: JobRepository, job: JobRecord): Promise<JobView & { queue_position?: number }> {
  const [v] = await jobViews(repo, [job]);
  if (job.status !== 'PENDING' || job.parentJobId !== null) return v!;
  const ahead = (await repo.jobs.queuePositions([job.id])).get(job.id);
  return ahead === undefined ? v! : { ...v!, queue_position: ahead };
}

/** The job, read again after a change, as the API answers it. */
export async function viewJobById(repo: JobRepository, jobId: string): Promise<JobView> {
  return viewJob(repo, (await repo.jobs.get(jobId))!);
}
