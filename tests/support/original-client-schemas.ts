import { z } from 'zod';

/**
 * What the earlier product's own browser client accepts, written from the zod schemas it publishes
 * (it parses every answer it reads with them and shows an error when one does not match). Lectio's
 * API must stay a drop-in for that client, so tests validate our answers against these. Only the
 * shapes and rules are reproduced here: required fields, enums with their casing, and which fields
 * may be null or missing.
 */

/** A field that client allows to be missing or null. */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullish();

const jobStatus = z.enum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED']);
const stepStatus = z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED']);

const voiceConfig = z.object({
  provider: z.string(),
  voice_id: maybe(z.string()),
  voice_settings: z.record(z.string(), z.string()).optional(),
});

const chapter = z.object({
  title: z.string(),
  order: z.number().int(),
  duration: maybe(z.number()),
  file_key: maybe(z.string()),
});

export const originalStep = z.object({
  id: z.string(),
  step_name: z.string(),
  step_order: z.number().int(),
  status: stepStatus,
  progress: z.number(),
  error_message: maybe(z.string()),
  step_metadata: maybe(z.record(z.string(), z.unknown())),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: maybe(z.string()),
  completed_at: maybe(z.string()),
  duration: maybe(z.number()),
});

interface OriginalJob {
  id: string;
  user_id: string;
  status: z.infer<typeof jobStatus>;
  children?: OriginalJob[] | undefined;
  parent?: OriginalJob | null | undefined;
  [field: string]: unknown;
}

/** A job; its children and parent are jobs of the same shape (so each needs user_id, status, ...). */
export const originalJob: z.ZodType<OriginalJob> = z.lazy(() =>
  z.object({
    id: z.string(),
    user_id: z.string(),
    parent_job_id: maybe(z.string()),
    title: z.string(),
    description: maybe(z.string()),
    status: jobStatus,
    progress: z.number(),
    error_message: maybe(z.string()),
    config: maybe(
      z.object({
        voice_config: maybe(voiceConfig),
        provider: maybe(z.string()),
        tutoring_analysis: maybe(z.record(z.string(), z.unknown())),
      }),
    ),
    result_data: maybe(
      z.object({
        duration: maybe(z.number()),
        duration_seconds: maybe(z.number()),
        file_size_bytes: maybe(z.number().int()),
        chapters: maybe(z.array(chapter)),
        child_job_ids: maybe(z.array(z.string())),
      }),
    ),
    input_file_key: maybe(z.string()),
    output_file_key: maybe(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    started_at: maybe(z.string()),
    completed_at: maybe(z.string()),
    duration: maybe(z.number()),
    steps: z.array(originalStep).optional(),
    children: z.array(originalJob).optional(),
    parent: maybe(originalJob),
  }),
);

export const originalJobList = z.object({
  jobs: z.array(originalJob),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  total_pages: z.number().int(),
});

const resumeInfo = z.object({
  has_progress: z.boolean(),
  resume_position: z.number().default(0),
  percentage_complete: z.number().default(0),
  last_played_at: maybe(z.string()),
  current_chapter_id: maybe(z.string()),
  current_chapter_position: z.number().default(0),
});

export const originalStreamInfo = z.object({
  streaming_url: z.string(),
  expires_at: z.string(),
  file_key: z.string(),
  content_type: z.string(),
  resume_info: resumeInfo,
  source_job_id: maybe(z.string()),
});

export const originalAudioMetadata = z.object({
  job_id: z.string(),
  title: z.string(),
  status: jobStatus,
  format: z.string(),
  duration: maybe(z.number()),
  file_size: maybe(z.number()),
  created_at: maybe(z.string()),
  completed_at: maybe(z.string()),
  chapters: z.array(z.record(z.string(), z.unknown())).optional(),
  resume_position: z.number().default(0),
  percentage_complete: z.number().default(0),
  last_played_at: maybe(z.string()),
  current_chapter_id: maybe(z.string()),
  current_chapter_position: z.number().default(0),
});

export const originalProgress = z.object({
  id: z.string(),
  user_id: z.string(),
  job_id: z.string(),
  position_seconds: z.number(),
  duration_seconds: maybe(z.number()),
  percentage_complete: z.number(),
  current_chapter_id: maybe(z.string()),
  current_chapter_position: z.number(),
  is_completed: z.boolean(),
  last_played_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
