/**
 * Turns a downloaded page into a title and plain text fit for narration.
 *
 * HTML goes through @mozilla/readability on a linkedom document. The article's DOM (not
 * Readability's flat textContent) is walked so paragraph structure survives: every block element
 * (p, h1-h6, li, blockquote, pre, div, table row, ...) becomes its own paragraph, paragraphs are
 * separated by one blank line, and whitespace inside a paragraph is collapsed to single spaces
 * (a <br> is kept as a single line break). Plain-text pages pass through normaliseText.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { IngestError } from './errors';
import { normaliseText } from './text-file';

export type ExtractedArticle = { title: string; text: string };

/** Below this many characters of text a page is not worth narrating. */
export const MIN_ARTICLE_CHARS = 100;

const noArticle = () => new IngestError('invalid', 'No readable article was found on that page');

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'CAPTION',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'TD',
  'TH',
  'THEAD',
  'TFOOT',
  'TR',
  'UL',
]);
const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'BUTTON', 'SELECT', 'OPTION']);

type MinimalNode = {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<MinimalNode>;
};

/** Collects paragraphs from a DOM subtree. */
/** A paragraph's text as read aloud: runs of spaces (also no-break and zero-width) made one, blank lines dropped. */
export function tidyParagraph(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0\u200b]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function domToParagraphs(root: MinimalNode): string[] {
  const paragraphs: string[] = [];
  let current = '';
  const flush = () => {
    const para = tidyParagraph(current);
    if (para !== '') paragraphs.push(para);
    current = '';
  };
  const walk = (node: MinimalNode) => {
    if (node.nodeType === 3) {
      current += (node.nodeValue ?? '').replace(/\s+/g, ' ');
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIP_TAGS.has(tag)) return;
    if (tag === 'BR') {
      current += '\n';
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) flush();
    const children = node.childNodes;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child) walk(child);
    }
    if (block) flush();
    else if (tag === 'TD' || tag === 'TH') current += ' ';
  };
  walk(root);
  flush();
  return paragraphs;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '') || 'Untitled page';
  } catch {
    return 'Untitled page';
  }
}

function cleanTitle(value: string | null | undefined): string {
  return (value ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Extracts the readable article from `html` (or passes plain text through when
 * `contentType` is 'text/plain'). Throws IngestError 422 when there is no article or it is
 * shorter than 100 characters.
 */
export function extractArticle(
  html: string,
  url: string,
  contentType: 'text/html' | 'text/plain' = 'text/html',
): ExtractedArticle {
  if (contentType === 'text/plain') {
    const text = normaliseText(html).trim();
    if (text.length < MIN_ARTICLE_CHARS) throw noArticle();
    return { title: hostOf(url), text };
  }

  let document: ReturnType<typeof parseHTML>['document'];
  let pageTitle: string;
  try {
    ({ document } = parseHTML(html));
    pageTitle = cleanTitle(document.querySelector('title')?.textContent);
  } catch {
    throw noArticle();
  }

  let article: ReturnType<Readability<MinimalNode>['parse']>;
  try {
    article = new Readability<MinimalNode>(document, {
      serializer: (node) => node as unknown as MinimalNode,
      maxElemsToParse: 0,
    }).parse();
  } catch {
    article = null;
  }
  if (!article?.content) throw noArticle();

  const text = domToParagraphs(article.content).join('\n\n');
  if (text.replace(/\s+/g, ' ').length < MIN_ARTICLE_CHARS) throw noArticle();

  const title = cleanTitle(article.title) || pageTitle || hostOf(url);
  return { title, text };
}
