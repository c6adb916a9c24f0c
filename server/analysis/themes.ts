/**
 * A text's themes: keywords and key phrases (retext-keywords, on the part-of-speech tags of
 * ./part-of-speech.ts), without names and generic words.
 */
import type { Nodes, Root } from 'nlcst';
import { retext } from 'retext';
import retextKeywords from 'retext-keywords';
import { toString as nlcstToString } from 'nlcst-to-string';
import { VFile } from 'vfile';
import retextPartOfSpeech from './part-of-speech';
import { escapeRe, GENERIC_NOUNS, HONORIFIC_SET, STOP_WORDS } from './words';

function isMostlyCapitalised(word: string, scan: string): boolean {
  const lower = (scan.match(new RegExp(String.raw`\b${escapeRe(word.toLowerCase())}\b`, 'g')) ?? []).length;
  const cap = word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  const upper = (scan.match(new RegExp(String.raw`\b${escapeRe(cap)}\b`, 'g')) ?? []).length;
  return upper > lower;
}

/** retext with the part-of-speech tagger and retext-keywords, as the themes are found. */
export const keywordProcessor = () => retext().use(retextPartOfSpeech).use(retextKeywords, { maximum: 20 });

/**
 * The sample's syntax tree, parsed a paragraph at a time (as retext's parser does anyway) without
 * each node's position in the text, which retext-keywords never reads: about two thirds of the tree
 * (10 MB for a long book's 80,000-character sample, 4 MB without), at the analysis's peak
 * (docs/adr/0054-only-naming-sentences-go-to-compromise.md).
 */
export function treeWithoutPositions(processor: ReturnType<typeof keywordProcessor>, sample: string): Root {
  const root: Root = { type: 'RootNode', children: [] };
  const forget = (node: Nodes): void => {
    delete node.position;
    if ('children' in node) for (const child of node.children) forget(child);
  };
  for (const [i, paragraph] of sample.split(PARAGRAPH_BREAK).entries()) {
    if (i > 0) root.children.push({ type: 'WhiteSpaceNode', value: '\n\n' });
    const parsed = processor.parse(paragraph);
    forget(parsed);
    root.children.push(...parsed.children);
  }
  return root;
}

const PARAGRAPH_BREAK = /\n[ \t]*\n/;

export function findThemes(sample: string, scan: string, nameTokens: Set<string>): string[] {
  const processor = keywordProcessor();
  const file = new VFile();
  processor.runSync(treeWithoutPositions(processor, sample), file);
  const data = file.data as {
    keywords?: { stem: string; score: number; matches: { node: Parameters<typeof nlcstToString>[0] }[] }[];
    keyphrases?: { score: number; weight: number; matches: { nodes: Parameters<typeof nlcstToString>[0][] }[] }[];
  };

  const usable = (phrase: string): boolean => {
    const words = phrase.split(/\s+/);
    if (words.length === 0 || words.some((w) => w.length < 3 && words.length === 1)) return false;
    if (words.some((w) => !/^[\p{L}'’-]+$/u.test(w))) return false;
    if (STOP_WORDS.has(words[0] ?? '') || STOP_WORDS.has(words[words.length - 1] ?? '')) return false;
    if (words.length === 1 && GENERIC_NOUNS.has(phrase)) return false;
    if (words.every((w) => GENERIC_NOUNS.has(w) || STOP_WORDS.has(w))) return false;
    if (words.some((w) => nameTokens.has(w) || HONORIFIC_SET.has(w))) return false;
    return true;
  };

  const themes: string[] = [];
  const add = (raw: string) => {
    const phrase = raw.toLowerCase().replace(/\s+/g, ' ').trim();
    if (themes.length >= 8 || !usable(phrase) || themes.includes(phrase)) return;
    if (phrase.split(' ').some((w) => isMostlyCapitalised(w, scan))) return;
    // Skip a word already covered by a chosen phrase (and vice versa).
    if (themes.some((t) => t.split(' ').includes(phrase) || phrase.split(' ').includes(t))) return;
    themes.push(phrase);
  };

  const phrases = (data.keyphrases ?? [])
    .map((p) => ({
      text: (p.matches[0]?.nodes ?? []).map((n) => nlcstToString(n)).join(''),
      score: p.score * p.weight,
    }))
    .filter((p) => p.text.includes(' '))
    .slice(0, 3);
  const keywords = (data.keywords ?? []).map((k) => (k.matches[0] ? nlcstToString(k.matches[0].node) : ''));
  for (const k of keywords.slice(0, 4)) add(k);
  for (const p of phrases) add(p.text);
  for (const k of keywords.slice(4)) add(k);
  return themes;
}
