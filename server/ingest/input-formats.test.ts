import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { makeEpub3, SAMPLE_CHAPTERS } from '../testing/books';
import { MAX_EPUB_ENTRIES, readEpub } from './epub';
import { IngestError } from './errors';
import { readMarkdown } from './markdown';
import { dropRunningLines, toParagraphs, type PdfLine } from './pdf';

const chapterText = (doc: Awaited<ReturnType<typeof readEpub>>) =>
  doc.chapters!.map((c) => [c.title, doc.text.slice(c.start, c.end)]);

async function refusal(fn: () => unknown): Promise<IngestError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof IngestError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('EPUB', async () => {
  it('accepts the font obfuscation of embedded fonts (not DRM)', async () => {
    const encryption = `<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/><enc:CipherData><enc:CipherReference URI="OEBPS/fonts/serif.otf"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const doc = await readEpub(makeEpub3({ extra: { 'META-INF/encryption.xml': strToU8(encryption) } }));
    expect(doc.chapters?.map((c) => c.title)).toEqual(SAMPLE_CHAPTERS.map((c) => c.title));
  });

  it('refuses an archive with more entries than a book needs', async () => {
    const extra = Object.fromEntries(
      Array.from({ length: MAX_EPUB_ENTRIES }, (_v, i) => [`OEBPS/x/${i}.txt`, strToU8('x')]),
    );
    const error = await refusal(() => readEpub(makeEpub3({ extra })));
    expect([error.kind, error.message]).toEqual([
      'invalid',
      'The EPUB holds more than 5,000 files, more than a book needs; it was not opened',
    ]);
  });

  it('refuses a damaged archive and one without an EPUB package', async () => {
    const damaged = await refusal(() => readEpub(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5])));
    expect([damaged.kind, damaged.message]).toEqual([
      'unsupported',
      'This file is not an EPUB book: the ZIP archive is damaged or incomplete',
    ]);
    const plainZip = await refusal(() => readEpub(zipSync({ 'notes.txt': strToU8('hello') })));
    expect([plainZip.kind, plainZip.message]).toEqual([
      'unsupported',
      'This file is not an EPUB book: it is a ZIP archive without a book inside. Choose the .epub file itself',
    ]);
  });

  it('says a Word document renamed to .epub is not an EPUB book, and what to do', async () => {
    const docx = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'word/document.xml': strToU8('<w:document/>'),
      'docProps/core.xml': strToU8('<cp:coreProperties/>'),
    });
    const refused = await refusal(() => readEpub(docx));
    expect([refused.kind, refused.message]).toEqual([
      'unsupported',
      'This file is not an EPUB book: it is a Word document (.docx). Save it as EPUB or PDF, or paste its text',
    ]);
    expect(refused.message).not.toMatch(/META-INF|container\.xml/);
  });

  it('starts a chapter at the element a TOC entry points to inside a file', async () => {
    const page = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><h2 id="a">First Part</h2><p>One two three four five six seven.</p><h2 id="b">Second Part</h2><p>Eight nine ten eleven twelve thirteen.</p></body></html>`;
    const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="one.xhtml#a">First Part</a></li><li><a href="one.xhtml#b">Second Part</a></li></ol></nav></body></html>`;
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Parts</dc:title></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="one" href="one.xhtml" media-type="application/xhtml+xml"/><item id="svg" href="c.svg" media-type="image/svg+xml" properties="cover-image"/></manifest><spine><itemref idref="one"/></spine></package>`;
    const doc = await readEpub(
      zipSync({
        mimetype: strToU8('application/epub+zip'),
        'META-INF/container.xml': strToU8(
          `<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>`,
        ),
        'content.opf': strToU8(opf),
        'nav.xhtml': strToU8(nav),
        'one.xhtml': strToU8(page),
        'c.svg': strToU8('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      }),
    );
    expect(chapterText(doc)).toEqual([
      ['First Part', 'First Part\n\nOne two three four five six seven.'],
      ['Second Part', 'Second Part\n\nEight nine ten eleven twelve thirteen.'],
    ]);
    // An SVG "cover" is not an image the server serves.
    expect(doc.cover).toBeUndefined();
    expect(doc.author).toBeUndefined();
  });
});

describe('Markdown', () => {
  it('without headings has no chapters of its own, and reads no code or images', () => {
    const doc = readMarkdown(
      strToU8(
        'Just *one* piece of text with `inline code`.\n\n    indented code\n\n![alt words](x.png)\n\n> A quoted line.\n',
      ),
    );
    expect(doc.chapters).toBeUndefined();
    expect(doc.title).toBeUndefined();
    expect(doc.text).toBe('Just one piece of text with inline code.\n\nA quoted line.');
  });

  it('keeps deeper headings inside their chapter', () => {
    const doc = readMarkdown(
      strToU8('# One\n\nAlpha words here now.\n\n### Aside\n\nMore words.\n\n# Two\n\nBeta words here now.\n'),
    );
    expect(doc.chapters?.map((c) => [c.title, doc.text.slice(c.start, c.end)])).toEqual([
      ['One', 'One\n\nAlpha words here now.\n\nAside\n\nMore words.'],
      ['Two', 'Two\n\nBeta words here now.'],
    ]);
  });

  it('refuses a file that is not UTF-8', async () => {
    const error = await refusal(() => readMarkdown(new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x41])));
    expect(error.kind).toBe('unsupported');
  });
});

describe('PDF text', () => {
  const page = (n: number, body: string[]): PdfLine[] => [
    { text: `The Long Road ${n}`, y: 760, size: 9 },
    ...body.map((text, i) => ({ text, y: 700 - i * 16, size: 12 })),
    { text: `Page ${n} of 4`, y: 40, size: 9 },
  ];

  it('drops running headers and page numbers, keeps repeated lines in the body', () => {
    const words = ['river', 'mill', 'bridge', 'orchard'];
    const body = (w: string) => [
      `The ${w} came into view.`,
      `Nobody spoke of the ${w}.`,
      'A refrain.',
      `They left the ${w} behind.`,
      `Night fell over the ${w}.`,
    ];
    const pages = [1, 2, 3, 4].map((n) => page(n, body(words[n - 1]!)));
    const kept = dropRunningLines(pages);
    expect(kept.map((p) => p.map((l) => l.text))).toEqual(words.map(body));
  });

  it('joins hyphenated words and runs a sentence on over a page break', () => {
    const paragraphs = toParagraphs([
      [
        { text: 'The road went on for a won-', y: 700, size: 12 },
        { text: 'derful while, past the old', y: 684, size: 12 },
      ],
      [
        { text: 'mill and the well-known inn, and', y: 700, size: 12 },
        { text: 'on to the sea.', y: 684, size: 12 },
        { text: 'A new paragraph starts here.', y: 646, size: 12 },
        { text: 'It goes on a little.', y: 630, size: 12 },
      ],
    ]);
    expect(paragraphs.map((p) => p.text)).toEqual([
      'The road went on for a wonderful while, past the old mill and the well-known inn, and on to the sea.',
      'A new paragraph starts here. It goes on a little.',
    ]);
  });
});
