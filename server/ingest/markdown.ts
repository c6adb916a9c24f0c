/**
 * Markdown (.md) uploads, parsed with mdast-util-from-markdown (micromark, CommonMark).
 *
 * - Headings become chapters: the chapter level is the highest heading level used at least twice
 *   (so a single `# Book title` over `## Chapter` headings makes the h2s chapters and the h1 the
 *   book's title). Deeper headings stay inside their chapter as paragraphs.
 * - Only the words are read: emphasis, links (their text is kept, the address is not), list
 *   markers, block quotes' `>` and table pipes are markup. Code blocks, raw HTML, images (and
 *   their alt text) and thematic breaks are not read aloud.
 */
import type { Heading, Nodes, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { joinSections, type ParsedDocument } from './document';
import { IngestError } from './errors';
import { decodeUtf8Document } from './text-file';

const SKIP = new Set([
  'code',
  'html',
  'image',
  'imageReference',
  'thematicBreak',
  'definition',
  'footnoteDefinition',
  'footnoteReference',
  'yaml',
]);

/** The spoken words of an inline subtree. */
function inlineText(node: Nodes): string {
  if (SKIP.has(node.type)) return '';
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'break') return '\n';
  if ('children' in node) return (node.children as Nodes[]).map(inlineText).join('');
  return '';
}

/** Paragraphs of a block subtree: each paragraph, heading, list item and table row its own. */
function blockParagraphs(node: Nodes, out: string[]): void {
  if (SKIP.has(node.type)) return;
  switch (node.type) {
    case 'paragraph':
    case 'heading':
      out.push(inlineText(node));
      return;
    case 'tableRow':
      out.push(node.children.map((cell) => inlineText(cell)).join(', '));
      return;
    default:
      if ('children' in node) for (const child of node.children as Nodes[]) blockParagraphs(child, out);
  }
}

function chapterDepth(children: RootContent[]): number | null {
  const counts = new Map<number, number>();
  for (const c of children) if (c.type === 'heading') counts.set(c.depth, (counts.get(c.depth) ?? 0) + 1);
  for (let depth = 1; depth <= 6; depth++) if ((counts.get(depth) ?? 0) >= 2) return depth;
  return null;
}

export function readMarkdown(bytes: Uint8Array): ParsedDocument {
  const source = decodeUtf8Document(bytes, 'Markdown file', 'Markdown text');
  if (source.trim() === '') throw new IngestError('invalid', 'The file is empty');

  const tree: Root = fromMarkdown(source);
  const depth = chapterDepth(tree.children);
  let title: string | undefined;
  const sections: { title: string; paragraphs: string[] }[] = [{ title: 'Opening', paragraphs: [] }];
  for (const node of tree.children) {
    if (node.type === 'heading' && depth !== null && node.depth < depth && title === undefined) {
      // The book's title above the chapters (read as the opening's first line too).
      title = inlineText(node).replace(/\s+/g, ' ').trim() || undefined;
    }
    if (node.type === 'heading' && depth !== null && (node as Heading).depth === depth) {
      const heading = inlineText(node).replace(/\s+/g, ' ').trim();
      sections.push({ title: heading || `Chapter ${sections.length}`, paragraphs: [heading] });
      continue;
    }
    blockParagraphs(node, sections[sections.length - 1]!.paragraphs);
  }
  if (depth === null) {
    const only = tree.children.find((c): c is Heading => c.type === 'heading');
    if (only) title = inlineText(only).replace(/\s+/g, ' ').trim() || undefined;
  }
  const { text, chapters } = joinSections(sections);
  if (text.trim() === '') throw new IngestError('invalid', 'The Markdown file has no text to read aloud');
  return { format: 'markdown', text, title, chapters: depth === null ? undefined : chapters };
}
