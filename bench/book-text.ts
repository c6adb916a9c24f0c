/** The books the first-chapter and memory benches convert: the sample prose, with or without chapter headings. */
import { SAMPLE_SENTENCES } from './sample-text';

/**
 * Prose in which people and places are named, four sentences in ten, as in a novel: the sample
 * prose names nobody, so the tutoring analysis never loads its finder of people and places
 * (compromise) for it (docs/adr/0054-only-naming-sentences-go-to-compromise.md).
 */
export const NAMING_SENTENCES = [
  'The old lighthouse stood at the edge of the cliff, watching the grey sea roll in.',
  'Every evening Thomas Hale climbed the spiral stairs and lit the great lamp.',
  'Ships far out on the water saw the beam and turned away from the rocks.',
  '"Is the lamp lit, Thomas?" asked Mrs. Penrose from the door of the cottage.',
  'In winter the wind howled around the tower and salt crusted the windows.',
  'He wrote in his logbook each night, noting the weather and the passing vessels.',
  'Once a month the supply boat came from Falmouth with letters from his sister Ellen.',
  'The keeper read them by the lamp and kept them in a tin box.',
  'Captain Morrow of the Rosalind had sailed past the light for thirty years.',
  'Nobody on the coast remembered a winter as long as that one.',
];

const CHAPTER_CHARS = 25_000;
/** A text of about `chars` characters in paragraphs; with headings, chapters of about CHAPTER_CHARS under "Chapter N". */
export function bookText(chars: number, headings = true, sentences: readonly string[] = SAMPLE_SENTENCES): string {
  const chapters: string[] = [];
  let total = 0;
  for (let n = 1; total < chars; n += 1) {
    const heading = headings ? `Chapter ${n}\n\n` : '';
    const room = Math.min(CHAPTER_CHARS, chars - total - heading.length - 2);
    if (room < 200) break;
    let body = '';
    for (let i = n; ; i += 1) {
      const sentence = `${sentences[i % sentences.length]} `;
      if (body.length + sentence.length + 2 > room) break;
      body += sentence;
      if (i % 6 === 0) body += '\n\n';
    }
    const chapter = `${heading}${body.trim()}`;
    chapters.push(chapter);
    total += chapter.length + 2;
  }
  return chapters.join('\n\n');
}
