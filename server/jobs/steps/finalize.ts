/** finalize: the job's result recorded and the job COMPLETED; what it wrote replaces what it reserved. */
import type { JobRepository } from '../repository';
import { audioKey, timingKey } from '../storage-keys';
import type { JobRecord, ResultData, StepRecord } from '../types';
import { PipelineError, stepMeta, type Step } from './context';

/** A book's result: its joined audio and its chapters'. */
async function bookResult(repo: JobRepository, job: JobRecord, steps: StepRecord[]): Promise<ResultData> {
  const combined = stepMeta(steps, 'combine_audio');
  const children = await repo.jobs.children([job.id]);
  const duration = children.reduce((n, c) => n + (c.duration ?? 0), 0);
  return {
    duration,
    duration_seconds: duration,
    file_size_bytes: Number(combined.file_size_bytes ?? 0),
    format: 'mp3',
    ...(children[0]?.resultData.tts_engine !== undefined && { tts_engine: children[0].resultData.tts_engine }),
    output_file_key: audioKey(job.id),
    timing_file_key: timingKey(audioKey(job.id)),
    chapters: children.map((c, i) => ({
      title: String(c.config.chapter_title ?? c.title),
      order: c.chapterOrder ?? i + 1,
      duration: c.duration ?? 0,
      file_key: c.outputFileKey ?? '',
      job_id: c.id,
    })),
    child_job_ids: children.map((c) => c.id),
  };
}

/** A text's (or a chapter's) result: what its synthesis wrote. */
function textResult(job: JobRecord, steps: StepRecord[]): ResultData {
  const synth = stepMeta(steps, 'synthesize');
  const duration = Number(synth.duration_seconds ?? 0);
  return {
    duration,
    duration_seconds: duration,
    file_size_bytes: Number(synth.file_size_bytes ?? 0),
    format: 'mp3',
    tts_engine: String(synth.engine ?? ''),
    output_file_key: audioKey(job.id),
    timing_file_key: timingKey(audioKey(job.id)),
  };
}

export const finalize: Step = async ({ repo }, { job }) => {
  const steps = await repo.steps.ofJobs([job.id]);
  // What the conversion wrote, its MP3 and timing map, replaces the space reserved for it.
  const written = stepMeta(steps, job.jobType === 'book_processing' ? 'combine_audio' : 'synthesize');
  const storedBytes = Number(written.file_size_bytes ?? 0) + Number(written.timing_file_bytes ?? 0);
  const result = job.jobType === 'book_processing' ? await bookResult(repo, job, steps) : textResult(job, steps);
  const metadata = {
    duration_seconds: result.duration,
    file_size_bytes: result.file_size_bytes,
    output_file_key: audioKey(job.id),
  };
  // The step is recorded before the job turns COMPLETED, so a finished job never shows a running step.
  await repo.steps.update(job.id, 'finalize', { status: 'completed', progress: 100, complete: true, metadata });
  const done = await repo.jobs.patch(
    job.id,
    {
      status: 'COMPLETED',
      progress: 100,
      errorMessage: null,
      resultData: result,
      outputFileKey: audioKey(job.id),
      duration: result.duration ?? null,
      completedAt: new Date(),
      storedBytes,
      reservedBytes: 0,
    },
    { onlyIfActive: true },
  );
  if (!done) throw new PipelineError('The job was cancelled', 'conflict');
  return { metadata };
};
