/**
 * EPUB 3 with Media Overlays: the book's text follows its audio in reading systems that play
 * overlays (Thorium, Readest, Apple Books). Lectio knows when each sentence is spoken (the timing
 * map kept beside every chapter's MP3), so nothing is aligned afterwards: each chapter is one XHTML
 * document with one element per sentence, one SMIL document whose `par`s pair each sentence with
 * its clip of the chapter's own MP3, and that MP3. Timing maps hold sentences only (no engine
 * reports word times), so the sentence is the finest unit. Layout (OCF): `mimetype` first and
 * stored, `META-INF/container.xml`, then `OEBPS/` with the package document, the navigation
 * document, `text/`, `smil/`, `audio/`, `images/cover.jpg` and `css/`.
 */
import type { TranscriptSentence } from '../books/transcript';
import { escapeXml } from '../books/xml';
import type { ExportBook } from '../books/source';
import type { BuildContext } from './download-formats';
import { zipInto } from './zip';

/** Class reading systems put on the element being spoken (declared in the package document). */
const ACTIVE_CLASS = '-epub-media-overlay-active';

const pad = (n: number) => String(n).padStart(3, '0');
const textHref = (order: number) => `text/chapter-${pad(order)}.xhtml`;
const smilHref = (order: number) => `smil/chapter-${pad(order)}.smil`;
const audioHref = (order: number) => `audio/chapter-${pad(order)}.mp3`;
const sentenceId = (index: number) => `s${index + 1}`;

/** A SMIL clock value (h:mm:ss.fff), as media:duration wants it. */
export function clockValue(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
}

/** A clip offset in seconds with millisecond precision (`12.345s`). */
const offset = (seconds: number) => `${(Math.round(seconds * 1000) / 1000).toFixed(3)}s`;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const LANG = 'und';

function chapterXhtml(title: string, sentences: readonly TranscriptSentence[]): string {
  const paragraphs: string[][] = [];
  for (const s of sentences) {
    if (s.paragraphStart || paragraphs.length === 0) paragraphs.push([]);
    paragraphs[paragraphs.length - 1]!.push(`<span id="${sentenceId(s.index)}">${escapeXml(s.text)}</span>`);
  }
  // The chapter's text usually opens with its heading; only a chapter that does not gets one.
  const first = sentences[0]?.text.trim().toLowerCase() ?? '';
  const heading = first.startsWith(title.trim().toLowerCase()) ? '' : `<h1>${escapeXml(title)}</h1>\n`;
  return [
    XML_HEAD,
    '<!DOCTYPE html>',
    `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${LANG}" lang="${LANG}">`,
    `<head><meta charset="UTF-8"/><title>${escapeXml(title)}</title><link rel="stylesheet" type="text/css" href="../css/book.css"/></head>`,
    '<body>',
    '<section epub:type="chapter" id="chapter">',
    `${heading}${paragraphs.map((p) => `<p>${p.join(' ')}</p>`).join('\n')}`,
    '</section>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** The clips of a chapter: one `par` per sentence; a sentence without a time span keeps its text only. */
function chapterSmil(order: number, sentences: readonly TranscriptSentence[]): string {
  const text = textHref(order);
  const pars = sentences.map((s) => {
    const clip =
      s.end > s.start
        ? `<audio src="../${audioHref(order)}" clipBegin="${offset(s.start)}" clipEnd="${offset(s.end)}"/>`
        : '';
    return `<par id="p${s.index + 1}"><text src="../${text}#${sentenceId(s.index)}"/>${clip}</par>`;
  });
  return [
    XML_HEAD,
    '<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">',
    '<body>',
    `<seq id="seq${order}" epub:textref="../${text}#chapter" epub:type="chapter">`,
    ...pars,
    '</seq>',
    '</body>',
    '</smil>',
  ].join('\n');
}

/** Seconds of audio a chapter's overlay plays: the sum of its clips. */
export function overlayDuration(sentences: readonly TranscriptSentence[]): number {
  return (
    sentences.reduce((sum, s) => sum + Math.max(0, Math.round(s.end * 1000) - Math.round(s.start * 1000)), 0) / 1000
  );
}

function navXhtml(book: ExportBook): string {
  const items = book.chapters
    .map((c) => `<li><a href="${textHref(c.order)}">${escapeXml(c.title)}</a></li>`)
    .join('\n');
  return [
    XML_HEAD,
    '<!DOCTYPE html>',
    `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${LANG}" lang="${LANG}">`,
    `<head><meta charset="UTF-8"/><title>${escapeXml(book.title)}</title></head>`,
    '<body>',
    '<nav epub:type="toc" id="toc">',
    '<h1>Contents</h1>',
    `<ol>\n${items}\n</ol>`,
    '</nav>',
    '<nav epub:type="landmarks" id="landmarks" hidden="hidden">',
    `<ol><li><a epub:type="bodymatter" href="${textHref(1)}">Start of the book</a></li></ol>`,
    '</nav>',
    '</body>',
    '</html>',
  ].join('\n');
}

function coverXhtml(book: ExportBook): string {
  return [
    XML_HEAD,
    '<!DOCTYPE html>',
    `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${LANG}" lang="${LANG}">`,
    `<head><meta charset="UTF-8"/><title>${escapeXml(book.title)}</title><link rel="stylesheet" type="text/css" href="../css/book.css"/></head>`,
    `<body><section epub:type="cover" class="cover"><img src="../images/cover.jpg" alt="${escapeXml(`Cover of ${book.title}`)}"/></section></body>`,
    '</html>',
  ].join('\n');
}

const CSS = `p { margin: 0 0 0.8em; line-height: 1.5; }
.cover { text-align: center; }
.cover img { max-width: 100%; max-height: 100vh; }
.${ACTIVE_CLASS} { background-color: #fff3b0; color: inherit; }
`;

/** `dcterms:modified` wants whole seconds in UTC. */
const modified = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}Z`;

function packageOpf(book: ExportBook, durations: number[]): string {
  const total = durations.reduce((a, b) => a + b, 0);
  const chapterItems = book.chapters.flatMap((c) => [
    `<item id="chapter-${c.order}" href="${textHref(c.order)}" media-type="application/xhtml+xml" media-overlay="overlay-${c.order}"/>`,
    `<item id="overlay-${c.order}" href="${smilHref(c.order)}" media-type="application/smil+xml"/>`,
    `<item id="audio-${c.order}" href="${audioHref(c.order)}" media-type="audio/mpeg"/>`,
  ]);
  const overlayDurations = book.chapters.map(
    (c, i) => `<meta property="media:duration" refines="#overlay-${c.order}">${clockValue(durations[i] ?? 0)}</meta>`,
  );
  return [
    XML_HEAD,
    `<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${LANG}">`,
    '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">',
    `<dc:identifier id="book-id">urn:uuid:${book.id}</dc:identifier>`,
    `<dc:title>${escapeXml(book.title)}</dc:title>`,
    ...(book.author === null ? [] : [`<dc:creator>${escapeXml(book.author)}</dc:creator>`]),
    `<dc:language>${LANG}</dc:language>`,
    `<meta property="dcterms:modified">${modified(book.version)}</meta>`,
    '<meta name="cover" content="cover-image"/>',
    `<meta property="media:duration">${clockValue(total)}</meta>`,
    ...overlayDurations,
    `<meta property="media:active-class">${ACTIVE_CLASS}</meta>`,
    '</metadata>',
    '<manifest>',
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="cover-image" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>',
    '<item id="cover" href="text/cover.xhtml" media-type="application/xhtml+xml"/>',
    '<item id="css" href="css/book.css" media-type="text/css"/>',
    ...chapterItems,
    '</manifest>',
    '<spine>',
    '<itemref idref="cover" linear="no"/>',
    ...book.chapters.map((c) => `<itemref idref="chapter-${c.order}"/>`),
    '</spine>',
    '</package>',
  ].join('\n');
}

const CONTAINER = `${XML_HEAD}
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;

export async function buildEpub(ctx: BuildContext): Promise<void> {
  const { book } = ctx;
  const zip = zipInto(ctx.writer);
  // The OCF container's first entry: stored, so a reader finds the type at a fixed offset.
  await zip.store('mimetype', Buffer.from('application/epub+zip'));
  await zip.deflate('META-INF/container.xml', CONTAINER);
  const durations: number[] = [];
  for (const chapter of book.chapters) {
    ctx.signal.throwIfAborted();
    const transcript = await ctx.books.transcript(book.userId, book.id, chapter.order);
    const sentences = transcript.sentences;
    durations.push(overlayDuration(sentences));
    await zip.deflate(`OEBPS/${textHref(chapter.order)}`, chapterXhtml(chapter.title, sentences));
    await zip.deflate(`OEBPS/${smilHref(chapter.order)}`, chapterSmil(chapter.order, sentences));
    await zip.store(
      `OEBPS/${audioHref(chapter.order)}`,
      ctx.storage.read(chapter.fileKey) as AsyncIterable<Buffer>,
      ctx.signal,
    );
    await ctx.report(chapter.order / book.chapters.length);
  }
  await zip.store('OEBPS/images/cover.jpg', ctx.cover);
  await zip.deflate('OEBPS/text/cover.xhtml', coverXhtml(book));
  await zip.deflate('OEBPS/css/book.css', CSS);
  await zip.deflate('OEBPS/nav.xhtml', navXhtml(book));
  await zip.deflate('OEBPS/package.opf', packageOpf(book, durations));
  await zip.end();
}
