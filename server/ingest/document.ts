/**
 * An uploaded book after its format was read: the narration text, and what the format itself
 * says about the book (title, author, chapters, cover). Chapters index the text:
 * chapter text = text.slice(start, end).
 */
import { countWords, MIN_CHAPTER_WORDS } from './chapters';
import { normaliseText } from './text-file';

export type DocumentFormat = 'txt' | 'epub' | 'markdown' | 'html' | 'pdf';

export interface DocumentChapter {
  title: string;
  start: number;
  end: number;
  /** The file marks it as front matter (an EPUB's pages before its first contents entry). */
  frontMatter?: boolean;
}

export interface DocumentCover {
  bytes: Uint8Array;
  contentType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
}

export interface ParsedDocument {
  format: DocumentFormat;
  text: string;
  title?: string | undefined;
  author?: string | undefined;
  /** Absent when the format has no structure of its own (the text's headings decide then). */
  chapters?: DocumentChapter[] | undefined;
  cover?: DocumentCover | undefined;
}

/** What is stored next to an upload's text (`uploads/<id>.book.json`). */
export interface StoredDocumentInfo {
  format: DocumentFormat;
  title?: string | undefined;
  author?: string | undefined;
  chapters?: DocumentChapter[] | undefined;
  cover?: { key: string; content_type: DocumentCover['contentType'] } | undefined;
}

/** Paragraph separator inside a chapter, and chapter separator (blank lines the planner reads as a break). */
const PARAGRAPH = '\n\n';
const SECTION = '\n\n\n\n';

/**
 * Joins sections into one text with chapter offsets. Empty sections are left out; a section's
 * range covers its own text only (separators are outside).
 */
export function joinSections(sections: { title: string; paragraphs: string[]; frontMatter?: boolean }[]): {
  text: string;
  chapters: DocumentChapter[];
} {
  let text = '';
  const chapters: DocumentChapter[] = [];
  // A first section of a few words (a title page) joins the chapter after it.
  const [first, second, ...rest] = sections;
  if (first && second && countWords(first.paragraphs.join(' ')) < MIN_CHAPTER_WORDS) {
    sections = [
      { title: second.title, paragraphs: [...first.paragraphs, ...second.paragraphs], frontMatter: second.frontMatter },
      ...rest,
    ];
  }
  for (const s of sections) {
    const body = s.paragraphs
      .map((p) => normaliseText(p).trim())
      .filter((p) => p !== '')
      .join(PARAGRAPH);
    if (body === '') continue;
    if (text !== '') text += SECTION;
    chapters.push({
      title: s.title,
      start: text.length,
      end: text.length + body.length,
      ...(s.frontMatter && { frontMatter: true }),
    });
    text += body;
  }
  return { text, chapters };
}

const IMAGE_SIGNATURES: [DocumentCover['contentType'], (b: Uint8Array) => boolean][] = [
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/png', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['image/gif', (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46],
  [
    'image/webp',
    (b) => b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45,
  ],
];

/** Largest cover image kept (bytes). */
export const MAX_COVER_BYTES = 5 * 1024 * 1024;

/** The image's type from its first bytes (JPEG, PNG, GIF, WebP), or null for anything else. */
export function sniffImage(bytes: Uint8Array): DocumentCover['contentType'] | null {
  if (bytes.byteLength < 12 || bytes.byteLength > MAX_COVER_BYTES) return null;
  return IMAGE_SIGNATURES.find(([, test]) => test(bytes))?.[0] ?? null;
}
