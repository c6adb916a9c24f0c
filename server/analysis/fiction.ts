/** Whether a text reads as fiction (dialogue, speech, people) or non-fiction (figures, headings, terms). */
import { countWords, SPEECH_VERBS } from './words';

export function classify(scan: string, characterMentions: number): 'fiction' | 'non-fiction' {
  const words = Math.max(1, countWords(scan));
  const per1k = (n: number) => (n * 1000) / words;
  const quotes = per1k(
    (scan.match(/[“"][^“”"\n]{2,400}[”"]/g) ?? []).length +
      (scan.match(/(?:^|\s)‘[^‘’\n]{2,400}’(?=\s|[.,;:!?]|$)/gm) ?? []).length,
  );
  const speech = per1k((scan.match(new RegExp(String.raw`\b(?:${SPEECH_VERBS})\b`, 'g')) ?? []).length);
  const pronouns = per1k((scan.match(/\b(?:he|she|him|her|his)\b/gi) ?? []).length);
  const people = per1k(characterMentions);
  const digits = per1k((scan.match(/\b\d[\d,.]*%?/g) ?? []).length);
  const headings = per1k(
    scan
      .split('\n')
      .filter(
        (l) => /^\s*(?:#{1,6}\s|\d+(?:\.\d+)*\s+[A-Z]|[A-Z][^.!?]{2,60}$)/.test(l) && l.trim().split(/\s+/).length <= 8,
      ).length,
  );
  const academic = per1k(
    (
      scan.match(
        /\b(?:research|study|studies|data|evidence|analysis|according|percent|however|therefore|furthermore|example|results?|method|system|process|economy|government|population|theory|significant|include|including|such as)\b/gi,
      ) ?? []
    ).length,
  );
  const fictionScore = quotes * 1.5 + speech * 2 + pronouns * 0.3 + people * 0.5;
  const factScore = digits * 1.0 + headings * 1.0 + academic * 1.2;
  return fictionScore >= factScore ? 'fiction' : 'non-fiction';
}
