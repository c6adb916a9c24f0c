/**
 * Test kit: a small PDF writer for fixture books. Pages of Helvetica text lines (a standard
 * font, nothing embedded), a running header and a page number on every page, an outline
 * (bookmarks) and document info. Or pages with no text at all, as a scanned book has.
 */
import type { BookChapter } from './books';

export interface PdfOptions {
  title?: string;
  author?: string;
  chapters: BookChapter[];
  /** A line at the top of every page. */
  runningHeader?: string;
  /** Page numbers at the bottom of every page. */
  pageNumbers?: boolean;
  /** Bookmarks to each chapter's first page. */
  outline?: boolean;
  /** Characters per text line (long paragraphs wrap; a word cut at a line end gets a hyphen). */
  lineLength?: number;
}

const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');

/** Wraps a paragraph into lines; a long word that does not fit is cut with a hyphen, as typesetters do. */
function wrap(paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/)) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else if (/^[a-z]{8,}[.,]?$/.test(word) && line.length + 5 <= width) {
      const cut = Math.floor(word.length / 2);
      lines.push(`${line} ${word.slice(0, cut)}-`);
      line = word.slice(cut);
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

interface Page {
  lines: { text: string; y: number; size: number }[];
}

function layout(options: PdfOptions): { pages: Page[]; chapterPages: number[] } {
  const width = options.lineLength ?? 60;
  const pages: Page[] = [];
  const chapterPages: number[] = [];
  const top = 720;
  const bottom = 90;
  let page: Page | null = null;
  let y = top;
  const newPage = () => {
    page = { lines: [] };
    pages.push(page);
    y = top;
  };
  const put = (text: string, size = 12, gapBefore = 0) => {
    if (page === null || y - gapBefore < bottom) newPage();
    y -= page!.lines.length === 0 ? 0 : gapBefore;
    page!.lines.push({ text, y, size });
    y -= size + 4;
  };
  for (const chapter of options.chapters) {
    newPage();
    chapterPages.push(pages.length - 1);
    put(chapter.title, 18);
    for (const para of chapter.paragraphs) wrap(para, width).forEach((line, i) => put(line, 12, i === 0 ? 12 : 0));
  }
  return { pages, chapterPages };
}

/** A PDF of the chapters, each starting on a new page. */
export function makePdf(options: PdfOptions): Buffer {
  const { pages, chapterPages } = layout(options);
  return writePdf(
    pages.map((p, i) => {
      const ops: string[] = [];
      const text = (s: string, x: number, y: number, size: number) =>
        ops.push(`BT /F1 ${size} Tf ${x} ${y} Td (${escape(s)}) Tj ET`);
      if (options.runningHeader) text(options.runningHeader, 72, 760, 9);
      for (const line of p.lines) text(line.text, 72, line.y, line.size);
      if (options.pageNumbers) text(String(i + 1), 300, 40, 9);
      return ops.join('\n');
    }),
    {
      title: options.title,
      author: options.author,
      outline: options.outline ? options.chapters.map((c, i) => ({ title: c.title, page: chapterPages[i]! })) : [],
    },
  );
}

/** A PDF whose pages only hold drawn shapes: no text layer, like a scanned book. */
export function makeScannedPdf(pages = 3): Buffer {
  return writePdf(
    Array.from({ length: pages }, () => '0.5 g 72 100 450 600 re f'),
    {},
  );
}

function writePdf(
  contents: string[],
  meta: { title?: string | undefined; author?: string | undefined; outline?: { title: string; page: number }[] },
): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) as number; // returns the object's number
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageNums: number[] = [];
  for (const content of contents) {
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    pageNums.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  objects[pagesObj - 1] =
    `<< /Type /Pages /Kids [${pageNums.map((n) => `${n} 0 R`).join(' ')}] /Count ${pageNums.length} >>`;
  let outlineRef = '';
  const entries = meta.outline ?? [];
  if (entries.length > 0) {
    const root = add('');
    const items = entries.map(() => add(''));
    items.forEach((n, i) => {
      const e = entries[i]!;
      objects[n - 1] =
        `<< /Title (${escape(e.title)}) /Parent ${root} 0 R /Dest [${pageNums[e.page]} 0 R /XYZ 0 792 0]` +
        `${i > 0 ? ` /Prev ${items[i - 1]} 0 R` : ''}${i < items.length - 1 ? ` /Next ${items[i + 1]} 0 R` : ''} >>`;
    });
    objects[root - 1] =
      `<< /Type /Outlines /First ${items[0]} 0 R /Last ${items[items.length - 1]} 0 R /Count ${items.length} >>`;
    outlineRef = ` /Outlines ${root} 0 R /PageMode /UseOutlines`;
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R${outlineRef} >>`;
  const infoParts = [
    meta.title ? `/Title (${escape(meta.title)})` : '',
    meta.author ? `/Author (${escape(meta.author)})` : '',
  ].filter(Boolean);
  const info = infoParts.length > 0 ? add(`<< ${infoParts.join(' ')} >>`) : 0;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
