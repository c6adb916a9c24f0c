/**
 * What a create or preview request names as its text: pasted content or an upload (a web page is
 * read later, by acquire_content), and the reader's choice of chapters, checked against the plan.
 */
import { DomainError } from '../errors';
import type { StoredDocumentInfo } from '../ingest/document';
import { normaliseText } from '../ingest/text-file';
import type { JobServiceDeps } from './job-access';
import { ChoiceError, chooseChapters, type SourcePlan } from './plan';
import { readText } from './steps';
import { uploadInfoKey } from './storage-keys';
import type { JobType, Provider } from './types';

export const MIN_TEXT_CHARS = 100;

export interface CreateJobInput {
  title: string;
  description?: string | undefined;
  content?: string | undefined;
  file_key?: string | undefined;
  url?: string | undefined;
  job_type?: JobType | undefined;
  voice_config?:
    | {
        provider: Provider;
        voice_id?: string | undefined;
        voice_settings?: Record<string, string> | undefined;
        cast?: boolean | undefined;
        cast_voices?: Record<string, string> | undefined;
      }
    | undefined;
  /** Indices (from the preview) of the chapters to convert; all when absent. */
  chapters?: number[] | undefined;
  /** New titles for chapters, by index. */
  chapter_titles?: { index: number; title: string }[] | undefined;
}

/** Whether the request names a web page (and neither pasted text nor an upload). */
export function isPageRequest(input: CreateJobInput): input is CreateJobInput & { url: string } {
  return input.url !== undefined && input.content === undefined && input.file_key === undefined;
}

/** The text (and, for a structured upload, what its format said) of a content or file_key request. */
export async function loadSource(
  { repo, storage }: Pick<JobServiceDeps, 'repo' | 'storage'>,
  userId: string,
  input: CreateJobInput,
): Promise<{ kind: 'content' | 'file'; text: string; info: StoredDocumentInfo | null }> {
  const sources = [input.content, input.file_key, input.url].filter((v) => v !== undefined);
  if (sources.length !== 1) {
    throw new DomainError('invalid', 'Exactly one of content, file_key, or url must be provided');
  }
  if (input.content !== undefined) {
    const text = normaliseText(input.content);
    if (text.trim().length < MIN_TEXT_CHARS) {
      throw new DomainError(
        'invalid',
        `Content must be at least ${MIN_TEXT_CHARS} characters (not counting surrounding blank space)`,
      );
    }
    return { kind: 'content', text, info: null };
  }
  const fileKey = input.file_key!;
  if ((await repo.uploads.owner(fileKey)) !== userId) throw new DomainError('not_found', 'File not found');
  const text = await readText(storage, fileKey).catch(() => {
    throw new DomainError('not_found', 'File not found');
  });
  if (text.trim().length < MIN_TEXT_CHARS) {
    throw new DomainError('invalid', `The file must contain at least ${MIN_TEXT_CHARS} characters of text`);
  }
  const info =
    (await storage.stat(uploadInfoKey(fileKey))) === null
      ? null
      : (JSON.parse(await readText(storage, uploadInfoKey(fileKey))) as StoredDocumentInfo);
  return { kind: 'file', text, info };
}

/** The chapters the reader chose, renamed as asked; a choice that does not fit the plan is a 422. */
export function chosenChapters(plan: SourcePlan, choice: Pick<CreateJobInput, 'chapters' | 'chapter_titles'>) {
  try {
    return chooseChapters(plan, choice);
  } catch (error) {
    if (error instanceof ChoiceError) throw new DomainError('invalid', error.message);
    throw error;
  }
}
