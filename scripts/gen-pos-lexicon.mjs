// Writes server/analysis/gen/pos-lexicon.tsv: every word of the `pos` package's lexicon (Eric
// Brill's, 92,000 words) with its first, most likely, tag, one "word<TAB>tag" line each, sorted by
// UTF-16 code units as JavaScript compares strings. The analysis's part-of-speech tagger searches
// the file in place (server/analysis/part-of-speech.ts) instead of compiling the package's 4 MB
// object literal of every word's tags. Part of `npm run generate`: check:generated fails when the
// installed package would give another file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const out = fileURLToPath(new URL('../server/analysis/gen/pos-lexicon.tsv', import.meta.url));
/** @type {Record<string, string[]>} */
const lexicon = require('pos/lexicon.js');

// The one entry without a tag is the empty string, which is never a word.
const words = Object.keys(lexicon)
  .filter((word) => lexicon[word].length > 0)
  .sort();
const unusable = words.filter((word) => /[\t\n]/.test(word) || /[\t\n]/.test(lexicon[word][0]));
if (unusable.length > 0) throw new Error(`Lexicon entries with a tab or line break: ${unusable.join(', ')}`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, words.map((word) => `${word}\t${lexicon[word][0]}\n`).join(''));
