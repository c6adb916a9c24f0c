/**
 * Narration text from an (X)HTML book document (an EPUB content file), parsed with linkedom's
 * XML parser so self-closing elements (`<span epub:type="pagebreak"/>`) stay empty.
 *
 * - Every block element is its own paragraph; paragraphs are joined by one blank line.
 * - Left out: footnote and endnote markers (`epub:type="noteref"`, `role="doc-noteref"`, a
 *   superscript that only holds a link), the notes themselves (`footnote`, `endnote`, `rearnote`,
 *   `doc-footnote`, `doc-endnotes`), page-number markers (`pagebreak`, `doc-pagebreak`, elements
 *   whose class says page number), images (their alt text included), scripts and styles.
 * - HTML named character references (`&nbsp;`), which XML leaves undecoded, are decoded.
 * - `anchors` records where elements with the given ids start, as a paragraph index, so a table
 *   of contents entry pointing into the middle of a file can start a chapter there.
 */
import { decodeNamedCharacterReference } from 'decode-named-character-reference';
import { DOMParser } from 'linkedom';
import { tidyParagraph } from './extract';

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'body',
]);
const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'img',
  'image',
  'head',
  'object',
  'audio',
  'video',
  'iframe',
  'rt',
  'rp',
]);
const DROP_TYPES = /\b(noteref|footnote|endnote|endnotes|rearnote|rearnotes|pagebreak|page-list)\b/;
const DROP_ROLES = /\bdoc-(noteref|footnote|endnote|endnotes|pagebreak|backlink)\b/;
const PAGE_CLASS = /\b(page-?num(ber)?|pagenum|page-?break|page-?marker)\b/i;
const HEADING = /^h[1-6]$/;

type El = {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<El>;
  getAttribute?(name: string): string | null;
  textContent?: string | null;
};

export interface XhtmlText {
  paragraphs: string[];
  /** id -> index of the first paragraph at or after the element. */
  anchors: Map<string, number>;
  /** The first heading's text, if any. */
  firstHeading: string | null;
}

const ENTITY = /&([A-Za-z][A-Za-z0-9]{1,31});/g;

function decodeEntities(text: string): string {
  return text.includes('&')
    ? text.replace(ENTITY, (m, name: string) => decodeNamedCharacterReference(name) || m)
    : text;
}

function dropped(el: El, tag: string): boolean {
  if (SKIP.has(tag)) return true;
  const type = el.getAttribute?.('epub:type') ?? '';
  if (type && DROP_TYPES.test(type)) return true;
  const role = el.getAttribute?.('role') ?? '';
  if (role && DROP_ROLES.test(role)) return true;
  const cls = el.getAttribute?.('class') ?? '';
  if (cls && PAGE_CLASS.test(cls)) return true;
  if (tag === 'sup' || tag === 'a') {
    // A superscript holding only a link to a note (<sup><a href="#fn3">3</a></sup>), or such a link.
    const onlyLink = tag === 'a' ? el : singleElementChild(el);
    const href = onlyLink?.getAttribute?.('href') ?? '';
    const text = (el.textContent ?? '').trim();
    if (
      href.includes('#') &&
      /^[[(]?[\d*†‡§a-z]{1,4}[\])]?$/i.test(text) &&
      (tag === 'sup' || /\b(fn|note|footnote|endnote)/i.test(href))
    )
      return true;
  }
  return false;
}

function singleElementChild(el: El): El | null {
  let found: El | null = null;
  for (let i = 0; i < el.childNodes.length; i++) {
    const c = el.childNodes[i]!;
    if (c.nodeType === 1) {
      if (found) return null;
      found = c;
    } else if (c.nodeType === 3 && (c.nodeValue ?? '').trim() !== '') return null;
  }
  return found;
}

export function xhtmlToText(source: string, wantedIds: ReadonlySet<string> = new Set()): XhtmlText {
  const doc = new DOMParser().parseFromString(source, 'text/xml') as unknown as {
    querySelector(s: string): El | null;
    childNodes: ArrayLike<El>;
  };
  const root = doc.querySelector('body') ?? (doc as unknown as El);
  const paragraphs: string[] = [];
  const anchors = new Map<string, number>();
  let firstHeading: string | null = null;
  let current = '';
  const flush = () => {
    const para = tidyParagraph(current);
    if (para !== '') paragraphs.push(para);
    current = '';
  };
  const walk = (node: El) => {
    if (node.nodeType === 3) {
      current += decodeEntities(node.nodeValue ?? '').replace(/\s+/g, ' ');
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9) return;
    const tag = node.nodeName.toLowerCase().replace(/^[a-z]+:/, '');
    const id = node.getAttribute?.('id');
    if (id && wantedIds.has(id) && !anchors.has(id)) {
      // Text already gathered for the paragraph belongs before the anchor.
      if (current.trim() !== '') flush();
      anchors.set(id, paragraphs.length);
    }
    if (dropped(node, tag)) return;
    if (tag === 'br') {
      current += '\n';
      return;
    }
    const block = BLOCK.has(tag);
    if (block) flush();
    const before = paragraphs.length;
    for (let i = 0; i < node.childNodes.length; i++) walk(node.childNodes[i]!);
    if (block) flush();
    else if (tag === 'td' || tag === 'th') current += ' ';
    if (firstHeading === null && HEADING.test(tag) && paragraphs.length > before)
      firstHeading = paragraphs[before] ?? null;
  };
  walk(root);
  flush();
  return { paragraphs, anchors, firstHeading };
}
