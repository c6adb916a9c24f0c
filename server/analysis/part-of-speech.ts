/**
 * A retext plugin that tags each word with its part of speech (Penn Treebank tags such as NN, JJ,
 * VBD), as retext-pos does and with the same tagger: Eric Brill's, from the `pos` package. The
 * difference is the tagger's lexicon (92,000 words). `pos` ships it as a 4 MB JavaScript object
 * literal of words and all their possible tags; compiling that literal made the analysis thread
 * about 25 MB bigger, and a map of each word's first tag read from it still took 24 MB and a tenth
 * of a second. The tagger only ever reads a word's first (most likely) tag, so it reads the
 * generated lexicon of first tags instead (./lexicon.ts; docs/adr/0053-part-of-speech-lexicon-generated.md).
 * server/analysis/part-of-speech.test.ts holds it to the package's own lexicon and tagger.
 */
import { createRequire } from 'node:module';
import { toString } from 'nlcst-to-string';
import { partOfSpeechLexicon } from './lexicon';

interface BrillTagger {
  /** [word, tag] for each word of a sentence. */
  tag(words: string[]): [string, string][];
}
/** What the tagger reads: a word's possible tags, most likely first (it reads only the first). */
type Lexicon = Record<string, readonly string[] | undefined>;

const require = createRequire(import.meta.url);
/** The package's tagger; its constructor would load the whole literal, so it is never called. */
const POSTagger = require('pos/POSTagger.js') as { prototype: BrillTagger };

let tagger: BrillTagger | null = null;

/** The tagger, reading the generated lexicon. */
export function brillTagger(): BrillTagger {
  if (tagger) return tagger;
  const sorted = partOfSpeechLexicon();
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
