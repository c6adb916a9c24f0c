/**
 * A chat model asked about the quoted spans the offline attribution is unsure of. With a model
 * configured (ASSISTANT_MODEL_URL, the voice assistant's: any OpenAI-compatible chat-completions
 * API), each span below UNSURE_BELOW, least sure first, is sent with the paragraph it is in and the
 * one before, the quote marked, and the book's speakers; the model names one of them in JSON. A
 * character's name moves the span to them, "narrator" gives it to the narrator. Only quoted spans
 * are asked about, so narration can never go to a character.
 *
 * Bounded: at most `maxLines` spans per book, `concurrency` questions at once, each within
 * `callTimeoutMs`, all within `budgetMs`, and none after FAILURES_IN_A_ROW failures in a row. A
 * question that fails, times out or is answered with anything but a listed speaker leaves the
 * offline answer.
 */
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import * as z from 'zod';
import type { Config } from '../config';
import { chatModelClient } from '../assistant/model';
import { splitParagraphs, type Paragraph } from './attribution/quotes';
import { NARRATOR, type Attribution, type CastCharacter, type SpokenSpan } from './types';

/** Spans attributed with less confidence than this are asked of the model. */
export const UNSURE_BELOW = 0.6;
/** The confidence of a span the model named the speaker of. */
export const MODEL_CONFIDENCE = 0.8;
/** After this many failed questions in a row (errors, timeouts, nonsense), the rest are not asked. */
export const FAILURES_IN_A_ROW = 3;
const CALL_TIMEOUT_MS = 8000;
const CONCURRENCY = 2;
/** Characters of the passage shown before the quote, of the quote, and after it. */
const BEFORE_CHARS = 1200;
const QUOTE_CHARS = 1200;
const AFTER_CHARS = 400;

export interface ModelCheckOptions {
  model: string;
  /** The most spans asked about (least sure first). */
  maxLines: number;
  /** Longest all the questions may take together. */
  budgetMs: number;
  /** Longest one question may take (default 8 s). */
  callTimeoutMs?: number;
  /** Questions at once (default 2). */
  concurrency?: number;
}

export interface ModelCheckReport {
  attribution: Attribution;
  /** Questions sent. */
  asked: number;
  /** Spans the model gave another speaker. */
  moved: number;
  /** Questions that failed, timed out or got an answer naming no listed speaker. */
  failed: number;
  /** Why spans were left unasked: the time budget ran out or the model kept failing; null when none were. */
  stopped: 'budget' | 'failures' | null;
  /** The last failure's reason, for the log. */
  lastError: string | null;
}

export type ModelCheck = (attribution: Attribution, chapters: readonly { text: string }[]) => Promise<Attribution>;

/**
 * The check the cast service runs after attribution, with the configured model; undefined without
 * one (or with CAST_MODEL_MAX_LINES at 0), so the offline answer stands. `log` hears how it went.
 */
export function castModelCheck(
  config: Pick<Config, 'assistantModel' | 'castModelMaxLines' | 'castModelBudgetSeconds'>,
  log?: { info(details: object, message: string): void; warn(details: object, message: string): void },
): ModelCheck | undefined {
  const { assistantModel } = config;
  if (assistantModel === undefined || config.castModelMaxLines === 0) return undefined;
  const client = chatModelClient({ url: assistantModel.url, key: assistantModel.key, timeoutMs: CALL_TIMEOUT_MS });
  const options = {
    model: assistantModel.model,
    maxLines: config.castModelMaxLines,
    budgetMs: config.castModelBudgetSeconds * 1000,
  };
  return async (attribution, chapters) => {
    const report = await checkWithModel(client, attribution, chapters, options);
    if (report.asked === 0) return report.attribution;
    const { asked, moved, failed, stopped, lastError } = report;
    if (failed > 0)
      log?.warn({ asked, moved, failed, stopped, lastError }, 'the chat model did not answer for some lines');
    else log?.info({ asked, moved, stopped }, 'asked the chat model who speaks the unsure lines');
    return report.attribution;
  };
}

type Line = { chapter: number; index: number; span: SpokenSpan };

/** The spans below UNSURE_BELOW, least sure first (then in reading order), at most `max`. */
export function unsureLines(attribution: Attribution, max: number): Line[] {
  const lines = attribution.chapters.flatMap((spans, chapter) =>
    spans.flatMap((span, index) => (span.confidence < UNSURE_BELOW ? [{ chapter, index, span }] : [])),
  );
  lines.sort((a, b) => a.span.confidence - b.span.confidence || a.chapter - b.chapter || a.index - b.index);
  return lines.slice(0, Math.max(0, max));
}

/** Asks `client` about the unsure spans of `attribution` within the bounds of `options`; the attribution given is not changed. */
export async function checkWithModel(
  client: OpenAI,
  attribution: Attribution,
  chapters: readonly { text: string }[],
  options: ModelCheckOptions,
): Promise<ModelCheckReport> {
  const report: ModelCheckReport = {
    attribution: { characters: attribution.characters, chapters: attribution.chapters.map((spans) => [...spans]) },
    asked: 0,
    moved: 0,
    failed: 0,
    stopped: null,
    lastError: null,
  };
  // With no character to give a line to there is nothing to ask.
  if (attribution.characters.length === 0 || options.maxLines <= 0 || options.budgetMs <= 0) return report;
  const lines = unsureLines(attribution, options.maxLines);
  const speakers = speakerNames(attribution.characters);
  const paragraphs = new Map<number, Paragraph[]>();
  const paragraphsOf = (chapter: number, text: string) => {
    if (!paragraphs.has(chapter)) paragraphs.set(chapter, splitParagraphs(text));
    return paragraphs.get(chapter)!;
  };
  // Timers of our own, not AbortSignal.timeout: on Node 20 a timeout signal that only
  // AbortSignal.any listens to may be collected before it fires, and the question waits on.
  const budget = new AbortController();
  const budgetTimer = setTimeout(() => budget.abort(), options.budgetMs);
  const callTimeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  let next = 0;
  let inARow = 0;

  async function askNext(): Promise<void> {
    while (next < lines.length && report.stopped === null) {
      if (budget.signal.aborted) {
        report.stopped = 'budget';
        return;
      }
      const line = lines[next++]!;
      const text = chapters[line.chapter]?.text ?? '';
      const passage = markedPassage(text, paragraphsOf(line.chapter, text), line.span);
      report.asked += 1;
      const call = new AbortController();
      const stop = () => call.abort();
      budget.signal.addEventListener('abort', stop);
      const callTimer = setTimeout(stop, callTimeoutMs);
      try {
        const speaker = await askSpeaker(client, options.model, passage, attribution.characters, speakers, call.signal);
        inARow = 0;
        if (speaker !== line.span.speaker) report.moved += 1;
        report.attribution.chapters[line.chapter]![line.index] = {
          ...line.span,
          speaker,
          confidence: MODEL_CONFIDENCE,
        };
      } catch (error) {
        report.failed += 1;
        report.lastError = failureReason(error, budget.signal, call.signal, callTimeoutMs);
        inARow += 1;
        if (inARow >= FAILURES_IN_A_ROW) report.stopped ??= 'failures';
      } finally {
        clearTimeout(callTimer);
        budget.signal.removeEventListener('abort', stop);
      }
    }
  }

  const workers = Math.max(1, Math.min(options.concurrency ?? CONCURRENCY, lines.length));
  try {
    await Promise.all(Array.from({ length: workers }, askNext));
  } finally {
    clearTimeout(budgetTimer);
  }
  if (report.stopped === null && next < lines.length) report.stopped = budget.signal.aborted ? 'budget' : 'failures';
  return report;
}

function failureReason(error: unknown, budget: AbortSignal, call: AbortSignal, callTimeoutMs: number): string {
  if (budget.aborted) return 'out of time';
  if (call.aborted) return `no answer within ${callTimeoutMs} ms`;
  return error instanceof Error ? error.message : String(error);
}

/** Who may be named, lower-cased: every character by name and by an alias no one else shares, and the narrator. */
function speakerNames(characters: readonly CastCharacter[]): Map<string, string> {
  const byName = new Map<string, string>();
  const aliases = new Map<string, string | null>();
  for (const c of characters) {
    for (const alias of c.aliases) {
      const key = alias.trim().toLowerCase();
      aliases.set(key, aliases.has(key) && aliases.get(key) !== c.id ? null : c.id);
    }
  }
  for (const [alias, id] of aliases) if (id !== null) byName.set(alias, id);
  for (const c of characters) byName.set(c.name.trim().toLowerCase(), c.id);
  byName.set(NARRATOR, NARRATOR);
  return byName;
}

const Answer = z.object({ speaker: z.string().trim().min(1).max(200) });

/** The speaker id a reply names, or an error saying why the reply names none. */
export function speakerOfReply(reply: string, speakers: ReadonlyMap<string, string>): string {
  const json = /\{[\s\S]*\}/.exec(reply)?.[0];
  if (json === undefined) throw new Error('the reply holds no JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('the reply holds no valid JSON');
  }
  const answer = Answer.safeParse(parsed);
  if (!answer.success) throw new Error('the reply names no speaker');
  const id = speakers.get(answer.data.speaker.toLowerCase());
  if (id === undefined) throw new Error('the reply names no listed speaker');
  return id;
}

async function askSpeaker(
  client: OpenAI,
  model: string,
  passage: string,
  characters: readonly CastCharacter[],
  speakers: ReadonlyMap<string, string>,
  signal: AbortSignal,
): Promise<string> {
  const completion = await client.chat.completions.create(
    { model, messages: question(passage, characters), response_format: { type: 'json_object' } },
    { signal },
  );
  return speakerOfReply(completion.choices[0]?.message.content ?? '', speakers);
}

/** The messages of one question: the speakers to choose from and the passage with the quote marked [[…]]. */
export function question(passage: string, characters: readonly CastCharacter[]): ChatCompletionMessageParam[] {
  const names = [...characters.map((c) => c.name), NARRATOR].join(', ');
  return [
    {
      role: 'system',
      content:
        'You decide who speaks one line of dialogue in a book. The line is marked [[like this]] in the passage. ' +
        'Answer with JSON only, {"speaker": "<name>"}, the name written exactly as in the list of speakers, or "narrator" ' +
        'when none of them says it (the narrator speaking, a title, a written quotation).',
    },
    { role: 'user', content: `Speakers: ${names}\n\nPassage:\n${passage}\n\nWho speaks the line marked [[ ]]?` },
  ];
}

/** The paragraph(s) of a span and the one before, the span between [[ and ]], clipped to a few hundred words. */
export function markedPassage(text: string, paragraphs: readonly Paragraph[], span: SpokenSpan): string {
  const first = lastIndexAtOrBefore(paragraphs, span.charStart);
  const last = Math.max(first, lastIndexAtOrBefore(paragraphs, span.charEnd - 1));
  const from = Math.min(span.charStart, paragraphs[Math.max(0, first - 1)]?.start ?? span.charStart);
  const to = Math.max(span.charEnd, paragraphs[last]?.end ?? span.charEnd);
  const before = text.slice(Math.max(from, span.charStart - BEFORE_CHARS), span.charStart);
  const quote = text.slice(span.charStart, span.charEnd);
  const after = text.slice(span.charEnd, Math.min(to, span.charEnd + AFTER_CHARS));
  const clipped =
    quote.length <= QUOTE_CHARS ? quote : `${quote.slice(0, (QUOTE_CHARS * 2) / 3)} … ${quote.slice(-QUOTE_CHARS / 3)}`;
  return `${before}[[${clipped}]]${after}`;
}

/** The index of the last paragraph that starts at or before `at` (0 when none does). */
function lastIndexAtOrBefore(paragraphs: readonly Paragraph[], at: number): number {
  let low = 0;
  let high = paragraphs.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (paragraphs[mid]!.start <= at) low = mid + 1;
    else high = mid;
  }
  return Math.max(0, low - 1);
}
