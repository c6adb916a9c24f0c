/**
 * The chapters a job would have, worked out before anything is created: shared by
 * `POST /jobs/preview` (which only answers) and `POST /jobs` (which keeps the chosen chapters).
 *
 * - An uploaded file whose format has its own chapters (EPUB table of contents, PDF outline,
 *   Markdown headings) keeps them; any other text is planned by planBook (ingest/chapters.ts).
 * - `job_type: text_to_audio` makes the whole text one piece; `book_processing` makes even a
 *   text without chapters a book of one chapter.
 */
import { countWords, planBook } from '../ingest/chapters';
import type { DocumentChapter, StoredDocumentInfo } from '../ingest/document';
import type { JobType } from './types';

export interface SourcePlan {
  kind: 'text' | 'book';
  chapters: DocumentChapter[];
}

export function planSource(
  text: string,
  title: string,
  info: StoredDocumentInfo | null,
  requested: JobType | undefined,
): SourcePlan {
  const whole = (t: string): SourcePlan => ({ kind: 'text', chapters: [{ title: t, start: 0, end: text.length }] });
  if (requested === 'text_to_audio') return whole(title);
  let plan: SourcePlan;
  if (info?.chapters !== undefined && info.chapters.length > 0) {
    plan = info.chapters.length >= 2 ? { kind: 'book', chapters: info.chapters } : whole(info.chapters[0]!.title);
  } else {
    const planned = planBook(title, text);
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
