/**
 * EPUB 2 and 3 books, read in memory with yauzl (zip.ts; never unpacked to disk), in the document
 * reader's thread (reader.ts).
 *
 * - Refused with 415: a file that is not a ZIP archive, or a ZIP without an EPUB package.
 * - Refused with 422: an archive over MAX_EPUB_ENTRIES entries or MAX_EPUB_UNCOMPRESSED_BYTES once
 *   expanded (a "zip bomb"; sizes are checked from the archive's directory before anything is
 *   expanded, and an entry is never expanded past its declared size); a damaged book: an entry whose
 *   data does not end at its declared size or whose checksum differs; a book whose content files
 *   are encrypted (DRM, declared in META-INF/encryption.xml; the font obfuscation EPUBs use for
 *   embedded fonts is not DRM and is accepted); a book with no readable text.
 * - Chapters: the table of contents (the EPUB 3 navigation document, else the EPUB 2 NCX) in
 *   spine order, titled from the TOC; an entry pointing into a file (`ch1.xhtml#part2`) starts
 *   its chapter at that element. Text before the first entry (title page, copyright) becomes an
 *   "Opening" chapter when it has words. Without a TOC, every spine document is a chapter titled
 *   by its first heading.
 * - Title and author from the OPF metadata (dc:title, dc:creator); the cover from the manifest
 *   item with properties="cover-image" (EPUB 3) or the one <meta name="cover"> names (EPUB 2).
 */
import { DOMParser } from 'linkedom';
import { joinSections, sniffImage, type DocumentCover, type ParsedDocument } from './document';
import { IngestError, formatMegabytes } from './errors';
import { xhtmlToText } from './xhtml-text';
import { ArchiveTooLarge, DamagedEntry, openBoundedZip } from './zip';

export const MAX_EPUB_ENTRIES = 5_000;
export const MAX_EPUB_UNCOMPRESSED_BYTES = 100 * 1024 * 1024;

/** Encryption algorithms that only obfuscate embedded fonts (not DRM). */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

const notEpub = (why: string) => new IngestError('unsupported', `This file is not an EPUB book: ${why}`);

/**
 * A ZIP archive with no EPUB package: say what it is when it is an office document renamed to
 * .epub (they are ZIP archives too), and what to do instead.
 */
function whatZipIsThis(names: readonly string[]): string {
  const has = (prefix: string) => names.some((name) => name.startsWith(prefix));
  if (has('word/')) return 'it is a Word document (.docx). Save it as EPUB or PDF, or paste its text';
  if (has('xl/')) return 'it is an Excel spreadsheet. Paste the text you want read instead';
  if (has('ppt/')) return 'it is a PowerPoint presentation. Save it as PDF, or paste its text';
  if (names.includes('content.xml')) return 'it is an OpenDocument file. Save it as EPUB or PDF, or paste its text';
  return 'it is a ZIP archive without a book inside. Choose the .epub file itself';
}

type XmlEl = {
  nodeType: number;
  localName: string;
  tagName: string;
  textContent: string | null;
  childNodes: ArrayLike<XmlEl>;
  getAttribute(name: string): string | null;
  querySelectorAll(s: string): ArrayLike<XmlEl>;
};

function parseXml(source: string): XmlEl {
  return new DOMParser().parseFromString(source, 'text/xml') as unknown as XmlEl;
}

/** Elements by local name (namespace prefixes ignored: dc:title, opf:meta, ncx:navPoint). */
function elements(root: XmlEl, name: string): XmlEl[] {
  const all = Array.from(root.querySelectorAll('*'));
  const lower = name.toLowerCase();
  return all.filter((e) => e.tagName.toLowerCase().replace(/^[a-z0-9]+:/, '') === lower);
}

function children(el: XmlEl, name: string): XmlEl[] {
  const lower = name.toLowerCase();
  return Array.from(el.childNodes).filter(
    (c) => c.nodeType === 1 && c.tagName.toLowerCase().replace(/^[a-z0-9]+:/, '') === lower,
  );
}

function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Resolves `href` (relative, URL-encoded, maybe with #fragment) against the folder of `base`. */
function resolve(base: string, href: string): { path: string; fragment: string } {
  const [raw = '', fragment = ''] = href.split('#', 2);
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // keep it as written
  }
  const parts = base.includes('/') ? base.slice(0, base.lastIndexOf('/')).split('/') : [];
  for (const seg of decoded.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return { path: raw === '' ? base : parts.join('/'), fragment };
}

interface Archive {
  names: string[];
  read(names: Set<string>): Promise<Record<string, Uint8Array>>;
}

/** Why an entry is damaged, in a reader's words, from what the archive reader found. */
function damageOf(error: DamagedEntry): string {
  if (/too many bytes/.test(error.message)) return `its file ${error.entry} holds more data than the book declares`;
  if (/not enough bytes/.test(error.message)) return `its file ${error.entry} ends before its declared size`;
  if (/checksum/.test(error.message)) return `its file ${error.entry} does not match its checksum`;
  return `its file ${error.entry} cannot be expanded`;
}

async function openArchive(bytes: Uint8Array): Promise<Archive> {
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)) {
    throw notEpub('it is not a ZIP archive. Choose the .epub file itself, not a file renamed to .epub');
  }
  let zip;
  try {
    zip = await openBoundedZip(bytes, { maxEntries: MAX_EPUB_ENTRIES, maxTotalBytes: MAX_EPUB_UNCOMPRESSED_BYTES });
  } catch (error) {
    if (error instanceof ArchiveTooLarge && error.reason === 'entries') {
      throw new IngestError(
        'invalid',
        `The EPUB holds more than ${MAX_EPUB_ENTRIES.toLocaleString('en-US')} files, more than a book needs; it was not opened`,
      );
    }
    if (error instanceof ArchiveTooLarge) {
      throw new IngestError(
        'invalid',
        `The EPUB expands to more than ${formatMegabytes(MAX_EPUB_UNCOMPRESSED_BYTES)}, more than a book needs; it was not opened`,
      );
    }
    throw notEpub('the ZIP archive is damaged or incomplete');
  }
  return {
    names: zip.names,
    async read(wanted) {
      try {
        return await zip.read(wanted);
      } catch (error) {
        if (error instanceof DamagedEntry) {
          throw new IngestError(
            'invalid',
            `The EPUB is damaged: ${damageOf(error)}. Download it again and upload the whole file`,
          );
        }
        throw error;
      }
    },
  };
}

const utf8 = new TextDecoder('utf-8');

function refuseDrm(encryptionXml: string | undefined): void {
  if (encryptionXml === undefined) return;
  const root = parseXml(encryptionXml);
  for (const data of elements(root, 'EncryptedData')) {
    const method = elements(data, 'EncryptionMethod')[0]?.getAttribute('Algorithm') ?? '';
    if (!FONT_OBFUSCATION.has(method)) {
      throw new IngestError(
        'invalid',
        'This EPUB is protected by DRM (its text is encrypted), so it cannot be read aloud. Use a DRM-free copy of the book',
      );
    }
  }
}

interface TocEntry {
  title: string;
  path: string;
  fragment: string;
}

function navEntries(navXml: string, navPath: string): TocEntry[] {
  const root = parseXml(navXml);
  const navs = elements(root, 'nav');
  const toc =
    navs.find((n) => /\btoc\b/.test(n.getAttribute('epub:type') ?? '') || n.getAttribute('role') === 'doc-toc') ??
    navs[0];
  if (!toc) return [];
  return elements(toc, 'a')
    .map((a) => ({ title: clean(a.textContent), ...resolve(navPath, a.getAttribute('href') ?? '') }))
    .filter((e) => e.title !== '' && e.path !== navPath);
}

function ncxEntries(ncxXml: string, ncxPath: string): TocEntry[] {
  const root = parseXml(ncxXml);
  return elements(root, 'navPoint')
    .map((point) => {
      const label = children(point, 'navLabel')[0];
      const content = children(point, 'content')[0];
      return {
        title: clean(label ? (elements(label, 'text')[0]?.textContent ?? label.textContent) : ''),
        ...resolve(ncxPath, content?.getAttribute('src') ?? ''),
      };
    })
    .filter((e) => e.title !== '');
}

export async function readEpub(bytes: Uint8Array): Promise<ParsedDocument> {
  const archive = await openArchive(bytes);
  const has = new Set(archive.names);
  if (!has.has('META-INF/container.xml')) throw notEpub(whatZipIsThis(archive.names));
  const meta = await archive.read(new Set(['META-INF/container.xml', 'META-INF/encryption.xml']));
  refuseDrm(meta['META-INF/encryption.xml'] && utf8.decode(meta['META-INF/encryption.xml']));

  const container = parseXml(utf8.decode(meta['META-INF/container.xml']!));
  const opfPath = elements(container, 'rootfile')[0]?.getAttribute('full-path') ?? '';
  if (!has.has(opfPath)) throw notEpub('its package document (OPF) is missing');
  const opfBytes = (await archive.read(new Set([opfPath])))[opfPath]!;
  const opf = parseXml(utf8.decode(opfBytes));

  const title = clean(elements(opf, 'title')[0]?.textContent) || undefined;
  const creators = elements(opf, 'creator')
    .filter((c) => {
      const role = c.getAttribute('opf:role') ?? c.getAttribute('role');
      return role === null || role === 'aut';
    })
    .map((c) => clean(c.textContent))
    .filter((c) => c !== '');
  const author = creators.length > 0 ? creators.join(', ') : undefined;

  type Item = { id: string; path: string; mediaType: string; properties: string };
  const manifest = new Map<string, Item>();
  for (const item of elements(opf, 'item')) {
    const id = item.getAttribute('id') ?? '';
    manifest.set(id, {
      id,
      path: resolve(opfPath, item.getAttribute('href') ?? '').path,
      mediaType: item.getAttribute('media-type') ?? '',
      properties: item.getAttribute('properties') ?? '',
    });
  }
  const spineEl = elements(opf, 'spine')[0];
  const spine = (spineEl ? children(spineEl, 'itemref') : [])
    .map((ref) => manifest.get(ref.getAttribute('idref') ?? ''))
    .filter((i): i is Item => i !== undefined && /html|xml/.test(i.mediaType) && has.has(i.path));
  if (spine.length === 0)
    throw new IngestError('invalid', 'The EPUB lists no readable chapters in its reading order (spine)');

  const navItem = [...manifest.values()].find((i) => /\bnav\b/.test(i.properties));
  const ncxItem =
    manifest.get(spineEl?.getAttribute('toc') ?? '') ??
    [...manifest.values()].find((i) => i.mediaType === 'application/x-dtbncx+xml');
  const coverItem =
    [...manifest.values()].find((i) => /\bcover-image\b/.test(i.properties)) ??
    manifest.get(
      elements(opf, 'meta')
        .find((m) => m.getAttribute('name') === 'cover')
        ?.getAttribute('content') ?? '',
    );

  const wanted = new Set(spine.map((i) => i.path));
  for (const extra of [navItem, ncxItem, coverItem]) if (extra && has.has(extra.path)) wanted.add(extra.path);
  const files = await archive.read(wanted);

  let toc: TocEntry[] = [];
  if (navItem && files[navItem.path]) toc = navEntries(utf8.decode(files[navItem.path]!), navItem.path);
  if (toc.length === 0 && ncxItem && files[ncxItem.path])
    toc = ncxEntries(utf8.decode(files[ncxItem.path]!), ncxItem.path);
  const spineIndex = new Map(spine.map((item, i) => [item.path, i]));
  toc = toc.filter((e) => spineIndex.has(e.path));

  // Text of every spine document, with the paragraph where each TOC target starts.
  const wantedIds = new Map<string, Set<string>>();
  for (const e of toc) if (e.fragment) wantedIds.set(e.path, (wantedIds.get(e.path) ?? new Set()).add(e.fragment));
  const docs = spine.map((item) => {
    const source = files[item.path];
    return source
      ? xhtmlToText(utf8.decode(source), wantedIds.get(item.path))
      : { paragraphs: [], anchors: new Map<string, number>(), firstHeading: null };
  });

  const sections: { title: string; paragraphs: string[]; frontMatter?: boolean }[] = [];
  if (toc.length === 0) {
    docs.forEach((d, i) => sections.push({ title: d.firstHeading ?? `Chapter ${i + 1}`, paragraphs: d.paragraphs }));
  } else {
    // Each TOC entry starts at (spine document, paragraph); entries are taken in reading order.
    const starts = toc
      .map((e) => ({
        title: e.title,
        doc: spineIndex.get(e.path)!,
        para: e.fragment ? (docs[spineIndex.get(e.path)!]!.anchors.get(e.fragment) ?? 0) : 0,
      }))
      .sort((a, b) => a.doc - b.doc || a.para - b.para)
      .filter((s, i, all) => i === 0 || s.doc !== all[i - 1]!.doc || s.para !== all[i - 1]!.para);
    const slice = (fromDoc: number, fromPara: number, toDoc: number, toPara: number) => {
      const out: string[] = [];
      for (let d = fromDoc; d <= toDoc && d < docs.length; d++) {
        const paras = docs[d]!.paragraphs;
        out.push(...paras.slice(d === fromDoc ? fromPara : 0, d === toDoc ? toPara : paras.length));
      }
      return out;
    };
    const first = starts[0]!;
    // What comes before the first contents entry is the title page, copyright and the like.
    sections.push({ title: 'Opening', paragraphs: slice(0, 0, first.doc, first.para), frontMatter: true });
    starts.forEach((s, i) => {
      const next = starts[i + 1];
      sections.push({
        title: s.title,
        paragraphs: next ? slice(s.doc, s.para, next.doc, next.para) : slice(s.doc, s.para, docs.length - 1, Infinity),
      });
    });
  }
  const { text, chapters } = joinSections(sections);
  if (text.trim() === '')
    throw new IngestError('invalid', 'The EPUB has no text to read aloud (it may hold only images)');

  let cover: DocumentCover | undefined;
  const coverBytes = coverItem ? files[coverItem.path] : undefined;
  const coverType = coverBytes ? sniffImage(coverBytes) : null;
  if (coverBytes && coverType) cover = { bytes: coverBytes, contentType: coverType };

  return { format: 'epub', text, title, author, chapters, cover };
}
