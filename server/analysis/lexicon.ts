/**
 * The part-of-speech lexicon: the 92,000 words of the `pos` package, each with its first (most
 * likely) tag, as `npm run generate` writes them to ./gen/pos-lexicon.tsv, sorted
 * (scripts/gen-pos-lexicon.mjs). Words are looked up in that text where it lies, by binary search:
 * about 1.2 MB of string and 0.4 MB of line offsets. The tagger reads it (./part-of-speech.ts), and
 * so does the search for sentences that may name someone (./people-and-places.ts).
 */
import { readFileSync } from 'node:fs';

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

let loaded: SortedLexicon | null = null;

/** The generated lexicon, read once per thread. */
export function partOfSpeechLexicon(): SortedLexicon {
  loaded ??= new SortedLexicon(readFileSync(LEXICON_FILE, 'utf8'));
  return loaded;
}
