/**
 * A retext plugin that tags each word with its part of speech (Penn Treebank tags such as NN, JJ,
 * VBD), as retext-pos does and with the same tagger: Eric Brill's, from the `pos` package. The
 * difference is the tagger's lexicon (92,000 words). `pos` ships it as a 4 MB JavaScript object
 * literal of words and all their possible tags; compiling that literal made the analysis thread
 * about 25 MB bigger, and a map of each word's first tag read from it still took 24 MB and a tenth
 * of a second. The tagger only ever reads a word's first (most likely) tag, so
 * `npm run generate` writes each word with its first tag, sorted, to ./gen/pos-lexicon.tsv
 * (scripts/gen-pos-lexicon.mjs), and the tagger looks words up in that text where it lies, by
 * binary search: about 1.2 MB of string and 0.4 MB of line offsets (docs/decisions.md, "A
 * collection after each chapter, and glibc's mapping threshold fixed").
 * server/analysis/part-of-speech.test.ts holds it to the package's own lexicon and tagger.
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
/** Beside this module from source, beside the compiled bundle (scripts/build-server.mjs) otherwise. */
const LEXICON_FILE = new URL(
  import.meta.url.endsWith('.ts') ? './gen/pos-lexicon.tsv' : './pos-lexicon.tsv',
  import.meta.url,
);

const TAB = 9;

/**
 * Each word's first tag, looked up in the sorted "word<TAB>tag" lines of `text` without copying
 * them: a word's line is found by binary search, comparing it character by character.
 */
export class SortedLexicon {
  private readonly starts: Uint32Array;
  /** One array per tag, shared by every word that has it (the tagger reads `lexicon[word][0]`). */
  private readonly tags = new Map<string, readonly string[]>();

  constructor(private readonly text: string) {
    let lines = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
    this.starts = new Uint32Array(lines);
    for (let line = 0, at = 0; line < lines; line += 1, at = text.indexOf('\n', at) + 1) this.starts[line] = at;
  }

  get size(): number {
    return this.starts.length;
  }

  /** The word's first tag, in an array as the package's lexicon gives it; undefined for no word of it. */
  get(word: string): readonly string[] | undefined {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compare(word, this.starts[middle]!);
      if (order === 0) return this.tagAt(this.starts[middle]! + word.length + 1);
      if (order < 0) high = middle - 1;
      else low = middle + 1;
    }
    return undefined;
  }

  /** <0, 0 or >0 as `word` sorts before, as or after the word of the line starting at `at`. */
  private compare(word: string, at: number): number {
    const { text } = this;
    for (let i = 0; ; i += 1) {
      const ours = i < word.length ? word.charCodeAt(i) : -1;
      const theirs = text.charCodeAt(at + i);
      const lineWordEnded = theirs === TAB;
      if (ours === -1) return lineWordEnded ? 0 : -1;
      if (lineWordEnded) return 1;
      if (ours !== theirs) return ours - theirs;
    }
  }

  private tagAt(at: number): readonly string[] {
    const tag = this.text.slice(at, this.text.indexOf('\n', at));
    let shared = this.tags.get(tag);
    if (shared === undefined) {
      shared = [tag];
      this.tags.set(tag, shared);
    }
    return shared;
  }
}

let tagger: BrillTagger | null = null;

/** The tagger, reading the generated lexicon. */
export function brillTagger(): BrillTagger {
  if (tagger) return tagger;
  const sorted = new SortedLexicon(readFileSync(LEXICON_FILE, 'utf8'));
  const lexicon = new Proxy({} as Lexicon, {
    get: (_, word) => (typeof word === 'string' ? sorted.get(word) : undefined),
  });
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
