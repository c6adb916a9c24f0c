import { http } from 'msw';
import type { FileUploadResponse, Job, JobCreateRequest, PlaybackProgress } from '../api/gen/model';
import { bookJobId, chapterJobIds, progressFixture, SAMPLE_AUDIO_BYTES, SAMPLE_AUDIO_SECONDS } from './audio';
import { jobFixture, jobListFixture } from './fixtures';
import type { ReplyOptions } from './handlers';
import { api, reply } from './reply';

/**
 * Library fixtures (completed books) and the job/file handlers the upload and library screens use.
 */
export function completedJobFixture(overrides: Partial<Job> = {}): Job {
  return jobFixture({
    id: bookJobId,
    title: 'The Tell-Tale Heart',
    status: 'COMPLETED',
    progress: 100,
    job_type: 'book_processing',
    config: {
      voice_config: { provider: 'openai', voice_id: 'alloy' },
      provider: 'openai',
      source: 'content',
    },
    result_data: {
      duration: SAMPLE_AUDIO_SECONDS,
      duration_seconds: SAMPLE_AUDIO_SECONDS,
      file_size_bytes: SAMPLE_AUDIO_BYTES,
      format: 'mp3',
      tts_engine: 'espeak-ng',
      chapters: ['The Visitor', 'The Night Watch', 'The Confession'].map((title, index) => ({
        title,
        order: index + 1,
        duration: 20,
        file_key: `audio/${chapterJobIds[index]}.mp3`,
        job_id: chapterJobIds[index],
      })),
      child_job_ids: [...chapterJobIds],
    },
    output_file_key: `audio/${bookJobId}.mp3`,
    created_at: '2025-02-01T10:00:00Z',
    updated_at: '2025-02-01T10:04:00Z',
    started_at: '2025-02-01T10:00:05Z',
    completed_at: '2025-02-01T10:04:00Z',
    duration: SAMPLE_AUDIO_SECONDS,
    ...overrides,
  });
}

export const tutoringAnalysisFixture = {
  themes: ['guilt', 'madness'],
  characters: [{ name: 'The narrator', role: 'protagonist' }],
  setting: { time: '1840s', place: 'An old house' },
  discussion_questions: ['Why does the narrator insist on his sanity?'],
  content_type: 'short story',
  analyzed_at: '2025-02-01T10:05:00Z',
};

/** Ids of the library shelf, so stories can address one book. */
export const libraryBookIds = {
  heart: bookJobId,
  raven: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  usher: '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f',
  amontillado: '4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f80',
} as const;

/** Four finished books: both providers, short and long, with and without chapters. */
export function libraryShelfFixture(): Job[] {
  const single = (id: string, title: string, seconds: number, provider: 'openai' | 'elevenlabs', created: string) =>
    completedJobFixture({
      id,
      title,
      job_type: 'text_to_audio',
      config: {
        voice_config: { provider, voice_id: provider === 'openai' ? 'alloy' : 'adam' },
        provider,
        source: 'content',
      },
      result_data: { duration: seconds, duration_seconds: seconds, file_size_bytes: seconds * 1000, format: 'mp3' },
      duration: seconds,
      created_at: created,
      completed_at: created,
    });
  return [
    completedJobFixture(),
    single(libraryBookIds.raven, 'The Raven', 125, 'elevenlabs', '2025-03-10T08:00:00Z'),
    single(libraryBookIds.usher, 'The Fall of the House of Usher', 3725, 'openai', '2025-01-20T12:00:00Z'),
    single(libraryBookIds.amontillado, 'The Cask of Amontillado', 1500, 'elevenlabs', '2025-02-20T12:00:00Z'),
  ];
}

/**
 * The reader's real progress on the shelf: the Tell-Tale Heart 25 of 60 s (in progress), the
 * Raven finished, Usher at 96 % but not marked finished (neither in progress nor completed).
 */
export function libraryProgressFixture(): PlaybackProgress[] {
  return [
    progressFixture({ position_seconds: 25 }),
    progressFixture({
      id: '8a8a8a8a-1111-4222-8333-444455556666',
      job_id: libraryBookIds.raven,
      position_seconds: 125,
      duration_seconds: 125,
      is_completed: true,
    }),
    progressFixture({
      id: '8a8a8a8a-2222-4222-8333-444455556666',
      job_id: libraryBookIds.usher,
      position_seconds: 3576,
      duration_seconds: 3725,
    }),
  ];
}

/** GET /jobs answering with these jobs, whatever the query (the library asks for completed ones). */
export function jobsListHandler(jobs: Job[], options: ReplyOptions = {}) {
  return http.get(api('/jobs'), () => reply(options, () => jobListFixture(jobs, { page_size: 100 })));
}

/** GET /jobs/{id}: the given job (its id follows the URL), or a 404 when `job` is null. */
export function jobHandler(job: Job | null = completedJobFixture(), options: ReplyOptions = {}) {
  return http.get(api('/jobs/:jobId'), ({ params }) =>
    job
      ? reply(options, () => ({ ...job, id: String(params.jobId) }))
      : reply({ status: 404, body: { detail: 'Job not found', message: 'Job not found' }, ...options }, () => null),
  );
}

/** POST /files; `onFile` sees each uploaded file (stories assert what was sent). */
export function uploadFileHandler(
  options: ReplyOptions & { fileKey?: string; onFile?: (file: File) => void | Promise<void> } = {},
) {
  return http.post(api('/files'), async ({ request }) => {
    const form = await request.clone().formData();
    const file = form.get('file');
    if (file instanceof File) await options.onFile?.(file);
    const upload: FileUploadResponse = {
      file_key: options.fileKey ?? 'uploads/3f1c2a4e/story.txt',
      filename: file instanceof File ? file.name : 'upload.txt',
      size_bytes: file instanceof File ? file.size : 0,
    };
    return reply(options, () => upload, 201);
  });
}

export const createdJobId = '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c';

/** POST /jobs: a new PENDING job with the requested title; `onBody` sees each request body. */
export function createJobHandler(
  options: ReplyOptions & { job?: Partial<Job>; onBody?: (body: JobCreateRequest) => void } = {},
) {
  return http.post(api('/jobs'), async ({ request }) => {
    const body = (await request.clone().json()) as JobCreateRequest;
    options.onBody?.(body);
    return reply(
      options,
      () =>
        jobFixture({
          id: createdJobId,
          title: body.title,
          status: 'PENDING',
          progress: 0,
          started_at: null,
          config: { voice_config: body.voice_config, provider: body.voice_config?.provider },
          ...options.job,
        }),
      201,
    );
  });
}
