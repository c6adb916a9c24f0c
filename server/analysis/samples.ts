/**
 * The parts of a text the tutoring analysis reads. compromise is accurate but costs ~30 µs per
 * character, so a long text is sampled:
 * - a "scan" sample (first ~120 KB + 8 evenly spaced 10 KB slices, ~200 KB) is used for the cheap
 *   regex work: counting name mentions, honorific and speech-verb name cues, time cues, and the
 *   fiction/non-fiction features;
 * - a "keyword" sample (~80 KB) goes through retext-pos + retext-keywords;
 * - an "nlp" sample (~30 KB: the opening plus evenly spaced slices) goes through compromise for
 *   people and places.
 */

/** The text with its line ends made `\n` and a leading byte-order mark removed. */
export function cleanText(text: string): string {
  return String(text ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(/^\uFEFF/, '');
}

export const scanSample = (clean: string): string => sampleText(clean, 120_000, 8, 10_000);
export const keywordSample = (clean: string): string => sampleText(clean, 50_000, 6, 5_000);
export const nlpSample = (clean: string): string => sampleText(clean, 18_000, 6, 2_000);

/** The opening `head` characters plus `slices` evenly spaced pieces of `sliceSize` from the rest. */
export function sampleText(text: string, head: number, slices: number, sliceSize: number): string {
  if (text.length <= head + slices * sliceSize) return text;
  const cutAtSpace = (pos: number, forward: boolean): number => {
    const limit = 200;
    for (let i = 0; i < limit; i++) {
      const p = forward ? pos + i : pos - i;
      if (p <= 0 || p >= text.length) return Math.max(0, Math.min(text.length, p));
      if (/\s/.test(text[p] ?? '')) return p;
    }
    return pos;
  };
  const parts = [text.slice(0, cutAtSpace(head, false))];
  const restStart = head;
  const step = (text.length - restStart) / slices;
  for (let i = 0; i < slices; i++) {
    const s = cutAtSpace(Math.floor(restStart + i * step + (step - sliceSize) / 2), true);
    const e = cutAtSpace(s + sliceSize, false);
    if (e > s) parts.push(text.slice(s, e));
  }
  return parts.join('\n\n');
}
