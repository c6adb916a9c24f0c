import type { TranscriptSentence } from '../../api/gen/model';

type Timed = Pick<TranscriptSentence, 'start' | 'end'>;

/**
 * The sentence being spoken `seconds` into a chapter: the last one starting at or before it
 * (binary search over the timing map, which is in reading order). Before the first sentence it is
 * the first; past the end, the last. -1 for a chapter without sentences.
 */
export function sentenceAt(sentences: readonly Timed[], seconds: number): number {
  if (sentences.length === 0) return -1;
  let low = 0;
  let high = sentences.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (sentences[middle]!.start <= seconds + 0.001) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Sentences grouped into the paragraphs the text had (a sentence that starts one opens a group). */
export function paragraphsOf<S extends Pick<TranscriptSentence, 'paragraph_start'>>(sentences: readonly S[]): S[][] {
  const paragraphs: S[][] = [];
  for (const sentence of sentences) {
    const last = paragraphs[paragraphs.length - 1];
    if (!last || sentence.paragraph_start) paragraphs.push([sentence]);
    else last.push(sentence);
  }
  return paragraphs;
}

/**
 * Where, in the sentence's own text, the word spoken `seconds` into the chapter is: null when the
 * sentence has no word timings (or before its first word).
 */
export function spokenWord(
  sentence: Pick<TranscriptSentence, 'text' | 'char_start' | 'words'>,
  seconds: number,
): { from: number; to: number } | null {
  const words = sentence.words ?? [];
  if (words.length === 0 || seconds + 0.001 < words[0]!.start) return null;
  const word = words[sentenceAt(words, seconds)]!;
  const from = Math.max(0, word.char_start - sentence.char_start);
  const to = Math.min(sentence.text.length, word.char_end - sentence.char_start);
  return to > from ? { from, to } : null;
}
