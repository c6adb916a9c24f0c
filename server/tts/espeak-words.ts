/**
 * eSpeak-NG's word events (from its kept-running hosts, espeak-host.ts) as the read-along's word
 * timings of the text that was spoken.
 */
import type { HostWord } from './espeak-host';
import type { WordTiming } from './types';

/**
 * eSpeak's word events as word timings of `text`: eSpeak counts code points from 1, Lectio's
 * offsets are UTF-16 units from 0. Each event is snapped to the word (a whitespace-separated token
 * with a letter, digit or symbol, punctuation around it left out) it falls in. eSpeak sometimes
 * names one word several times ("$5.50": five, dollars, fifty) or points back into a word already
 * spoken, and skips a word said as part of a phrase of its dictionary ("déjà vu"): a word with no
 * event of its own shares the time of the word before it by length, so every word of the text is
 * there, in order. Times only increase; a word ends where the next begins, the last with the audio.
 */
export function hostWordTimings(
  text: string,
  words: readonly HostWord[],
  samples: number,
  sampleRate: number,
): WordTiming[] {
  const utf16At: number[] = [];
  let offset = 0;
  for (const ch of text) {
    utf16At.push(offset);
    offset += ch.length;
  }
  utf16At.push(offset);
  const tokens: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    if (!/[\p{L}\p{N}\p{S}]/u.test(m[0])) continue; // a dash, an ellipsis: nothing is said
    const inner = /^[\p{P}\p{S}]*(.*?)[\p{P}\p{S}]*$/su.exec(m[0])![1]!;
    const start = m.index + (inner.length > 0 ? m[0].indexOf(inner) : 0);
    tokens.push({ start, end: inner.length > 0 ? start + inner.length : m.index + m[0].length });
  }
  // Where each timed word starts: its first event.
  const starts: { token: number; sample: number }[] = [];
  let t = 0;
  for (const w of words) {
    const at = utf16At[Math.min(Math.max(w.position - 1, 0), utf16At.length - 1)]!;
    while (t < tokens.length && tokens[t]!.end <= at) t++;
    if (t >= tokens.length) break;
    const last = starts.at(-1);
    if (last !== undefined && last.token >= t) continue;
    starts.push({ token: t, sample: Math.min(samples, Math.max(w.sample, last?.sample ?? 0)) });
  }
  if (starts.length === 0) return [];
  if (starts[0]!.token > 0) starts.unshift({ token: 0, sample: 0 });
  const timed: WordTiming[] = [];
  for (const [i, s] of starts.entries()) {
    const group = tokens.slice(s.token, starts[i + 1]?.token ?? tokens.length);
    const until = starts[i + 1]?.sample ?? samples;
    const chars = group.reduce((n, g) => n + g.end - g.start, 0);
    let at = s.sample;
    for (const g of group) {
      const next = at + ((until - s.sample) * (g.end - g.start)) / chars;
      timed.push({ start: at / sampleRate, end: next / sampleRate, charStart: g.start, charEnd: g.end });
      at = next;
    }
  }
  return timed;
}
