/**
 * Reads an uploaded file by its extension: .txt, .epub, .pdf, .md/.markdown, .html/.htm. Every
 * refusal is an IngestError whose message says why in a reader's words. See docs/formats.md.
 */
import type { ParsedDocument } from './document';
import { IngestError, formatMegabytes } from './errors';
import { readPdf } from './pdf';
import { decodeUtf8Document, DEFAULT_MAX_UPLOAD_BYTES, readTextUpload } from './text-file';

export type UploadFormat = ParsedDocument['format'];

const EXTENSIONS: Record<string, UploadFormat> = {
  txt: 'txt',
  epub: 'epub',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  pdf: 'pdf',
};

/** Extensions the upload accepts, for messages and the SPA's file picker. */
export const ACCEPTED_EXTENSIONS = ['.txt', '.epub', '.pdf', '.md', '.html'] as const;

export function formatOf(filename: string): UploadFormat | null {
  const base = (filename.split(/[\\/]/).pop() ?? '').trim().toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot > 0 ? (EXTENSIONS[base.slice(dot + 1)] ?? null) : null;
}

async function readHtml(bytes: Uint8Array): Promise<ParsedDocument> {
  const source = decodeUtf8Document(bytes, 'HTML file', 'an HTML page');
  const { extractArticle } = await import('./extract');
  let article;
  try {
    article = extractArticle(source, 'file:///upload.html');
  } catch (error) {
    if (error instanceof IngestError && error.kind === 'invalid') {
      throw new IngestError('invalid', 'No readable article was found in the HTML file');
    }
    throw error;
  }
  const title = article.title && article.title !== 'Untitled page' ? article.title : undefined;
  return { format: 'html', text: article.text, title };
}

/**
 * Validates and reads an upload of any accepted format. The readers of EPUB, Markdown and HTML
 * (and the DOM and Markdown parsers they use) are loaded with the first file that needs them.
 */
export async function readUpload(
  bytes: Uint8Array,
  filename: string,
  maxBytes = DEFAULT_MAX_UPLOAD_BYTES,
): Promise<ParsedDocument> {
  const format = formatOf(filename);
  if (format === null) {
    throw new IngestError(
      'unsupported',
      `Only ${ACCEPTED_EXTENSIONS.slice(0, -1).join(', ')} and ${ACCEPTED_EXTENSIONS.at(-1)} files can be uploaded`,
    );
  }
  if (bytes.byteLength > maxBytes)
    throw new IngestError('too_large', `The file is larger than ${formatMegabytes(maxBytes)}`);
  if (bytes.byteLength === 0) throw new IngestError('invalid', 'The file is empty');
  switch (format) {
    case 'txt':
      return { format, text: readTextUpload(bytes, filename, maxBytes) };
    case 'epub':
      return (await import('./epub')).readEpub(bytes);
    case 'markdown':
      return (await import('./markdown')).readMarkdown(bytes);
    case 'html':
      return readHtml(bytes);
    case 'pdf':
      return readPdf(bytes);
    default:
      throw new IngestError('unsupported', 'This kind of file cannot be uploaded');
  }
}
