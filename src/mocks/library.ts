import { getUploadFileMockHandler } from '../api/gen/endpoints/files/upload-file.msw';
import { getCreateJobMockHandler } from '../api/gen/endpoints/jobs/create-job.msw';
import { getGetJobMockHandler } from '../api/gen/endpoints/jobs/get-job.msw';
import { getListJobsMockHandler } from '../api/gen/endpoints/jobs/list-jobs.msw';
import { getPreviewJobMockHandler } from '../api/gen/endpoints/jobs/preview-job.msw';
import type {
  FileUploadResponse,
  Job,
  JobCreateRequest,
  JobPreview,
  JobSummary,
  PlaybackProgress,
} from '../api/gen/model';
import { answer, respond, type ReplyOptions } from './answer';
import { bookJobId, chapterJobIds, progressFixture, SAMPLE_AUDIO_SECONDS, sampleAudioResult } from './audio';
import { jobFixture, jobListFixture, toJobSummary } from './fixtures';
import { jobNotFound } from './jobs';

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
      author: 'Edgar Allan Poe',
    },
    result_data: {
      ...sampleAudioResult(),
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

/** Ids of the library shelf, so stories can address one book. */
export const libraryBookIds = {
  heart: bookJobId,
  raven: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  usher: '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f',
  amontillado: '4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f80',
} as const;

/**
 * Four finished books: both providers asked for, short and long, with and without chapters. Three
 * were read by the offline voice (the Tell-Tale Heart, Usher, Amontillado), the Raven by ElevenLabs.
 */
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
        author: 'Edgar Allan Poe',
      },
      result_data: {
        duration: seconds,
        duration_seconds: seconds,
        file_size_bytes: seconds * 1000,
        format: 'mp3',
        tts_engine: id === libraryBookIds.raven ? 'elevenlabs' : 'espeak-ng',
      },
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

export const convertingBookId = '5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8091';

/**
 * A book still converting as the library lists it (status listenable): 3 of its 12 chapters are
 * ready and can be played, the rest are still being read aloud.
 */
export function convertingBookSummary(overrides: Partial<JobSummary> = {}): JobSummary {
  const job = completedJobFixture({
    id: convertingBookId,
    title: 'The Long Voyage',
    status: 'PROCESSING',
    progress: 25,
    result_data: { duration: 180, duration_seconds: 180 },
    output_file_key: null,
    created_at: '2025-03-12T09:00:00Z',
    updated_at: '2025-03-12T09:03:00Z',
    completed_at: null,
    duration: null,
  });
  return { ...toJobSummary(job), chapter_count: 12, chapters_ready: 3, listenable: true, ...overrides };
}

/**
 * The same book a few seconds after it started: no chapter converted yet, but its first chapter's
 * opening (its first minutes, converted first) plays, so the server lists it as listenable.
 */
export function openingBookSummary(overrides: Partial<JobSummary> = {}): JobSummary {
  return convertingBookSummary({
    chapters_ready: 0,
    progress: 2,
    result_data: {},
    updated_at: '2025-03-12T09:00:20Z',
    listenable: true,
    ...overrides,
  });
}

/**
 * The reader's real progress on the shelf: the Tell-Tale Heart 25 of 60 s (in progress), the
 * Raven marked finished, Usher at 96 % but not marked (finished too: its place is at the end).
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

/** GET /jobs answering with these jobs, whatever the query (the library asks for the listenable ones). */
export function jobsListHandler(jobs: (Job | JobSummary)[], options: ReplyOptions = {}) {
  return getListJobsMockHandler(answer(options, () => jobListFixture(jobs, { page_size: 100 })));
}

/**
 * GET /jobs for a library whose converting book gains a chapter after the first answer ("3 of 12
 * chapters ready", then "4 of 12"), as a poll sees it.
 */
export function growingBookListHandler() {
  let answers = 0;
  return getListJobsMockHandler(() => {
    answers += 1;
    const book =
      answers === 1
        ? convertingBookSummary()
        : convertingBookSummary({ chapters_ready: 4, progress: 33, updated_at: '2025-03-12T09:04:00Z' });
    return jobListFixture([book, ...libraryShelfFixture()], { page_size: 100 });
  });
}

/** GET /jobs/{id}: the given job (its id follows the URL), or a 404 when `job` is null. */
export function jobHandler(job: Job | null = completedJobFixture(), options: ReplyOptions = {}) {
  return getGetJobMockHandler(
    job ? answer(options, ({ params }) => ({ ...job, id: String(params.jobId) })) : answer(options, jobNotFound),
  );
}

/** POST /files; `onFile` sees each uploaded file (stories assert what was sent). */
export function uploadFileHandler(
  options: ReplyOptions & { fileKey?: string; onFile?: (file: File) => void | Promise<void> } = {},
) {
  return getUploadFileMockHandler(async (info) => {
    const file = (await info.request.clone().formData()).get('file');
    if (file instanceof File) await options.onFile?.(file);
    const upload: FileUploadResponse = {
      file_key: options.fileKey ?? 'uploads/3f1c2a4e/story.txt',
      filename: file instanceof File ? file.name : 'upload.txt',
      size_bytes: file instanceof File ? file.size : 0,
    };
    return respond(options, () => upload);
  });
}

export const createdJobId = '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c';

/** POST /jobs: a new PENDING job with the requested title; `onBody` sees each request body. */
export function createJobHandler(
  options: ReplyOptions & { job?: Partial<Job>; onBody?: (body: JobCreateRequest) => void } = {},
) {
  return getCreateJobMockHandler(async (info) => {
    // The request is seen even when the answer is an error (a story asserts what was sent).
    const body = (await info.request.clone().json()) as JobCreateRequest;
    options.onBody?.(body);
    return respond(options, () =>
      jobFixture({
        id: createdJobId,
        title: body.title,
        status: 'PENDING',
        progress: 0,
        started_at: null,
        config: { voice_config: body.voice_config, provider: body.voice_config?.provider },
        ...options.job,
      }),
    );
  });
}

/** A previewed book: six chapters of an EPUB, its front matter (two pages) first, with the offline voice's estimate. */
export function jobPreviewFixture(overrides: Partial<JobPreview> = {}): JobPreview {
  const chapters = [
    { title: 'Copyright', characters: 420, front_matter: true },
    { title: 'Dedication', characters: 220, front_matter: true },
    { title: 'The Keeper', characters: 18_400 },
    { title: 'The Storm', characters: 21_300 },
    { title: 'The Morning', characters: 16_900 },
    { title: 'Afterword', characters: 2_750 },
  ].map((c, index) => ({
    index,
    front_matter: false,
    ...c,
    words: Math.round(c.characters / 5.6),
    estimated_seconds: Math.round((c.characters / 17.9) * 10) / 10,
  }));
  const total = chapters.reduce((n, c) => n + c.characters, 0);
  return {
    job_type: 'book_processing',
    title: 'The Lighthouse',
    author: 'Ada Marlow',
    has_cover: true,
    chapters,
    total_characters: total,
    estimated_seconds: Math.round((total / 17.9) * 10) / 10,
    characters_per_second: 17.9,
    estimated_cost: [{ provider: 'offline', model: 'espeak-ng', usd: 0 }],
    ...overrides,
  };
}

/** The same book's estimate on a server with both cloud voices configured. */
export function cloudPreviewFixture(): JobPreview {
  const base = jobPreviewFixture();
  return jobPreviewFixture({
    characters_per_second: 15,
    estimated_seconds: Math.round((base.total_characters / 15) * 10) / 10,
    chapters: base.chapters.map((c) => ({ ...c, estimated_seconds: Math.round((c.characters / 15) * 10) / 10 })),
    estimated_cost: [
      { provider: 'offline', model: 'espeak-ng', usd: 0 },
      { provider: 'openai', model: 'gpt-4o-mini-tts', usd: 1.0 },
      { provider: 'elevenlabs', model: 'eleven_multilingual_v2', usd: 6.0 },
    ],
  });
}

/** A text that is read as one piece (no chapters to choose). */
export function textPreviewFixture(title: string, characters: number): JobPreview {
  const seconds = Math.round((characters / 17.9) * 10) / 10;
  return jobPreviewFixture({
    job_type: 'text_to_audio',
    title,
    author: null,
    has_cover: false,
    chapters: [
      {
        index: 0,
        title,
        characters,
        words: Math.round(characters / 5.6),
        estimated_seconds: seconds,
        front_matter: false,
      },
    ],
    total_characters: characters,
    estimated_seconds: seconds,
  });
}

/**
 * POST /jobs/preview: `preview` (a function of the body, or a fixed answer); without one, a
 * pasted text previews as one piece and a file as the five-chapter book. The totals follow the
 * chapters the body names, as the server's do.
 */
export function previewJobHandler(
  options: ReplyOptions & {
    preview?: JobPreview | ((body: JobCreateRequest) => JobPreview);
    onBody?: (body: JobCreateRequest) => void;
  } = {},
) {
  return getPreviewJobMockHandler(async (info) => {
    const body = (await info.request.clone().json()) as JobCreateRequest;
    options.onBody?.(body);
    return respond(options, () => {
      if (typeof options.preview === 'function') return options.preview(body);
      if (options.preview) return options.preview;
      if (body.file_key) return jobPreviewFixture();
      return textPreviewFixture(body.title, body.content?.length ?? 0);
    });
  });
}
