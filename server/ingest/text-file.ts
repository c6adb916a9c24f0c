/**
 * Reading uploaded .txt files and normalising any incoming text (uploads, pasted content,
 * plain-text pages) before it is planned into chapters and narrated.
 */
import { IngestError, formatMegabytes } from './errors';

export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Normalises text without destroying structure:
 * - removes a leading byte-order mark;
 * - CRLF and lone CR become LF; U+2028/U+2029 become LF; a form feed becomes a blank line;
 * - trailing spaces and tabs at line ends are removed;
 * - other control characters (except tab and newline) are removed;
 * - leading and trailing blank lines are removed.
 * Runs of blank lines are kept as they are: three or more blank lines are a chapter hint
 * used by planBook.
 */
export function normaliseText(text: string): string {
  return (
    text
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n')
      .replace(/[\u2028\u2029]/g, '\n')
      .replace(/\f/g, '\n\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g, '')
      .replace(/[ \t\u00a0]+$/gm, '')
      .replace(/^\n+/, '')
      .replace(/\s+$/, '')
  );
}

/**
 * The text of an uploaded UTF-8 document (Markdown, HTML): a clear error when it is another
 * encoding, or binary (a NUL byte) dressed as one. `kind` names it in messages ("Markdown file").
 */
export function decodeUtf8Document(bytes: Uint8Array, kind: string, looksLike: string): string {
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new IngestError(
      'unsupported',
      `The ${kind} is not UTF-8 text. Save it with UTF-8 encoding and upload it again`,
    );
  }
  if (source.includes('\u0000')) throw new IngestError('unsupported', `The file does not look like ${looksLike}`);
  return source;
}

const notText = () => new IngestError('unsupported', 'The file does not look like text');

/** Share of control characters (other than tab, newline, carriage return, form feed) above which a file is binary. */
const MAX_CONTROL_SHARE = 0.01;

function decode(bytes: Uint8Array): string {
  const b0 = bytes[0];
  const b1 = bytes[1];
  try {
    if (b0 === 0xff && b1 === 0xfe) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes);
    if (b0 === 0xfe && b1 === 0xff) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes);
  } catch {
    throw notText();
  }
  if (bytes.includes(0)) throw notText();
  try {
    // ignoreBOM false (the default) strips a UTF-8 BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new IngestError(
      'unsupported',
      'The file is not UTF-8 text. Save it with UTF-8 encoding (for example with "Save As" in a text editor) and upload it again',
    );
  }
}

/**
 * Validates and decodes an uploaded file. Only .txt files, at most `maxBytes`, UTF-8 (a UTF-8
 * BOM is stripped; files with a UTF-16 BOM are decoded as UTF-16), not binary, not empty.
 * Returns normalised text (see normaliseText).
 */
export function readTextUpload(bytes: Uint8Array, filename: string, maxBytes = DEFAULT_MAX_UPLOAD_BYTES): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  if (!/\.txt$/i.test(base.trim())) throw new IngestError('unsupported', 'Only .txt files can be uploaded');
  if (bytes.byteLength > maxBytes)
    throw new IngestError('too_large', `The file is larger than ${formatMegabytes(maxBytes)}`);

  const decoded = decode(bytes);

  let control = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 127 || c === 0xfffd) control++;
  }
  if (control > 0 && control / Math.max(1, decoded.length) > MAX_CONTROL_SHARE) throw notText();
  if (decoded.includes('\u0000')) throw notText();

  const text = normaliseText(decoded);
  if (text.trim() === '') throw new IngestError('invalid', 'The file is empty');
  return text;
}
