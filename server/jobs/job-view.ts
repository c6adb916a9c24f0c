/**
 * A job as the API answers it: the contract's Job (with its steps, its chapter jobs and its book)
 * and Step, built from the repository's records. Internal config keys and storage keys of
 * result_data are never answered. (Listening and the assistant read jobs through the read model of
 * a book, ./book.ts; this is the jobs routes' wire shape.)
 */
import type { JobConfig, JobRecord, StepRecord } from './types';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());
const seconds = (from: Date | null, to: Date | null) =>
  from === null ? null : Math.max(0, ((to ?? new Date()).getTime() - from.getTime()) / 1000);

export function stepView(s: StepRecord) {
  return {
    id: s.id,
    step_name: s.stepName,
    step_order: s.stepOrder,
    // Stored lowercase; the wire carries the uppercase values clients validate against.
    status: s.status.toUpperCase() as Uppercase<StepRecord['status']>,
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
  const { voice_config, provider, source, source_url, tutoring_analysis, author } = config;
  return {
    ...(author !== undefined && { author }),
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

/** Every field of a job except steps, children and parent: how books and chapters name each other. */
export function jobCoreView(job: JobRecord) {
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
  };
}

export function jobView(job: JobRecord, steps: StepRecord[], children: JobRecord[], parent: JobRecord | null) {
  return {
    ...jobCoreView(job),
    steps: steps.map(stepView),
    children: children.map(jobCoreView),
    parent: parent === null ? null : jobCoreView(parent),
  };
}

export type JobView = ReturnType<typeof jobView>;
