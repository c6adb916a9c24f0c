/**
 * The input formats: the kinds of file a reader may upload to be read aloud, as the server reads
 * them (docs/formats.md). Not to be confused with the download formats a finished book is offered
 * in (src/features/exports/download-formats.ts).
 */
export const INPUT_FORMATS: readonly { label: string; extensions: readonly string[]; mimeTypes: readonly string[] }[] =
  [
    { label: 'Plain text', extensions: ['.txt'], mimeTypes: ['text/plain'] },
    { label: 'EPUB', extensions: ['.epub'], mimeTypes: ['application/epub+zip'] },
    { label: 'PDF', extensions: ['.pdf'], mimeTypes: ['application/pdf'] },
    { label: 'Markdown', extensions: ['.md', '.markdown'], mimeTypes: ['text/markdown'] },
    { label: 'HTML', extensions: ['.html', '.htm'], mimeTypes: ['text/html'] },
  ];

/** The file input's `accept`: every input format's extensions, then their media types. */
export const INPUT_FORMAT_ACCEPT = [
  ...INPUT_FORMATS.flatMap((f) => f.extensions),
  ...INPUT_FORMATS.flatMap((f) => f.mimeTypes),
].join(',');

const main = INPUT_FORMATS.map((f) => f.extensions[0]);
/** "Please upload a .txt, .epub, .pdf, .md or .html file". */
export const WRONG_INPUT_FORMAT = `Please upload a ${main.slice(0, -1).join(', ')} or ${main.at(-1)} file`;

/** A .txt file is read in the browser too (its text fills the character counter). */
export function isPlainText(file: File): boolean {
  return file.name.toLowerCase().endsWith('.txt') || file.type === 'text/plain';
}

/**
 * Whether the file is in an input format, by its name's extension (browsers give most of these
 * files no media type or a wrong one), or plain text by its type.
 */
export function isInputFormat(file: File): boolean {
  const name = file.name.toLowerCase();
  return INPUT_FORMATS.some((f) => f.extensions.some((extension) => name.endsWith(extension))) || isPlainText(file);
}
