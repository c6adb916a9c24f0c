/** The books the first-chapter and memory benches convert: the sample prose, with or without chapter headings. */
import { SAMPLE_SENTENCES } from './sample-text';

const CHAPTER_CHARS = 25_000;
/** A text of about `chars` characters in paragraphs; with headings, chapters of about CHAPTER_CHARS under "Chapter N". */
export function bookText(chars: number, headings = true): string {
  const chapters: string[] = [];
  let total = 0;
  for (let n = 1; total < chars; n += 1) {
    const heading = headings ? `Chapter ${n}\n\n` : '';
    const room = Math.min(CHAPTER_CHARS, chars - total - heading.length - 2);
    if (room < 200) break;
    let body = '';
    for (let i = n; ; i += 1) {
      const sentence = `${SAMPLE_SENTENCES[i % SAMPLE_SENTENCES.length]} `;
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
