import { http, HttpResponse } from 'msw';
import type { Job, JobCreateRequest } from '../api/gen/model';
import { audioMetadataFixture, SAMPLE_AUDIO_BYTES, SAMPLE_AUDIO_SECONDS, SAMPLE_AUDIO_URL, streamInfoFixture } from './audio';
import { errorBodyFixture } from './fixtures';
import { jobAtStatus, jobsBackend, jobUuid, stepsFixture } from './jobs';
import { api, reply } from './reply';

/**
 * A small stateful backend for flow stories (upload → job → listening): POST /jobs stores a new
 * PENDING job; each GET /jobs/{id} moves it on one stage (1st: PROCESSING with the steps under
 * way, 2nd and later: COMPLETED with a 60 s result); the lists, steps, cancel and retry come
 * from jobsBackend over the same store; stream and metadata answer for any stored job with the
 * real sample MP3. Call reset() in the story's beforeEach.
 */
export interface FlowBackend {
  /** Keyed by endpoint, for parameters.msw.handlers. */
  handlers: ReturnType<typeof jobsBackend>['handlers'] & {
    createJob: ReturnType<typeof http.post>;
    audioStream: ReturnType<typeof http.get>;
    audioMetadata: ReturnType<typeof http.get>;
  };
  /** The stored jobs as they are now, newest first. */
  jobs: () => Job[];
  /** How many times GET /jobs/{id} was asked for each id. */
  polls: Map<string, number>;
  reset: () => void;
}

const notFound = () => HttpResponse.json(errorBodyFixture('Job not found'), { status: 404 });

export function flowBackend(initial: readonly Job[] = []): FlowBackend {
  const backend = jobsBackend(initial);
  const polls = new Map<string, number>();
  let created = 0;
  const find = (id: unknown) => backend.jobs().find((job) => job.id === id);

  /** The server's work between two polls. */
  const advance = (job: Job): Job => {
    const count = (polls.get(job.id) ?? 0) + 1;
    polls.set(job.id, count);
    if (job.status !== 'PENDING' && job.status !== 'PROCESSING') return job;
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
      result_data: {
        duration: SAMPLE_AUDIO_SECONDS,
        duration_seconds: SAMPLE_AUDIO_SECONDS,
        file_size_bytes: SAMPLE_AUDIO_BYTES,
        format: 'mp3',
        tts_engine: 'espeak-ng',
      },
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
      createJob: http.post(api('/jobs'), async ({ request }) => {
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
        return reply({}, () => job, 201);
      }),
      job: http.get(api('/jobs/:jobId'), ({ params }) => {
        const job = find(params.jobId);
        return job ? reply({}, () => advance(job)) : notFound();
      }),
      audioStream: http.get(api('/audio/:jobId/stream'), ({ params }) => {
        const job = find(params.jobId);
        if (!job || job.status !== 'COMPLETED') return notFound();
        return reply({}, () => streamInfoFixture({ streaming_url: SAMPLE_AUDIO_URL, file_key: `audio/${job.id}.mp3` }));
      }),
      audioMetadata: http.get(api('/audio/:jobId/metadata'), ({ params }) => {
        const job = find(params.jobId);
        if (!job || job.status !== 'COMPLETED') return notFound();
        return reply({}, () =>
          audioMetadataFixture({
            job_id: job.id,
            title: job.title,
            created_at: job.created_at,
            completed_at: job.completed_at,
            chapters: [],
          }),
        );
      }),
    },
  };
}
