import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { retext } from 'retext';
import { describe, expect, it } from 'vitest';
import { SortedLexicon } from './lexicon';
import retextPartOfSpeech, { brillTagger } from './part-of-speech';

const require = createRequire(import.meta.url);
/** The package's own tagger, with its whole lexicon: what retext-pos tags with. */
const { Tagger } = require('pos') as { Tagger: new () => { tag(words: string[]): [string, string][] } };
const packageLexicon = require('pos/lexicon.js') as Record<string, string[]>;

describe('the part-of-speech tagger with the generated lexicon', () => {
  it("finds every word of the package's lexicon with its first tag, and nothing else", () => {
    const lexicon = new SortedLexicon(readFileSync(new URL('./gen/pos-lexicon.tsv', import.meta.url), 'utf8'));
    // Its one entry without a tag is the empty string, which is never a word.
    const words = Object.keys(packageLexicon).filter((word) => packageLexicon[word]!.length > 0);
    expect(Object.keys(packageLexicon).length - words.length).toBe(1);
    expect(lexicon.size).toBe(words.length);
    const differing = words.filter((word) => lexicon.get(word)?.[0] !== packageLexicon[word]![0]);
    expect(differing).toEqual([]);
    for (const other of ['', 'zyxwvut', 'constructor', '__proto__', 'toString', 'Keeper\t', 'keepers!']) {
      const own = Object.hasOwn(packageLexicon, other) ? packageLexicon[other]! : [];
      expect(lexicon.get(other), other).toEqual(own.length > 0 ? [own[0]] : undefined);
    }
  });

  it('looks a word up in sorted lines, shorter words first, by UTF-16 code unit', () => {
    const lexicon = new SortedLexicon('A\tDT\na\tDT\nan\tDT\nant\tNN\ncafé\tNN\nÉtienne\tNNP\n');
    expect(['A', 'a', 'an', 'ant', 'café', 'Étienne'].map((w) => lexicon.get(w)?.[0])).toEqual([
      'DT',
      'DT',
      'DT',
      'NN',
      'NN',
      'NNP',
    ]);
    for (const missing of ['', 'B', 'ants', 'anu', 'caf', 'cafe', 'É', 'b'])
      expect(lexicon.get(missing), missing).toBeUndefined();
    // Words with one tag share its array, as the package's tagger only reads it.
    expect(lexicon.get('an')).toBe(lexicon.get('a'));
  });

  it('tags sentences exactly as the package tagger does, unknown and odd words included', () => {
    const sentences = [
      'The keeper climbed the tower while the storm rolled over the grey sea .',
      "Elizabeth didn't answer ; she watched Mr. Darcy's carriage leave Netherfield at 5 o'clock .",
      'constructor toString __proto__ hasOwnProperty valueOf zyxwvut Qwerty 1997 £ , " \' .',
      'Solar panels store energy in batteries ; the electricity-storage problem is economic .',
    ];
    const ours = brillTagger();
    const theirs = new Tagger();
    for (const sentence of sentences) {
      const words = sentence.split(' ');
      expect(ours.tag(words)).toEqual(theirs.tag(words));
    }
  });

  it("sets each word's partOfSpeech in a retext tree", () => {
    const tree = retext().use(retextPartOfSpeech).runSync(retext().parse('The lighthouse keeper wrote letters.'));
    const tags: string[] = [];
    const walk = (node: { type: string; children?: unknown[]; data?: { partOfSpeech?: string } }): void => {
      if (node.type === 'WordNode') tags.push(node.data?.partOfSpeech ?? '?');
      for (const child of node.children ?? []) walk(child as typeof node);
    };
    walk(tree as unknown as Parameters<typeof walk>[0]);
    expect(tags).toEqual(['DT', 'NN', 'NN', 'VBD', 'NNS']);
  });
});
