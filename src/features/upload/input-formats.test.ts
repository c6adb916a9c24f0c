import { describe, expect, it } from 'vitest';
import { INPUT_FORMAT_ACCEPT, isInputFormat, isPlainText, WRONG_INPUT_FORMAT } from './input-formats';

describe('input formats', () => {
  it("gives the file input every format's extensions, then their media types", () => {
    expect(INPUT_FORMAT_ACCEPT).toBe(
      '.txt,.epub,.pdf,.md,.markdown,.html,.htm,text/plain,application/epub+zip,application/pdf,text/markdown,text/html',
    );
  });

  it("names each format's main extension when a file is in none of them", () => {
    expect(WRONG_INPUT_FORMAT).toBe('Please upload a .txt, .epub, .pdf, .md or .html file');
  });

  it('knows a file by its extension, or plain text by its type', () => {
    for (const name of ['a.TXT', 'book.epub', 'book.pdf', 'notes.md', 'notes.markdown', 'page.html', 'page.HTM'])
      expect(isInputFormat(new File(['x'], name))).toBe(true);
    expect(isInputFormat(new File(['x'], 'notes', { type: 'text/plain' }))).toBe(true);
    expect(isInputFormat(new File(['x'], 'a.docx'))).toBe(false);
    expect(isInputFormat(new File(['x'], 'epub'))).toBe(false);
  });

  it('reads only plain text in the browser', () => {
    expect(isPlainText(new File(['x'], 'a.txt'))).toBe(true);
    expect(isPlainText(new File(['x'], 'book.epub'))).toBe(false);
  });
});
