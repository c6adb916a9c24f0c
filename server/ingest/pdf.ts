/**
 * PDF books. PDF.js (pdfjs-dist) reads the file in a worker thread (pdf-worker.mjs); this module
 * turns its lines into narration text:
 *
 * - Running headers and footers go: a line among the top two or bottom two of a page (not in a
 *   heading's larger type) whose shape (digits ignored, so "12" and "The Lighthouse 12" match
 *   their siblings on other pages) comes back on at least half of the pages (at least 3). A lone page number (digits, roman
 *   numerals, "Page 12", "12 of 80") at the top or bottom of a page goes too.
 * - Lines join into paragraphs; a paragraph ends where the gap to the next line is clearly
 *   larger than the page's usual line spacing, or at a line in a larger type (a heading). A word
 *   hyphenated at a line end ("after-" + "noon") is joined again.
 * - Chapters come from the outline (bookmarks) when it has at least two entries pointing into
 *   the book: each starts at the top of its page (at its heading when the page holds more).
 *   Without an outline the text's own headings decide (ingest/chapters.ts).
 * - Title and author from the document information. A file that is not a PDF is refused with
 *   415; a damaged or password-protected one, one with no text layer (scanned pages: there is
 *   no OCR) or more than MAX_PDF_PAGES pages with 422.
 */
import { Worker } from 'node:worker_threads';
import { joinSections, type ParsedDocument } from './document';
import { IngestError } from './errors';

export const MAX_PDF_PAGES = 2_000;
/** A PDF with fewer letters per page than this has no usable text layer. */
const MIN_LETTERS_PER_PAGE = 20;

const WORKER_URL = new URL('./pdf-worker.mjs', import.meta.url);

export interface PdfLine {
  text: string;
  y: number;
  size: number;
}

type WorkerAnswer =
  | {
      ok: true;
      pages: PdfLine[][];
      outline: { title: string; page: number }[];
      info: { title: string; author: string };
    }
  | { ok: false; reason: 'password' | 'invalid' | 'too_many_pages'; pages?: number };

function readInWorker(bytes: Uint8Array): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    // A copy of exactly these bytes (a small Buffer's .buffer is a shared pool), handed over to the thread.
    const copy = new Uint8Array(bytes).buffer;
    const worker = new Worker(WORKER_URL, {
      workerData: { bytes: copy, maxPages: MAX_PDF_PAGES },
      transferList: [copy],
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (answer: WorkerAnswer) => settle(() => resolve(answer)));
    worker.once('error', (error) => settle(() => reject(new Error(`Reading the PDF failed: ${error.message}`))));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`Reading the PDF stopped unexpectedly (exit code ${code})`))),
    );
  });
}

const PAGE_NUMBER = /^(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:of|\/)\s*\d{1,4})?$/i;
const shape = (line: string) => line.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
const EDGE = 2;

/** Removes running headers, footers and page numbers; returns each page's remaining lines. */
export function dropRunningLines(pages: PdfLine[][]): PdfLine[][] {
  // Headings (larger type) are never running lines, even when every chapter opens a page with "Chapter N".
  const bodySize = median(pages.flat().map((l) => l.size));
  const edges = (lines: PdfLine[]) => {
    const byY = [...lines].sort((a, b) => b.y - a.y);
    return new Set([...byY.slice(0, EDGE), ...byY.slice(-EDGE)].filter((l) => l.size <= bodySize * 1.15));
  };
  const counts = new Map<string, number>();
  for (const page of pages) {
    const seen = new Set([...edges(page)].map((l) => shape(l.text)));
    for (const s of seen) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const threshold = Math.max(3, Math.ceil(pages.length / 2));
  return pages.map((page) => {
    const edge = edges(page);
    return page.filter(
      (l) => !(edge.has(l) && (PAGE_NUMBER.test(l.text) || (counts.get(shape(l.text)) ?? 0) >= threshold)),
    );
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Appends a line to a paragraph, joining a word hyphenated across the break. */
function joinLine(paragraph: string, line: string): string {
  if (paragraph === '') return line;
  if (/\p{L}-$/u.test(paragraph) && /^\p{Ll}/u.test(line)) return paragraph.slice(0, -1) + line;
  return `${paragraph} ${line}`;
}

/** Paragraphs of every page, each tagged with its page. A paragraph may run on over a page break. */
export function toParagraphs(pages: PdfLine[][]): { text: string; page: number }[] {
  const bodySize = median(pages.flat().map((l) => l.size));
  const out: { text: string; page: number }[] = [];
  let current: { text: string; page: number } | null = null;
  const flush = () => {
    if (current && current.text.trim() !== '') out.push(current);
    current = null;
  };
  pages.forEach((lines, pageIndex) => {
    const sorted = [...lines].sort((a, b) => b.y - a.y);
    const gaps = sorted
      .slice(1)
      .map((l, i) => sorted[i]!.y - l.y)
      .filter((g) => g > 0);
    const usual = median(gaps) || bodySize * 1.2;
    // A page break ends the paragraph unless its last line runs on (no sentence end).
    if (current !== null && /[.!?:"”’)]$/.test((current as { text: string }).text)) flush();
    sorted.forEach((line, i) => {
      const heading = line.size > bodySize * 1.15;
      const gap = i === 0 ? 0 : sorted[i - 1]!.y - line.y;
      const previousHeading = i > 0 && sorted[i - 1]!.size > bodySize * 1.15;
      if (heading || previousHeading || gap > usual * 1.4) flush();
      current ??= { text: '', page: pageIndex };
      current.text = joinLine(current.text, line.text);
      if (heading) flush();
    });
  });
  flush();
  return out;
}

export async function readPdf(bytes: Uint8Array): Promise<ParsedDocument> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-'))
    throw new IngestError(
      'unsupported',
      'The file is not a PDF: it does not start like one. Choose the .pdf file itself',
    );
  const answer = await readInWorker(bytes);
  if (!answer.ok) {
    if (answer.reason === 'password')
      throw new IngestError(
        'invalid',
        'This PDF is protected by a password, so it cannot be read. Use a copy without a password',
      );
    if (answer.reason === 'too_many_pages') {
      throw new IngestError(
        'invalid',
        `The PDF has ${answer.pages} pages; at most ${MAX_PDF_PAGES.toLocaleString('en-US')} can be read`,
      );
    }
    throw new IngestError(
      'invalid',
      'The PDF is damaged or incomplete, so it cannot be read. Download it again and upload the whole file',
    );
  }
  const letters = answer.pages.flat().reduce((n, l) => n + (l.text.match(/\p{L}/gu)?.length ?? 0), 0);
  if (letters < Math.max(1, answer.pages.length) * MIN_LETTERS_PER_PAGE) {
    throw new IngestError(
      'invalid',
      'This PDF has no text layer: its pages are pictures (a scan), and Lectio does not recognise text in images. Use a PDF with selectable text, or an EPUB',
    );
  }
  const paragraphs = toParagraphs(dropRunningLines(answer.pages));
  const outline = answer.outline
    .filter((e) => e.page >= 0 && e.page < answer.pages.length)
    .sort((a, b) => a.page - b.page);

  let chapters: ParsedDocument['chapters'];
  let text: string;
  if (outline.length >= 2) {
    // Each entry starts at its heading on its page, else at the page's first paragraph.
    const norm = (s: string) => s.toLowerCase().replace(/\W+/g, ' ').trim();
    const starts = outline.map((e) => {
      const onPage = paragraphs.findIndex((p) => p.page === e.page && norm(p.text).startsWith(norm(e.title)));
      const first = paragraphs.findIndex((p) => p.page >= e.page);
      return { title: e.title, at: onPage >= 0 ? onPage : first === -1 ? paragraphs.length : first };
    });
    const sections = [{ title: 'Opening', paragraphs: paragraphs.slice(0, starts[0]!.at).map((p) => p.text) }];
    starts.forEach((s, i) =>
      sections.push({
        title: s.title,
        paragraphs: paragraphs.slice(s.at, starts[i + 1]?.at ?? paragraphs.length).map((p) => p.text),
      }),
    );
    ({ text, chapters } = joinSections(sections));
  } else {
    ({ text } = joinSections([{ title: 'Text', paragraphs: paragraphs.map((p) => p.text) }]));
  }
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim() || undefined;
  return { format: 'pdf', text, title: clean(answer.info.title), author: clean(answer.info.author), chapters };
}
