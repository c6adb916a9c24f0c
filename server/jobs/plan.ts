/**
 * A job's plan: whether it is one text or a book, and the book's chapters. Decided once, by
 * `planSource`, as soon as the job's text is known: by `POST /jobs` for pasted text and uploads
 * (`POST /jobs/preview` answers the same plan without creating anything), and for a web page by
 * its acquire_content step, which is when the page is read. The job keeps it in `config.plan`;
 * the steps only carry it out (split_chapters creates the chapter jobs it names).
 *
 * - An uploaded file whose format has its own chapters (EPUB table of contents, PDF outline,
 *   Markdown headings) keeps them; any other text is planned by planBook (ingest/chapters.ts).
 * - `job_type: text_to_audio` makes the whole text one piece; `book_processing` makes even a
 *   text without chapters a book of one chapter.
 */
import { countWords, planBook, type BookPlan } from '../ingest/chapters';
import { documentReader } from '../ingest/reader';
import type { DocumentChapter, StoredDocumentInfo } from '../ingest/document';
import { BOOK_STEPS, TEXT_STEPS, type JobConfig, type JobPlan, type JobType } from './types';

export interface SourcePlan {
  kind: 'text' | 'book';
  chapters: DocumentChapter[];
}

/** Texts this long (characters) or longer have their chapters found in the document reader's thread. */
export const PLAN_OFF_THREAD_CHARS = 100_000;

/**
 * planSource, with a long text's chapters found in the document reader's thread: planning a 10 MB
 * text takes about half a second, which the event loop (every other request) must not wait out.
 */
export async function planSourceOffThread(
  text: string,
  title: string,
  info: StoredDocumentInfo | null,
  requested: JobType | undefined,
): Promise<SourcePlan> {
  const usesPlanBook = requested !== 'text_to_audio' && !(info?.chapters !== undefined && info.chapters.length > 0);
  const planned =
    usesPlanBook && text.length >= PLAN_OFF_THREAD_CHARS ? await documentReader().planBook(title, text) : undefined;
  return planSource(text, title, info, requested, planned);
}

export function planSource(
  text: string,
  title: string,
  info: StoredDocumentInfo | null,
  requested: JobType | undefined,
  /** planBook's answer for this text and title, when it was found elsewhere. */
  found?: BookPlan,
): SourcePlan {
  const whole = (t: string): SourcePlan => ({ kind: 'text', chapters: [{ title: t, start: 0, end: text.length }] });
  if (requested === 'text_to_audio') return whole(title);
  let plan: SourcePlan;
  if (info?.chapters !== undefined && info.chapters.length > 0) {
    plan = info.chapters.length >= 2 ? { kind: 'book', chapters: info.chapters } : whole(info.chapters[0]!.title);
  } else {
    const planned = found ?? planBook(title, text);
    plan =
      planned.kind === 'book'
        ? { kind: 'book', chapters: planned.chapters.map(({ title: t, start, end }) => ({ title: t, start, end })) }
        : whole(title);
  }
  if (requested === 'book_processing' && plan.kind === 'text') {
    return { kind: 'book', chapters: [{ title: 'Chapter 1', start: 0, end: text.length }] };
  }
  return plan;
}

export interface ChapterChoice {
  chapters?: number[] | undefined;
  chapter_titles?: { index: number; title: string }[] | undefined;
}

export class ChoiceError extends Error {}

/**
 * The chosen chapters (all when none are named) with their titles overridden, in book order.
 * Throws ChoiceError for an index the plan does not have.
 */
export function chooseChapters(plan: SourcePlan, choice: ChapterChoice): (DocumentChapter & { index: number })[] {
  const count = plan.chapters.length;
  const outside = (i: number) => !Number.isInteger(i) || i < 0 || i >= count;
  const describe = count === 1 ? 'this text has one chapter (0)' : `this text has ${count} chapters (0-${count - 1})`;
  for (const i of choice.chapters ?? []) if (outside(i)) throw new ChoiceError(`There is no chapter ${i}: ${describe}`);
  for (const o of choice.chapter_titles ?? [])
    if (outside(o.index)) throw new ChoiceError(`There is no chapter ${o.index} to rename: ${describe}`);
  const wanted = choice.chapters === undefined ? null : new Set(choice.chapters);
  const titles = new Map((choice.chapter_titles ?? []).map((o) => [o.index, o.title.replace(/\s+/g, ' ').trim()]));
  return plan.chapters
    .map((c, index) => ({ ...c, index, title: titles.get(index) || c.title }))
    .filter((c) => wanted === null || wanted.has(c.index));
}

/** Chapter separator in a job's source text: blank lines, which planBook also reads as a break. */
const SECTION = '\n\n\n\n';

/** The chosen chapters' text as one source, with their offsets in it. */
export function assemble(text: string, chosen: DocumentChapter[]): { text: string; chapters: DocumentChapter[] } {
  let out = '';
  const chapters: DocumentChapter[] = [];
  for (const c of chosen) {
    if (out !== '') out += SECTION;
    const body = text.slice(c.start, c.end);
    chapters.push({ title: c.title, start: out.length, end: out.length + body.length });
    out += body;
  }
  return { text: out, chapters };
}

export function chapterStats(text: string, c: DocumentChapter) {
  return { characters: c.end - c.start, words: countWords(text, c.start, c.end) };
}

/** The plan a job keeps, from a source plan whose chapters index the job's own stored text. */
export function jobPlan(plan: SourcePlan): JobPlan {
  return plan.kind === 'book'
    ? { kind: 'book', chapters: plan.chapters.map(({ title, start, end }) => ({ title, start, end })) }
    : { kind: 'text' };
}

/**
 * The plan the job keeps; null while its text is not known yet (a web page before acquire_content
 * read it), and for a job queued by a version that planned in split_chapters.
 */
export function storedPlan(config: JobConfig): JobPlan | null {
  if (config.plan !== undefined) return config.plan;
  if (config.chapter_plan !== undefined && config.chapter_plan.length > 0)
    return { kind: 'book', chapters: config.chapter_plan };
  return null;
}

export const jobTypeOf = (plan: Pick<JobPlan, 'kind'>): JobType =>
  plan.kind === 'book' ? 'book_processing' : 'text_to_audio';

/** The steps a new job runs: a book's, or a text's (a web page's plan, unknown yet, may swap the text's tail). */
export const stepsOf = (jobType: JobType) => (jobType === 'book_processing' ? BOOK_STEPS : TEXT_STEPS);
