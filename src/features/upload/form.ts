import { z } from 'zod';
import type { JobCreateRequest, JobPreview, TtsProvider } from '../../api/gen/model';
import { isInputFormat, WRONG_INPUT_FORMAT } from './input-formats';

/** The upload form, its modes and its validation (docs/product.md#upload). */
export const MIN_TEXT_LENGTH = 100;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const CONTENT_REQUIRED = 'Either provide text content (min 100 characters) or a valid URL';

export type UploadMode = 'text' | 'file' | 'url';

/** The voice of a provider when none was chosen (the server's own defaults). */
export function voiceFor(provider: TtsProvider): string {
  if (provider === 'elevenlabs') return 'adam';
  if (provider === 'offline') return 'en-us+f3';
  return provider === 'openai' ? 'alloy' : '';
}

export interface UploadForm {
  title: string;
  ttsProvider: string;
  /** The chosen voice of ttsProvider (the voice picker's choice); empty for the provider's default. */
  voiceId: string;
  textContent: string;
  url: string;
}

export const initialUploadForm: UploadForm = {
  title: '',
  ttsProvider: 'openai',
  voiceId: '',
  textContent: '',
  url: '',
};

const webUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: 'Please enter a valid URL' });

function formSchema(hasFile: boolean) {
  return z
    .object({
      title: z.string().trim().min(1, { error: 'Title is required' }),
      ttsProvider: z.enum(['openai', 'elevenlabs', 'offline', 'openai_compatible'], {
        error: 'Please select a TTS provider',
      }),
      voiceId: z.string(),
      textContent: z.string(),
      url: z.union([z.literal(''), webUrl]),
    })
    .refine((form) => hasFile || form.textContent.trim().length >= MIN_TEXT_LENGTH || form.url.trim() !== '', {
      error: CONTENT_REQUIRED,
      path: ['textContent'],
      // Check it even while other fields are invalid, so every message shows at once.
      when: () => true,
    });
}

export type FieldErrors = Partial<Record<keyof UploadForm, string>>;

/** The first message per field, or null when the form is valid. */
export function validateUpload(form: UploadForm, hasFile = false): FieldErrors | null {
  const result = formSchema(hasFile).safeParse({ ...form, url: form.url.trim() });
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

/** The characters that count (spaces and line breaks around the text do not). */
export function countedCharacters(text: string): number {
  return text.trim().length;
}

/** Why Create is not possible yet, in the source's own words; null when it is (docs/product.md#upload). */
export function whyCannotSubmit(mode: UploadMode, form: UploadForm, file: File | null): string | null {
  if (canSubmit(form, file)) return null;
  if (mode === 'file') return 'Choose a file to convert.';
  if (mode === 'url') return "Enter the web page's address.";
  if (form.textContent !== '')
    return `Only spaces so far: paste or type the story's text (at least ${MIN_TEXT_LENGTH} characters).`;
  return `Paste or type the story's text (at least ${MIN_TEXT_LENGTH} characters), or choose a file or a web page.`;
}

/**
 * The chapters ticked when a book is first previewed: all but its front matter (copyright,
 * contents, dedication...), or all of them when that would leave none.
 */
export function initiallyChosen(preview: Pick<JobPreview, 'chapters'>): Set<number> {
  const text = preview.chapters.filter((chapter) => !chapter.front_matter);
  return new Set((text.length > 0 ? text : preview.chapters).map((chapter) => chapter.index));
}

export interface ChapterChoice {
  chapters?: number[];
  chapter_titles?: { index: number; title: string }[];
}

/** The job payload: title, voice_config, exactly one source, and the chapter choice when there is one. */
export function jobRequest(
  form: UploadForm,
  source: { fileKey?: string },
  choice: ChapterChoice = {},
): JobCreateRequest {
  const provider = form.ttsProvider as TtsProvider;
  const voiceId = form.voiceId.trim() || voiceFor(provider);
  const base = {
    title: form.title.trim() || 'Untitled',
    voice_config: voiceId === '' ? { provider } : { provider, voice_id: voiceId },
    ...choice,
  };
  if (source.fileKey) return { ...base, file_key: source.fileKey };
  if (form.url.trim()) return { ...base, url: form.url.trim() };
  return { ...base, content: form.textContent };
}

// -------------------------------------------------------------------------------------------
// Files

/** null when the file is acceptable (an input format, 10 MB at most), else the message to show. */
export function checkFile(file: File): string | null {
  if (!isInputFormat(file)) return WRONG_INPUT_FORMAT;
  if (file.size > MAX_FILE_BYTES) return 'The file is larger than 10 MB';
  return null;
}

// -------------------------------------------------------------------------------------------
// Preview

/**
 * What to send with the job: chapters only when some are left out, titles only where the
 * reader changed them (an emptied title keeps the book's own).
 */
export function chapterChoice(
  preview: JobPreview,
  selected: ReadonlySet<number>,
  titles: Readonly<Record<number, string>>,
): ChapterChoice {
  const choice: ChapterChoice = {};
  if (preview.chapters.some((c) => !selected.has(c.index))) {
    choice.chapters = preview.chapters.filter((c) => selected.has(c.index)).map((c) => c.index);
  }
  const renamed = preview.chapters
    .filter((c) => selected.has(c.index))
    .map((c) => ({ index: c.index, title: (titles[c.index] ?? '').trim() }))
    .filter((t) => t.title !== '' && t.title !== preview.chapters[t.index]?.title);
  if (renamed.length > 0) choice.chapter_titles = renamed;
  return choice;
}

/** Seconds and characters of the chosen chapters. */
export function chosenTotals(
  preview: JobPreview,
  selected: ReadonlySet<number>,
): { seconds: number; characters: number } {
  return preview.chapters
    .filter((c) => selected.has(c.index))
    .reduce((t, c) => ({ seconds: t.seconds + c.estimated_seconds, characters: t.characters + c.characters }), {
      seconds: 0,
      characters: 0,
    });
}

/** 42 -> "under a minute", 600 -> "about 10 min", 4500 -> "about 1 h 15 min". */
export function formatListening(seconds: number): string {
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `about ${h} h` : `about ${h} h ${m} min`;
}

const PROVIDER_NAMES: Record<string, string> = {
  offline: 'Offline voice',
  openai: 'OpenAI',
  elevenlabs: 'ElevenLabs',
  openai_compatible: 'Voice server',
};

/**
 * Each provider's cost for the chosen chapters: the preview's figure scaled from its own total
 * (prices are per character), "free" for the offline voice.
 */
export function costLines(preview: JobPreview, characters: number): string[] {
  const share = preview.total_characters > 0 ? characters / preview.total_characters : 0;
  return preview.estimated_cost.map((c) => {
    const name = PROVIDER_NAMES[c.provider] ?? c.provider;
    if (c.usd === 0 && (c.provider === 'offline' || c.provider === 'openai_compatible')) return `${name}: free`;
    const usd = c.usd * share;
    return `${name} (${c.model}): ${usd < 0.01 && usd > 0 ? 'under $0.01' : `$${usd.toFixed(2)}`}`;
  });
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
