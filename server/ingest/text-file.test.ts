import { describe, expect, it } from 'vitest';
import { normaliseText, readTextUpload } from './text-file';
import { IngestError } from './errors';

const enc = (s: string) => new TextEncoder().encode(s);

function failure(fn: () => unknown): IngestError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(IngestError);
    return err as IngestError;
  }
  throw new Error('expected a failure');
}

describe('readTextUpload', () => {
  it('reads a UTF-8 .txt file (any case of the extension) and normalises line endings', () => {
    expect(readTextUpload(enc('Once upon a time,\r\nthere was a café.\r\n'), 'Story.TXT')).toBe(
      'Once upon a time,\nthere was a café.',
    );
  });

  it('strips a UTF-8 byte-order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('Hello')]);
    expect(readTextUpload(bytes, 'a.txt')).toBe('Hello');
  });

  it('decodes UTF-16 files that start with a byte-order mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Ünïcode story\r\n', 'utf16le')]);
    expect(readTextUpload(new Uint8Array(le), 'le.txt')).toBe('Ünïcode story');
    const beBody = Buffer.from('Big end', 'utf16le').swap16();
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), beBody]);
    expect(readTextUpload(new Uint8Array(be), 'be.txt')).toBe('Big end');
  });

  it('only accepts .txt files', () => {
    for (const name of ['book.pdf', 'book.txt.exe', 'notes', 'story.docx']) {
      const err = failure(() => readTextUpload(enc('text'), name));
      expect(err.kind).toBe('unsupported');
      expect(err.message).toBe('Only .txt files can be uploaded');
    }
  });

  it('refuses files over the size limit', () => {
    const err = failure(() => readTextUpload(new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61), 'big.txt'));
    expect(err.kind).toBe('too_large');
    expect(err.message).toBe('The file is larger than 10 MB');
    expect(failure(() => readTextUpload(enc('abcdef'), 'a.txt', 5)).kind).toBe('too_large');
  });

  it('refuses binary files renamed to .txt', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const err = failure(() => readTextUpload(png, 'image.txt'));
    expect(err.kind).toBe('unsupported');
    expect(err.message).toBe('The file does not look like text');
    const controls = enc('ab\u0001\u0002\u0003\u0004cd\u0005\u0006\u0007\u0008efgh');
    expect(failure(() => readTextUpload(controls, 'c.txt')).message).toBe('The file does not look like text');
  });

  it('refuses text that is not UTF-8 with advice', () => {
    const latin1 = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x61, 0x75, 0x20, 0x6c, 0x61, 0x69, 0x74]);
    const err = failure(() => readTextUpload(latin1, 'old.txt'));
    expect(err.kind).toBe('unsupported');
    expect(err.message).toMatch(/UTF-8/);
  });

  it('refuses empty and whitespace-only files', () => {
    for (const body of ['', '   \r\n\t\n ']) {
      const err = failure(() => readTextUpload(enc(body), 'empty.txt'));
      expect(err.kind).toBe('invalid');
      expect(err.message).toBe('The file is empty');
    }
  });
});

describe('normaliseText', () => {
  it('keeps paragraph breaks and 3+ blank-line chapter hints, removing CRs, BOM and trailing spaces', () => {
    const input = '\uFEFFPart one.   \r\n\r\nStill one.\t\r\n\r\n\r\n\r\nPart two.\rEnd  ';
    expect(normaliseText(input)).toBe('Part one.\n\nStill one.\n\n\n\nPart two.\nEnd');
  });

  it('keeps indentation at the start of lines and removes stray control characters', () => {
    expect(normaliseText('  Poem line\n    indented\u0007 line')).toBe('  Poem line\n    indented line');
  });
});
