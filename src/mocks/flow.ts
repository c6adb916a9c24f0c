import { getGetAudioMetadataMockHandler } from '../api/gen/endpoints/audio/get-audio-metadata.msw';
import { getGetAudioStreamMockHandler } from '../api/gen/endpoints/audio/get-audio-stream.msw';
import { getCreateJobMockHandler } from '../api/gen/endpoints/jobs/create-job.msw';
import { getGetJobMockHandler } from '../api/gen/endpoints/jobs/get-job.msw';
import type { Job, JobCreateRequest } from '../api/gen/model';
import { isActiveStatus } from '../entities/job';
import {
  audioMetadataFixture,
  SAMPLE_AUDIO_SECONDS,
  SAMPLE_AUDIO_URL,
  sampleAudioResult,
  streamInfoFixture,
} from './audio';
import { failWith } from './answer';
import { errorBodyFixture } from './fixtures';
import { jobAtStatus, jobNotFound, jobsBackend, jobUuid, stepsFixture } from './jobs';

/**
 * A small stateful backend for flow stories (upload → job → listening): POST /jobs stores a new
 * PENDING job; each GET /jobs/{id} moves it on one stage (1st: PROCESSING with the steps under
 * way, 2nd and later: COMPLETED with a 60 s result); the lists, steps, cancel and retry come
 * from jobsBackend over the same store; stream and metadata answer for any stored job with the
 * real sample MP3. Call reset() in the story's beforeEach. The generated handlers cannot keep state
 * between requests, so this one is written out, but with their paths, statuses and types.
 */
export interface FlowBackend {
  /** Keyed by endpoint, for parameters.msw.handlers. */
  handlers: ReturnType<typeof jobsBackend>['handlers'] & {
    createJob: ReturnType<typeof getCreateJobMockHandler>;
    audioStream: ReturnType<typeof getGetAudioStreamMockHandler>;
    audioMetadata: ReturnType<typeof getGetAudioMetadataMockHandler>;
  };
  /** The stored jobs as they are now, newest first. */
  jobs: () => Job[];
  /** How many times GET /jobs/{id} was asked for each id. */
  polls: Map<string, number>;
  reset: () => void;
}

export function flowBackend(initial: readonly Job[] = []): FlowBackend {
  const backend = jobsBackend(initial);
  const polls = new Map<string, number>();
  let created = 0;
  const find = (id: unknown) => backend.jobs().find((job) => job.id === id);
  /**
   * A stored job that has its audio; as the server answers otherwise: 409 while it converts
   * (these jobs have no chapters, so nothing of them plays before the end), else 404.
   */
  const finished = (id: unknown): Job => {
    const job = find(id);
    if (job && isActiveStatus(job.status))
      failWith(409, errorBodyFixture(`The audiobook is not ready yet (status ${job.status})`));
    return job?.status === 'COMPLETED' ? job : jobNotFound();
  };

  /** The server's work between two polls. */
  const advance = (job: Job): Job => {
    const count = (polls.get(job.id) ?? 0) + 1;
    polls.set(job.id, count);
    if (!isActiveStatus(job.status)) return job;
    const now = new Date().toISOString();
    if (count === 1) {
      return backend.patch(job.id, {
        status: 'PROCESSING',
        progress: 60,
        started_at: now,
        updated_at: now,
        steps: stepsFixture('processing', { seed: 700 }),
      });
    }
    return backend.patch(job.id, {
      status: 'COMPLETED',
      progress: 100,
      updated_at: now,
      completed_at: now,
      duration: SAMPLE_AUDIO_SECONDS,
      result_data: sampleAudioResult(),
      output_file_key: `audio/${job.id}.mp3`,
      steps: stepsFixture('completed', { seed: 700 }),
      error_message: null,
    });
  };

  return {
    jobs: backend.jobs,
    polls,
    reset: () => {
      backend.reset();
      polls.clear();
      created = 0;
    },
    handlers: {
      ...backend.handlers,
      createJob: getCreateJobMockHandler(async ({ request }) => {
        const body = (await request.clone().json()) as JobCreateRequest;
        created += 1;
        const now = new Date().toISOString();
        const job = backend.add(
          jobAtStatus('PENDING', {
            id: jobUuid(700 + created),
            title: body.title,
            config: {
              voice_config: body.voice_config,
              provider: body.voice_config?.provider,
              source: body.url ? 'url' : body.file_key ? 'file' : 'content',
            },
            created_at: now,
            updated_at: now,
          }),
        );
        return job;
      }),
      job: getGetJobMockHandler(({ params }) => advance(find(params.jobId) ?? jobNotFound())),
      audioStream: getGetAudioStreamMockHandler(({ params }) => {
        const job = finished(params.jobId);
        return streamInfoFixture({ streaming_url: SAMPLE_AUDIO_URL, file_key: `audio/${job.id}.mp3` });
      }),
      audioMetadata: getGetAudioMetadataMockHandler(({ params }) => {
        const job = finished(params.jobId);
        return audioMetadataFixture({
          job_id: job.id,
          title: job.title,
          created_at: job.created_at,
          completed_at: job.completed_at,
          chapters: [],
        });
      }),
    },
  };
}
