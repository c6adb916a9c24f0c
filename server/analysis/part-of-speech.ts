/**
 * A retext plugin that tags each word with its part of speech (Penn Treebank tags such as NN, JJ,
 * VBD), as retext-pos does and with the same tagger: Eric Brill's, from the `pos` package. The
 * difference is how the tagger's lexicon (92,000 words) is loaded. `pos` ships it as a 4 MB
 * JavaScript object literal of words and all their possible tags; compiling that literal made the
 * analysis thread about 25 MB bigger while it ran. The tagger only ever reads a word's first (most
 * likely) tag, so this reads the file as text, keeps each word's first tag in a Map, and gives the
 * tagger that. If the file is ever not in the shape expected, the literal is loaded as before.
 * server/analysis/part-of-speech.test.ts holds the two lexicons to the same tags.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { toString } from 'nlcst-to-string';

interface BrillTagger {
  /** [word, tag] for each word of a sentence. */
  tag(words: string[]): [string, string][];
}
/** What the tagger reads: a word's possible tags, most likely first (it reads only the first). */
type Lexicon = Record<string, readonly string[] | undefined>;

const require = createRequire(import.meta.url);
/** The package's tagger; its constructor would load the whole literal, so it is never called. */
const POSTagger = require('pos/POSTagger.js') as { prototype: BrillTagger };
const LEXICON_FILE = require.resolve('pos/lexicon.js');

/** `"word": [ "FIRST-TAG"` in the lexicon's source; a word may contain escaped characters. */
const ENTRY = /"((?:[^"\\]|\\.)*)"\s*:\s*\[\s*"((?:[^"\\]|\\.)*)"/g;
/** Fewer entries than this means the file has changed shape: the literal is loaded instead. */
const EXPECTED_ENTRIES = 50_000;

const unescape = (s: string): string => (s.includes('\\') ? s.replace(/\\(.)/g, '$1') : s);

/** Each word's first tag, read from the lexicon's source text; null if it is not in the shape expected. */
export function readFirstTags(source: string): Map<string, string> | null {
  const first = new Map<string, string>();
  for (const [, word, tag] of source.matchAll(ENTRY)) {
    const key = unescape(word!);
    if (!first.has(key)) first.set(key, unescape(tag!));
  }
  return first.size >= EXPECTED_ENTRIES ? first : null;
}

/** The lexicon the tagger reads, backed by the compact map: one shared one-tag array per tag. */
function compactLexicon(first: Map<string, string>): Lexicon {
  const arrays = new Map<string, readonly string[]>();
  for (const tag of first.values()) if (!arrays.has(tag)) arrays.set(tag, [tag]);
  return new Proxy({} as Lexicon, {
    get: (_, word) => (typeof word === 'string' ? arrays.get(first.get(word) ?? '') : undefined),
  });
}

let tagger: BrillTagger | null = null;

/** The tagger with the compact lexicon (the package's own when the file is not as expected). */
export function brillTagger(): BrillTagger {
  if (tagger) return tagger;
  const first = readFirstTags(readFileSync(LEXICON_FILE, 'utf8'));
  const lexicon = first ? compactLexicon(first) : (require('pos/lexicon.js') as Lexicon);
  const tag = POSTagger.prototype.tag;
  tagger = { tag: (words) => tag.call({ lexicon }, words) };
  return tagger;
}

/** An nlcst node, as far as tagging reads it (the root, paragraphs, sentences, words, the rest). */
interface TextNode {
  type: string;
  children?: readonly TextNode[];
  data?: object;
}

/** The plugin: sets `data.partOfSpeech` on every word, sentence by sentence (retext-keywords reads it). */
export default function retextPartOfSpeech() {
  const { tag } = brillTagger();
  const tagSentences = (node: TextNode): void => {
    if (node.type !== 'SentenceNode') {
      for (const child of node.children ?? []) tagSentences(child);
      return;
    }
    const words = (node.children ?? []).filter((child) => child.type === 'WordNode');
    if (words.length === 0) return;
    const tags = tag(words.map((word) => toString(word as Parameters<typeof toString>[0])));
    words.forEach((word, i) => {
      word.data = { ...word.data, partOfSpeech: tags[i]![1] };
    });
  };
  return (tree: TextNode): undefined => {
    tagSentences(tree);
  };
}
