import { getGetAudioCoverMockHandler } from '../api/gen/endpoints/audio/get-audio-cover.msw';
import { getGetAudioMetadataMockHandler } from '../api/gen/endpoints/audio/get-audio-metadata.msw';
import { getGetAudioStreamMockHandler } from '../api/gen/endpoints/audio/get-audio-stream.msw';
import { getGetAudioTranscriptMockHandler } from '../api/gen/endpoints/audio/get-audio-transcript.msw';
import { getDeleteProgressMockHandler } from '../api/gen/endpoints/progress/delete-progress.msw';
import { getGetProgressMockHandler } from '../api/gen/endpoints/progress/get-progress.msw';
import { getGetRecentProgressMockHandler } from '../api/gen/endpoints/progress/get-recent-progress.msw';
import { getSaveProgressMockHandler } from '../api/gen/endpoints/progress/save-progress.msw';
import type { AudioMetadata, Job, PlaybackProgress, ProgressUpdate, StreamInfo, Transcript } from '../api/gen/model';
import { answer, failWith, type ReplyOptions } from './answer';
import { mockCoverSvg } from './covers';
import { errorBodyFixture, userFixture } from './fixtures';

/**
 * Audio fixtures and handlers (stream info, metadata, playback progress). The stream points at
 * public/fixtures/sample.mp3: a real 60 s MP3 (three 20 s tones, made by
 * scripts/make-sample-mp3.ts), so stories play, seek and end like the app does.
 */
/** Beside the page that plays it: the app's root, or the folder a static Storybook is served from. */
export const SAMPLE_AUDIO_URL = `${import.meta.env.BASE_URL}fixtures/sample.mp3`;
export const SAMPLE_AUDIO_SECONDS = 60;
export const SAMPLE_AUDIO_BYTES = 60192;
/**
 * public/fixtures/sample-opening.mp3: the sample's first 12 s alone, as a converting book's first
 * chapter's opening (its first minutes, converted first) is served before the chapter is.
 */
export const SAMPLE_OPENING_URL = `${import.meta.env.BASE_URL}fixtures/sample-opening.mp3`;
export const SAMPLE_OPENING_SECONDS = 12;

/** What a finished job's result_data says of the sample MP3 (chapters aside). */
export function sampleAudioResult() {
  return {
    duration: SAMPLE_AUDIO_SECONDS,
    duration_seconds: SAMPLE_AUDIO_SECONDS,
    file_size_bytes: SAMPLE_AUDIO_BYTES,
    format: 'mp3',
    tts_engine: 'espeak-ng',
  } satisfies NonNullable<Job['result_data']>;
}

export const bookJobId = '7c3e1f2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b';
export const chapterJobIds = [
  '1a2b3c4d-0001-4e5f-8a9b-0c1d2e3f4a5b',
  '1a2b3c4d-0002-4e5f-8a9b-0c1d2e3f4a5b',
  '1a2b3c4d-0003-4e5f-8a9b-0c1d2e3f4a5b',
] as const;

type ChapterInfo = AudioMetadata['chapters'][number];

/** Three 20 s chapters covering the sample MP3, all converted (as the server sends them). */
export function chapterInfoFixtures(): ChapterInfo[] {
  return ['The Visitor', 'The Night Watch', 'The Confession'].map((title, index) => ({
    id: chapterJobIds[index] ?? bookJobId,
    title,
    order: index + 1,
    start: index * 20,
    duration: 20,
    ready: true,
    playable_seconds: 20,
  }));
}

/**
 * The sample book's chapters while it converts, as the server sends them: the first `ready` are
 * converted; the one after them has its opening (its first `openingSeconds`, converted first, as a
 * book's first chapter does) playable when `openingSeconds` > 0; the rest are not converted
 * (duration 0). Each starts where the playable audio before it ends.
 */
export function convertingChapterInfoFixtures({
  ready = 1,
  openingSeconds = 0,
}: { ready?: number; openingSeconds?: number } = {}): ChapterInfo[] {
  let start = 0;
  return chapterInfoFixtures().map((chapter, index) => {
    const done = index < ready;
    const playable = done ? chapter.duration : index === ready ? openingSeconds : 0;
    const info = { ...chapter, start, duration: playable, ready: done, playable_seconds: playable };
    start += playable;
    return info;
  });
}

/**
 * The metadata of the sample book while it converts (see convertingChapterInfoFixtures): its
 * duration counts what can be played; the whole book is expected to last 60 s.
 */
export function convertingMetadataFixture(
  options: { ready?: number; openingSeconds?: number } = {},
  overrides: Partial<AudioMetadata> = {},
): AudioMetadata {
  const chapters = convertingChapterInfoFixtures(options);
  return audioMetadataFixture({
    status: 'PROCESSING',
    completed_at: null,
    duration: chapters.reduce((total, chapter) => total + (chapter.playable_seconds ?? 0), 0),
    estimated_duration: SAMPLE_AUDIO_SECONDS,
    chapters,
    chapters_ready: chapters.filter((chapter) => chapter.ready).length,
    ...overrides,
  });
}

export function streamInfoFixture(overrides: Partial<StreamInfo> = {}): StreamInfo {
  return {
    streaming_url: SAMPLE_AUDIO_URL,
    expires_at: '2030-01-01T00:00:00Z',
    file_key: `audio/${bookJobId}.mp3`,
    content_type: 'audio/mpeg',
    resume_info: {
      has_progress: false,
      resume_position: 0,
      percentage_complete: 0,
      last_played_at: null,
      current_chapter_id: null,
      current_chapter_position: 0,
    },
    source_job_id: null,
    ...overrides,
  };
}

export function audioMetadataFixture(overrides: Partial<AudioMetadata> = {}): AudioMetadata {
  return {
    job_id: bookJobId,
    title: 'The Tell-Tale Heart',
    status: 'COMPLETED',
    format: 'mp3',
    duration: SAMPLE_AUDIO_SECONDS,
    file_size: SAMPLE_AUDIO_BYTES,
    created_at: '2025-02-01T10:00:00Z',
    completed_at: '2025-02-01T10:04:00Z',
    chapters: chapterInfoFixtures(),
    estimated_duration: SAMPLE_AUDIO_SECONDS,
    provider: 'openai',
    tts_engine: 'espeak-ng',
    sample_rate: 16000,
    bitrate_kbps: 8,
    resume_position: 0,
    percentage_complete: 0,
    last_played_at: null,
    current_chapter_id: null,
    current_chapter_position: 0,
    ...overrides,
  };
}

export function progressFixture(overrides: Partial<PlaybackProgress> = {}): PlaybackProgress {
  const position = overrides.position_seconds ?? 25;
  const duration = overrides.duration_seconds === undefined ? SAMPLE_AUDIO_SECONDS : overrides.duration_seconds;
  return {
    id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
    user_id: userFixture().id,
    job_id: bookJobId,
    position_seconds: position,
    duration_seconds: duration,
    percentage_complete: duration ? Math.min(100, (position / duration) * 100) : 0,
    current_chapter_id: chapterJobIds[1],
    current_chapter_position: 5,
    is_completed: false,
    last_played_at: '2025-02-03T20:15:00Z',
    created_at: '2025-02-02T19:00:00Z',
    updated_at: '2025-02-03T20:15:00Z',
    ...overrides,
  };
}

/**
 * GET /audio/{id}/stream of a book converting its first chapter, before the chapter is finished:
 * the chapter's opening (source_job_id names chapter 1).
 */
export function openingStreamHandler() {
  return audioStreamHandler({
    stream: {
      streaming_url: SAMPLE_OPENING_URL,
      source_job_id: chapterJobIds[0],
      file_key: `audio/${chapterJobIds[0]}/opening.mp3`,
    },
  });
}

export function audioStreamHandler(options: ReplyOptions & { stream?: Partial<StreamInfo> } = {}) {
  return getGetAudioStreamMockHandler(answer(options, () => streamInfoFixture(options.stream)));
}

/**
 * GET /audio/{jobId}/cover: an SVG as the server draws for a book without one of its own (every
 * book has a cover), each book its own (mocks/covers.ts); `cover: false` answers 404, as for a job
 * that is not yours.
 */
export function audioCoverHandler(options: { cover?: boolean } = {}) {
  return getGetAudioCoverMockHandler(({ params }) =>
    options.cover === false
      ? failWith(404, errorBodyFixture('Job not found'))
      : (new TextEncoder().encode(mockCoverSvg(String(params.jobId))).buffer as ArrayBuffer),
  );
}

export function audioMetadataHandler(options: ReplyOptions & { metadata?: Partial<AudioMetadata> } = {}) {
  return getGetAudioMetadataMockHandler(
    answer(options, ({ params }) => audioMetadataFixture({ job_id: String(params.jobId), ...options.metadata })),
  );
}

/** GET /progress/{jobId}: the saved record, or null (the default) when there is none. */
export function progressHandler(options: ReplyOptions & { progress?: PlaybackProgress | null } = {}) {
  return getGetProgressMockHandler(answer(options, () => options.progress ?? null));
}

/** PUT /progress/{jobId}: echoes the saved position as a progress record; `onSave` sees each update. */
export function saveProgressHandler(options: ReplyOptions & { onSave?: (update: ProgressUpdate) => void } = {}) {
  return getSaveProgressMockHandler(
    answer(options, async ({ request, params }) => {
      const update = (await request.clone().json()) as ProgressUpdate;
      options.onSave?.(update);
      return progressFixture({
        job_id: String(params.jobId),
        position_seconds: update.position_seconds,
        current_chapter_id: update.current_chapter_id ?? null,
      });
    }),
  );
}

/** DELETE /progress/{jobId}: 204. */
export function deleteProgressHandler(options: ReplyOptions = {}) {
  return getDeleteProgressMockHandler(answer(options, () => undefined));
}

export function recentProgressHandler(records: PlaybackProgress[] = [], options: ReplyOptions = {}) {
  return getGetRecentProgressMockHandler(answer(options, () => records));
}

/** The sample book's text: for each 20 s chapter, its paragraphs of sentences. */
const SAMPLE_TEXT: string[][][] = [
  [
    ['True! nervous, very dreadfully nervous I had been and am.', 'But why will you say that I am mad?'],
    ['The disease had sharpened my senses, not destroyed them.', 'Above all was the sense of hearing acute.'],
  ],
  [
    ['Every night, about midnight, I turned the latch of his door and opened it.', 'Oh, so gently!'],
    [
      'And then, when I had made an opening sufficient for my head, I put in a dark lantern.',
      'It took me an hour to place my whole head within the opening.',
    ],
  ],
  [
    ['The officers were satisfied.', 'My manner had convinced them.'],
    ['I was singularly at ease.', 'They sat, and while I answered cheerily, they chatted of familiar things.'],
  ],
];

/**
 * One chapter of the sample book as the server's read-along answers it: its sentences spread
 * evenly over the chapter's 20 s, each with its place in the chapter's text.
 */
export function transcriptFixture(chapter = 1): Transcript {
  const paragraphs = SAMPLE_TEXT[chapter - 1] ?? [];
  const info = chapterInfoFixtures()[chapter - 1]!;
  const all = paragraphs.flatMap((sentences) => sentences.map((text, i) => ({ text, paragraphStart: i === 0 })));
  const step = info.duration / Math.max(1, all.length);
  let offset = 0;
  return {
    job_id: bookJobId,
    chapter: { id: info.id, order: info.order, title: info.title, start: info.start, duration: info.duration },
    chapter_count: SAMPLE_TEXT.length,
    sentences: all.map((sentence, index) => {
      if (index > 0) offset += sentence.paragraphStart ? 2 : 1;
      const char_start = offset;
      offset += sentence.text.length;
      return {
        index,
        start: Math.round(index * step * 100) / 100,
        end: Math.round((index + 1) * step * 100) / 100,
        text: sentence.text,
        char_start,
        char_end: offset,
        paragraph_start: sentence.paragraphStart,
      };
    }),
  };
}

/** GET /audio/{jobId}/transcript?chapter=N: the sample book's chapter N (a 404 past the last). */
export function audioTranscriptHandler(options: ReplyOptions = {}) {
  return getGetAudioTranscriptMockHandler(
    answer(options, ({ request }: { request: Request }) => {
      const chapter = Number(new URL(request.url).searchParams.get('chapter') ?? 1);
      if (!SAMPLE_TEXT[chapter - 1]) failWith(404, errorBodyFixture(`This audiobook has no chapter ${chapter}`));
      return transcriptFixture(chapter);
    }),
  );
}
