import { z } from 'zod';
import type { JobCreateRequest, TtsProvider } from '../../api/gen/model';

/** Spec sections 3 (Upload form), 4 (Upload modes), 5 (Upload and File validation) and 9. */
export const MIN_TEXT_LENGTH = 100;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const CONTENT_REQUIRED = 'Either provide text content (min 100 characters) or a valid URL';

export type UploadMode = 'text' | 'file' | 'url';

export const providerOptions: { value: TtsProvider; label: string; voice: string }[] = [
  { value: 'openai', label: 'OpenAI', voice: 'alloy' },
  { value: 'elevenlabs', label: 'ElevenLabs', voice: 'adam' },
];

/** Voice is fixed by provider. */
export function voiceFor(provider: TtsProvider): string {
  return provider === 'elevenlabs' ? 'adam' : 'alloy';
}

export interface UploadForm {
  title: string;
  ttsProvider: string;
  textContent: string;
  url: string;
}

export const initialUploadForm: UploadForm = { title: '', ttsProvider: 'openai', textContent: '', url: '' };

const webUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: 'Please enter a valid URL' });

export const uploadFormSchema = z
  .object({
    title: z.string().trim().min(1, { error: 'Title is required' }),
    ttsProvider: z.enum(['openai', 'elevenlabs'], { error: 'Please select a TTS provider' }),
    textContent: z.string(),
    url: z.union([z.literal(''), webUrl]),
  })
  .refine((form) => form.textContent.length >= MIN_TEXT_LENGTH || form.url.trim() !== '', {
    error: CONTENT_REQUIRED,
    path: ['textContent'],
    // Check it even while other fields are invalid, so every message shows at once.
    when: () => true,
  });

export type FieldErrors = Partial<Record<keyof UploadForm, string>>;

/** The first message per field, or null when the form is valid. */
export function validateUpload(form: UploadForm): FieldErrors | null {
  const result = uploadFormSchema.safeParse({ ...form, url: form.url.trim() });
  if (result.success) return null;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof UploadForm | undefined;
    if (field !== undefined && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/**
 * Switching the source: to url clears the text and the chosen file; to text or file clears the
 * url. (Text and file share the text, so moving between them keeps it.)
 */
export function switchMode<T extends { form: UploadForm; file: File | null }>(current: T, mode: UploadMode): T {
  if (mode === 'url') return { ...current, form: { ...current.form, textContent: '' }, file: null };
  return { ...current, form: { ...current.form, url: '' } };
}

/** Submit is possible once something is entered in the text or url field, or a file is chosen. */
export function canSubmit(form: UploadForm, file: File | null): boolean {
  return form.textContent.trim() !== '' || form.url.trim() !== '' || file !== null;
}

/** The job payload: title, voice_config and exactly one source. */
export function jobRequest(form: UploadForm, source: { fileKey?: string }): JobCreateRequest {
  const provider = form.ttsProvider as TtsProvider;
  const base = { title: form.title.trim(), voice_config: { provider, voice_id: voiceFor(provider) } };
  if (source.fileKey) return { ...base, file_key: source.fileKey };
  if (form.url.trim()) return { ...base, url: form.url.trim() };
  return { ...base, content: form.textContent };
}

// -------------------------------------------------------------------------------------------
// Files

/** null when the file is acceptable, else the message to show. */
export function checkFile(file: File): string | null {
  const isText = file.name.toLowerCase().endsWith('.txt') || file.type === 'text/plain';
  if (!isText) return 'Please upload a .txt file';
  if (file.size > MAX_FILE_BYTES) return 'The file is larger than 10 MB';
  return null;
}

/** 'chapter-one.final.txt' → 'chapter-one.final'. */
export function titleFromFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).trim();
}

/** The file's text; rejects with 'Failed to read file content'. */
export async function readFileText(file: Blob): Promise<string> {
  try {
    return await file.text();
  } catch {
    throw new Error('Failed to read file content');
  }
}
