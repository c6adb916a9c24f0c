/**
 * Test kit: books in each upload format, written by the tests themselves (EPUB with fflate, the
 * same zip library the server reads them with), and a multipart body for POST /files.
 */
import { zipSync, strToU8, type Zippable } from 'fflate';

/** A 1x1 PNG: a real image, so the cover check (by signature) accepts it. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export interface BookChapter {
  title: string;
  paragraphs: string[];
}

export const SAMPLE_CHAPTERS: BookChapter[] = [
  {
    title: 'The Keeper',
    paragraphs: [
      'The lighthouse keeper climbed the stairs at dusk. He lit the great lamp and watched the ships pass the rocks.',
      'The sea was calm that night, and the stars were bright above the bay.',
    ],
  },
  {
    title: 'The Storm',
    paragraphs: [
      'A storm came from the west before dawn. The waves broke over the harbour wall and the boats pulled at their ropes.',
      'He kept the lamp burning until the sky turned grey and the wind began to fall.',
    ],
  },
  {
    title: 'The Morning',
    paragraphs: [
      'In the morning the fishermen came to thank him. They brought bread, smoked fish and a bottle of dark wine.',
      'He thanked them, closed the door and slept until the afternoon sun reached his window.',
    ],
  },
];

const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>${title}</title></head><body>${body}</body></html>`;

/**
 * Chapter pages with what a real book has around the words: a footnote marker and its note, a
 * page-number marker, an image with alt text.
 */
function chapterPage(ch: BookChapter, i: number): string {
  const [first = '', ...rest] = ch.paragraphs;
  return xhtml(
    ch.title,
    `<section id="c${i + 1}"><h1>${ch.title}</h1>` +
      `<p>${first}<a epub:type="noteref" href="#fn${i + 1}" id="r${i + 1}">${i + 1}</a></p>` +
      `<span epub:type="pagebreak" id="page${i + 10}" title="${i + 10}"/>` +
      `<div class="figure"><img src="pic.png" alt="A drawing of a gull over the water"/></div>` +
      rest.map((p) => `<p>${p}&nbsp;</p>`).join('') +
      `<aside epub:type="footnote" id="fn${i + 1}"><p>Footnote text that is never read aloud.</p></aside></section>`,
  );
}

const CONTAINER = `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;

export interface EpubOptions {
  title?: string;
  author?: string;
  chapters?: BookChapter[];
  cover?: boolean;
  /** Extra archive entries (for encryption.xml and the like). */
  extra?: Zippable;
}

/** An EPUB 3 book: nav document, cover-image property, a title page before the first TOC entry. */
export function makeEpub3(options: EpubOptions = {}): Uint8Array {
  const { title = 'The Lighthouse', author = 'Ada Marlow', chapters = SAMPLE_CHAPTERS, cover = true } = options;
  const items = chapters
    .map((_c, i) => `<item id="ch${i + 1}" href="text/ch${i + 1}.xhtml" media-type="application/xhtml+xml"/>`)
    .join('');
  const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:1</dc:identifier><dc:title>${title}</dc:title><dc:creator>${author}</dc:creator><dc:language>en</dc:language></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="title" href="text/title.xhtml" media-type="application/xhtml+xml"/>${items}${cover ? '<item id="cover" href="images/cover.png" media-type="image/png" properties="cover-image"/>' : ''}</manifest>
<spine><itemref idref="title"/>${chapters.map((_c, i) => `<itemref idref="ch${i + 1}"/>`).join('')}</spine></package>`;
  const nav = xhtml(
    'Contents',
    `<nav epub:type="toc"><h1>Contents</h1><ol>${chapters.map((c, i) => `<li><a href="text/ch${i + 1}.xhtml#c${i + 1}">${c.title}</a></li>`).join('')}</ol></nav>`,
  );
  const files: Zippable = {
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(CONTAINER),
    'OEBPS/content.opf': strToU8(opf),
    'OEBPS/nav.xhtml': strToU8(nav),
    'OEBPS/text/title.xhtml': strToU8(xhtml(title, `<h1>${title}</h1><p>${author}</p>`)),
    ...Object.fromEntries(chapters.map((c, i) => [`OEBPS/text/ch${i + 1}.xhtml`, strToU8(chapterPage(c, i))])),
    ...(cover && { 'OEBPS/images/cover.png': PNG_1X1 }),
    ...options.extra,
  };
  return zipSync(files);
}

/** An EPUB 2 book: NCX table of contents, `<meta name="cover">`, no fragments in the TOC. */
export function makeEpub2(options: EpubOptions = {}): Uint8Array {
  const { title = 'Harbour Days', author = 'Tom Reed', chapters = SAMPLE_CHAPTERS, cover = true } = options;
  const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf"><dc:identifier id="id">urn:uuid:2</dc:identifier><dc:title>${title}</dc:title><dc:creator opf:role="aut">${author}</dc:creator><dc:creator opf:role="ill">Some Illustrator</dc:creator>${cover ? '<meta name="cover" content="cover-img"/>' : ''}</metadata>
<manifest><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>${chapters.map((_c, i) => `<item id="ch${i + 1}" href="ch${i + 1}.html" media-type="application/xhtml+xml"/>`).join('')}${cover ? '<item id="cover-img" href="cover.png" media-type="image/png"/>' : ''}</manifest>
<spine toc="ncx">${chapters.map((_c, i) => `<itemref idref="ch${i + 1}"/>`).join('')}</spine></package>`;
  const ncx = `<?xml version="1.0" encoding="utf-8"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>${chapters
    .map(
      (c, i) =>
        `<navPoint id="n${i + 1}" playOrder="${i + 1}"><navLabel><text>${c.title}</text></navLabel><content src="ch${i + 1}.html"/></navPoint>`,
    )
    .join('')}</navMap></ncx>`;
  return zipSync({
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(CONTAINER),
    'OEBPS/content.opf': strToU8(opf),
    'OEBPS/toc.ncx': strToU8(ncx),
    ...Object.fromEntries(chapters.map((c, i) => [`OEBPS/ch${i + 1}.html`, strToU8(chapterPage(c, i))])),
    ...(cover && { 'OEBPS/cover.png': PNG_1X1 }),
    ...options.extra,
  });
}

/** An EPUB whose content files are declared encrypted (as DRM does). */
export function makeEncryptedEpub(): Uint8Array {
  const encryption = `<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/text/ch1.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`;
  return makeEpub3({ extra: { 'META-INF/encryption.xml': strToU8(encryption) } });
}

/** An EPUB-shaped archive with one entry of `bytes` zeros (a few hundred KB compressed). */
export function makeZipBomb(bytes: number): Uint8Array {
  return makeEpub3({ extra: { 'OEBPS/padding.bin': [new Uint8Array(bytes), { level: 1 }] } });
}

/**
 * Rewrites what an archive's local header and central directory say about entry `name`: its
 * uncompressed size and/or its CRC-32, leaving the data as it is (what a hostile or damaged file
 * looks like).
 */
export function patchZipEntry(zip: Uint8Array, name: string, patch: { size?: number; crc?: number }): Uint8Array {
  const out = Buffer.from(zip);
  const wanted = Buffer.from(name, 'utf8');
  let patched = false;
  for (let at = 0; at + 46 <= out.length; at += 1) {
    if (out.readUInt32LE(at) !== 0x02014b50) continue;
    const nameLength = out.readUInt16LE(at + 28);
    if (!out.subarray(at + 46, at + 46 + nameLength).equals(wanted)) continue;
    const local = out.readUInt32LE(at + 42);
    if (patch.crc !== undefined) {
      out.writeUInt32LE(patch.crc >>> 0, at + 16);
      out.writeUInt32LE(patch.crc >>> 0, local + 14);
    }
    if (patch.size !== undefined) {
      out.writeUInt32LE(patch.size, at + 24);
      out.writeUInt32LE(patch.size, local + 22);
    }
    patched = true;
  }
  if (!patched) throw new Error(`no entry ${name} in the archive`);
  return out;
}

/**
 * An EPUB whose first chapter holds `actualBytes` (its page, then blank padding, deflated to a
 * small fraction) while the archive declares only `declaredBytes` for it: the "lying" book of a
 * zip bomb that hides from a check of the declared sizes. Several chapters lie with `entries`.
 */
export function makeLyingEpub(actualBytes: number, declaredBytes = 2000, entries = 1): Uint8Array {
  const chapters = Array.from({ length: Math.max(entries, SAMPLE_CHAPTERS.length) }, (_v, i) => ({
    ...SAMPLE_CHAPTERS[i % SAMPLE_CHAPTERS.length]!,
    title: `Part ${i + 1}`,
  }));
  const padded: Zippable = {};
  for (let i = 0; i < entries; i += 1) {
    const page = strToU8(chapterPage(chapters[i]!, i));
    const data = new Uint8Array(Math.max(actualBytes, page.length));
    data.fill(0x20);
    data.set(page);
    padded[`OEBPS/text/ch${i + 1}.xhtml`] = [data, { level: 9 }];
  }
  let zip = makeEpub3({ chapters, extra: padded });
  for (let i = 0; i < entries; i += 1) zip = patchZipEntry(zip, `OEBPS/text/ch${i + 1}.xhtml`, { size: declaredBytes });
  return zip;
}

/** An EPUB with one chapter of about `chars` characters of ordinary paragraphs: heavy to read, and legal. */
export function makeLongEpub(chars: number): Uint8Array {
  const sentence = 'The river ran past the old mill, and the miller counted the sacks of grain by lamplight. ';
  const paragraphs: string[] = [];
  for (let total = 0; total < chars; total += sentence.length * 8) paragraphs.push(sentence.repeat(8).trim());
  return makeEpub3({ chapters: [{ title: 'The Long Chapter', paragraphs }, ...SAMPLE_CHAPTERS] });
}

/** An HTML article of about `chars` characters in many paragraphs and nested sections. */
export function longPage(chars: number): string {
  const paragraph = '<p>The river ran past the old mill, and the miller counted the sacks of grain by lamplight.</p>';
  const sections: string[] = [];
  for (let total = 0; total < chars; total += paragraph.length * 10) {
    sections.push(`<section><div class="body">${paragraph.repeat(10)}</div></section>`);
  }
  return `<!DOCTYPE html><html><head><title>The Mill</title></head><body><article><h1>The Mill</h1>${sections.join('')}</article></body></html>`;
}

/** The start of a Windows executable, named by the test as it likes. */
export const EXE_BYTES = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200, 0x41)]);

/** A Markdown book: a title, three chapters, markup that must not be read aloud. */
export function makeMarkdown(chapters: BookChapter[] = SAMPLE_CHAPTERS, title = 'Notes from the Coast'): string {
  const parts = [`# ${title}`, ''];
  chapters.forEach((c, i) => {
    parts.push(`## ${c.title}`, '');
    c.paragraphs.forEach((p, j) => {
      parts.push(j === 0 ? p.replace(/^(\w+)/, '**$1**') : `${p} See [the map](https://example.com/map-${i}).`, '');
    });
    parts.push('![A chart of the tides](tides.png)', '', '```', 'const notRead = true;', '```', '');
  });
  return parts.join('\n');
}

/** A multipart/form-data body with one file in the field `file`. */
export function multipartFile(
  filename: string,
  content: Uint8Array | string,
  contentType = 'application/octet-stream',
) {
  const boundary = '----lectio-books-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    typeof content === 'string' ? Buffer.from(content) : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
