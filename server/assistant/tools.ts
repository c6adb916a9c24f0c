/**
 * The assistant's tools, offered to the offline brain and to a language model alike.
 *
 * SPOILER BOUND: every tool that reads a book sees only `heard()`: the sentences up to the one
 * playing at the listener's position (timing entries whose start is <= the position), and the
 * book's search index brought to hold exactly those sentences (heard-index.ts). The position is
 * the client's explicit one when it sent one, else the saved playback progress, else nothing is
 * heard. Nothing after the bound is read by any answer, including the tutoring analysis:
 * characters, places and discussion questions are used only when their names occur in the heard
 * text. See docs/voice-assistant.md.
 */
import type { Book } from '../books/book';
import type { BookSource } from '../books/source';
import type { BookText } from '../books/text';
import type { TimingEntry } from '../books/timing';
import { BookIndexCache, HeardIndex, describePlace, indexTerms, type IndexedSentence } from './heard-index';
import { formatTime, shorten } from './text';
import { historyFromBooks, searchLibrary as librarySearch, type ListeningHistory } from './library';
import { newTutorState, tutorTurn as tutorReply, type TutorState } from './tutor';
import { XRAY_KINDS, xrayLookup as xrayAnswer, type XrayKind } from './xray';
import { RECENT_SPANS, recentEvents as recentAnswer, type RecentSpan } from './recent';

export { shorten };

export const TOOL_NAMES = [
  'search_library',
  'search_book',
  'xray_lookup',
  'tutor_turn',
  'book_outline',
  'current_position',
  'recent_events',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** What a tool answers: a short spoken answer plus structured data for a model or a client. */
export interface ToolResult {
  answer: string;
  data: Record<string, unknown>;
}

export interface ToolDefinition {
  name: ToolName;
  description: string;
  /** JSON schema of the arguments (OpenAI function-calling style). */
  parameters: Record<string, unknown>;
}

const jobId = { type: 'string', description: 'The id of the book (a job id).' };

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    name: 'search_library',
    description:
      "The user's library: with a query, their books matching a title, description or theme; with an empty query, all their books with how far they are in each; with recent=true, what they listened to last.",
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        max_results: { type: 'integer', minimum: 1, maximum: 20 },
        recent: {
          type: 'boolean',
          description: 'List the most recently played books first (what was I listening to?).',
        },
      },
      required: [],
    },
  },
  {
    name: 'search_book',
    description:
      'Find passages the listener has already heard that match a query. Never returns text past their position.',
    parameters: {
      type: 'object',
      properties: { job_id: jobId, query: { type: 'string' } },
      required: ['job_id', 'query'],
    },
  },
  {
    name: 'xray_lookup',
    description:
      'Who or what a character, place or thing is, or where and when the story is set (kind "setting" or "when", no query needed), from what the listener has heard so far (spoiler-free).',
    parameters: {
      type: 'object',
      properties: {
        job_id: jobId,
        query: { type: 'string', description: 'The name or thing to look up.' },
        kind: { type: 'string', enum: [...XRAY_KINDS], description: 'The kind of question (default: who).' },
      },
      required: ['job_id'],
    },
  },
  {
    name: 'tutor_turn',
    description:
      "One Socratic tutoring turn grounded in the heard text: with the learner's answer, a follow-up that agrees and probes, counters with a passage or asks for more, moving through the discussion questions; without one, the open question. The session remembers the dialogue.",
    parameters: {
      type: 'object',
      properties: { job_id: jobId, user_message: { type: 'string' } },
      required: ['job_id'],
    },
  },
  {
    name: 'book_outline',
    description: 'The chapters the listener has reached so far.',
    parameters: { type: 'object', properties: { job_id: jobId }, required: ['job_id'] },
  },
  {
    name: 'current_position',
    description:
      'Where the listener is in a book (how far, what they heard last). resume=true also opens the book in the player at that position.',
    parameters: { type: 'object', properties: { job_id: jobId, resume: { type: 'boolean' } }, required: ['job_id'] },
  },
  {
    name: 'recent_events',
    description:
      'What just happened: a short summary of what the listener heard last, naming who is in it. span "recent" (the last few minutes: "what just happened?", "what did I miss?"), "last_chapter", "this_chapter", or "recap" (the stretch before a break: "previously…"). Never reaches past their position.',
    parameters: {
      type: 'object',
      properties: { job_id: jobId, span: { type: 'string', enum: [...RECENT_SPANS] } },
      required: ['job_id'],
    },
  },
];

export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

// ---------------------------------------------------------------------------------------------
// The spoiler bound

/** Characters of the text the listener has heard at `positionSeconds` (0 when nothing). */
export function spoilerBound(timing: readonly TimingEntry[], positionSeconds: number): number {
  let bound = 0;
  for (const entry of timing) {
    if (entry.start > positionSeconds) break;
    bound = Math.max(bound, entry.char_end);
  }
  return bound;
}

export interface Heard {
  book: Book;
  /** The text before the bound: the only book text any tool uses. */
  text: string;
  /** The heard sentences, in order (index.heard(heardCount)). */
  sentences: IndexedSentence[];
  /** The book's search index; search it with heardCount only (HeardIndex.find). */
  index: HeardIndex;
  heardCount: number;
  positionSeconds: number;
  positionSource: 'client' | 'saved' | 'none';
}

// ---------------------------------------------------------------------------------------------
// Text helpers

function cleanEntity(query: string): string {
  return query
    .trim()
    .replace(/^["'“‘]+|["'”’]+$/gu, '')
    .replace(/[?!.,;:]+$/u, '')
    .replace(/^(?:the|a|an)\s+/i, '')
    .trim();
}

// ---------------------------------------------------------------------------------------------
// The toolbox

export interface ToolContext {
  userId: string;
  books: BookSource;
  /** The session's tutoring dialogues per book (kept by the session across reconnects; default: this toolbox's own). */
  tutor?: Map<string, TutorState>;
  /** Book indexes shared with other connections of the process (default: this toolbox's own). */
  indexes?: BookIndexCache;
  /** The user's playback history (default: the saved positions of `books`, in library order). */
  history?: ListeningHistory;
  /** A position the client sent for this book (seconds), preferred over the saved one. */
  clientPosition(jobId: string): number | undefined;
  /** Questions the tutor already asked in the kept conversation about a book (never asked again). */
  pastQuestions?: (jobId: string) => Promise<string[]>;
}

export interface Toolbox {
  call(name: string, args: unknown): Promise<ToolResult>;
  /** The bounded text of one of the user's books; throws ToolError when it is not theirs/finished. */
  heard(jobId: string): Promise<Heard>;
  /** Reads and indexes the heard part of a book ahead of the first question. */
  prepare(jobId: string): Promise<void>;
}

function argString(args: Record<string, unknown>, key: string, required: boolean): string {
  const value = args[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolError(`Missing argument ${key}`);
    return '';
  }
  if (typeof value !== 'string') throw new ToolError(`Argument ${key} must be a string`);
  return value;
}

export function createToolbox(ctx: ToolContext): Toolbox {
  const history = ctx.history ?? historyFromBooks(ctx.books);
  const tutorMemory = ctx.tutor ?? new Map<string, TutorState>();
  async function book(jobIdArg: string): Promise<Book> {
    const found = await ctx.books.findCompleted(ctx.userId, jobIdArg);
    if (found === null) throw new ToolError('Book not found');
    return found;
  }

  async function position(jobIdArg: string): Promise<{ seconds: number; source: Heard['positionSource'] }> {
    const client = ctx.clientPosition(jobIdArg);
    if (client !== undefined) return { seconds: client, source: 'client' };
    const saved = await ctx.books.savedPosition(ctx.userId, jobIdArg);
    return saved === null ? { seconds: 0, source: 'none' } : { seconds: saved, source: 'saved' };
  }

  const indexes = ctx.indexes ?? new BookIndexCache();

  /** The book's text and index, read once (a finished book's text never changes). */
  function indexed(b: Book): Promise<{ source: BookText; index: HeardIndex } | null> {
    return indexes.get(ctx.userId, b.id, b.chapters, () => ctx.books.text(ctx.userId, b.id));
  }

  async function heard(jobIdArg: string): Promise<Heard> {
    const b = await book(jobIdArg);
    const pos = await position(jobIdArg);
    const found = await indexed(b);
    const index = found?.index ?? (await HeardIndex.build({ text: '', timing: [] }, []));
    // No timing map: the bound cannot be placed, so nothing counts as heard.
    // Never played: nothing is heard yet (not even the sentence at 0 s).
    const none = found === null || pos.source === 'none';
    const bound = none ? 0 : spoilerBound(found.source.timing, pos.seconds);
    const heardCount = none ? 0 : index.heardCount(pos.seconds);
    const text = none ? '' : found.source.text.slice(0, bound);
    return {
      book: b,
      text,
      sentences: index.heard(heardCount),
      index,
      heardCount,
      positionSeconds: pos.seconds,
      positionSource: pos.source,
    };
  }

  async function searchLibrary(args: Record<string, unknown>): Promise<ToolResult> {
    const query = argString(args, 'query', false);
    const maxRaw = args.max_results;
    const max =
      typeof maxRaw === 'number' && Number.isFinite(maxRaw) ? Math.min(20, Math.max(1, Math.round(maxRaw))) : 5;
    if (args.recent !== undefined && typeof args.recent !== 'boolean')
      throw new ToolError('Argument recent must be a boolean');
    return librarySearch(
      { userId: ctx.userId, books: ctx.books, history },
      { query, max, recent: args.recent === true },
    );
  }

  async function searchBook(args: Record<string, unknown>): Promise<ToolResult> {
    const id = argString(args, 'job_id', true);
    const query = argString(args, 'query', true);
    const h = await heard(id);
    if (h.heardCount === 0) {
      return {
        answer: `You haven't heard any of ${h.book.title} yet, so there's nothing I can search without spoiling it.`,
        data: { matches: [] },
      };
    }
    if (indexTerms(query).length === 0)
      return { answer: 'What should I look for? Give me a word or a name.', data: { matches: [] } };
    const found = await h.index.find(query, h.heardCount, { limit: 3 });
    if (found.length === 0) {
      return {
        answer: `I couldn't find "${cleanEntity(query)}" in what you've heard of ${h.book.title} so far.`,
        data: { matches: [] },
      };
    }
    // Best first, but read in story order.
    const matches = [...found].sort((a, b) => a.sentence.index - b.sentence.index);
    const quotes = matches.map((m) => `${describePlace(m.sentence.place)}: "${shorten(m.sentence.text)}"`);
    return {
      answer: `From what you've heard, ${quotes.join(' And ')}`,
      data: {
        matches: matches.map((m) => ({
          text: m.sentence.text,
          char_start: m.sentence.charStart,
          where: describePlace(m.sentence.place),
          score: m.score,
        })),
      },
    };
  }

  async function xrayLookup(args: Record<string, unknown>): Promise<ToolResult> {
    const id = argString(args, 'job_id', true);
    const kindArg = argString(args, 'kind', false);
    if (kindArg !== '' && !(XRAY_KINDS as readonly string[]).includes(kindArg))
      throw new ToolError(`Argument kind must be one of ${XRAY_KINDS.join(', ')}`);
    const kind = kindArg === '' ? null : (kindArg as XrayKind);
    const entity = cleanEntity(argString(args, 'query', false));
    if (entity === '' && kind !== 'setting' && kind !== 'when') throw new ToolError('Missing argument query');
    const h = await heard(id);
    return xrayAnswer(
      { title: h.book.title, analysis: h.book.analysis, index: h.index, heardCount: h.heardCount },
      entity,
      kind,
    );
  }

  async function tutorTurn(args: Record<string, unknown>): Promise<ToolResult> {
    const id = argString(args, 'job_id', true);
    const message = argString(args, 'user_message', false);
    const h = await heard(id);
    let state = tutorMemory.get(id);
    if (state === undefined) {
      state = newTutorState();
      tutorMemory.set(id, state);
      // The conversation outlives sessions: a tutor that comes back carries on, never re-asks.
      for (const q of (await ctx.pastQuestions?.(id)) ?? []) if (!state.asked.includes(q)) state.asked.push(q);
    }
    const result = await tutorReply(
      { title: h.book.title, bookId: h.book.id, analysis: h.book.analysis, index: h.index, heardCount: h.heardCount },
      state,
      message,
    );
    return { answer: result.answer, data: result.data };
  }

  async function bookOutline(args: Record<string, unknown>): Promise<ToolResult> {
    const id = argString(args, 'job_id', true);
    const b = await book(id);
    const pos = await position(id);
    if (b.chapters.length === 0) {
      return {
        answer: `${b.title} is a single part; you're at ${formatTime(pos.seconds)}.`,
        data: { chapters: [], total_chapters: 0 },
      };
    }
    let t = 0;
    const reached: { title: string; order: number; start_seconds: number }[] = [];
    for (const c of b.chapters) {
      if (t > pos.seconds && reached.length > 0) break;
      reached.push({ title: c.title, order: c.order, start_seconds: t });
      t += c.duration ?? 0;
    }
    const current = reached[reached.length - 1]!;
    return {
      answer: `So far you've reached ${reached.length} of ${b.chapters.length} chapters: ${reached.map((c) => c.title).join(', ')}. You're in ${current.title}.`,
      data: { chapters: reached, total_chapters: b.chapters.length, current_chapter: current.title },
    };
  }

  /**
   * Where the listener is in a book still converting (its text is read once it is finished): the
   * place alone, and with `resume` the player opens there; the rest plays as it is ready.
   */
  async function convertingPosition(b: Book, resume: boolean): Promise<ToolResult> {
    const pos = await position(b.id);
    const data: Record<string, unknown> = {
      job_id: b.id,
      title: b.title,
      position_seconds: pos.seconds,
      duration_seconds: null,
      source: pos.source,
      percentage: null,
      converting: true,
    };
    const from = pos.source === 'none' ? 'from the beginning' : `from ${formatTime(pos.seconds)}`;
    if (resume) {
      data.open_book = { job_id: b.id, title: b.title, position_seconds: pos.seconds };
      return { answer: `Continuing ${b.title} ${from}. It is still converting: the rest plays as it is ready.`, data };
    }
    const where =
      pos.source === 'none'
        ? `You haven't started ${b.title} yet.`
        : `You're at ${formatTime(pos.seconds)} in ${b.title}.`;
    return { answer: `${where} It is still converting.`, data };
  }

  async function currentPosition(args: Record<string, unknown>): Promise<ToolResult> {
    const id = argString(args, 'job_id', true);
    if (args.resume !== undefined && typeof args.resume !== 'boolean')
      throw new ToolError('Argument resume must be a boolean');
    const listenable = await ctx.books.findListenable(ctx.userId, id);
    if (listenable !== null && listenable.status !== 'COMPLETED')
      return convertingPosition(listenable, args.resume === true);
    const h = await heard(id);
    const duration = h.book.durationSeconds;
    const pct = duration ? Math.min(100, Math.round((h.positionSeconds / duration) * 100)) : null;
    const last = h.sentences[h.sentences.length - 1];
    const data: Record<string, unknown> = {
      job_id: h.book.id,
      title: h.book.title,
      position_seconds: h.positionSeconds,
      duration_seconds: duration,
      source: h.positionSource,
      percentage: pct,
    };
    if (args.resume === true) {
      // The client opens the player here (the connection forwards `open_book` as a server message).
      data.open_book = { job_id: h.book.id, title: h.book.title, position_seconds: h.positionSeconds };
      const from = h.positionSource === 'none' ? 'from the beginning' : `from ${formatTime(h.positionSeconds)}`;
      const recap = last === undefined ? '' : ` You last heard: "${shorten(last.text, 140)}"`;
      return { answer: `Continuing ${h.book.title} ${from}.${recap}`, data };
    }
    const where =
      h.positionSource === 'none'
        ? `You haven't started ${h.book.title} yet.`
        : `You're at ${formatTime(h.positionSeconds)}${duration !== null ? ` of ${formatTime(duration)}` : ''} in ${h.book.title}` +
          `${pct !== null ? `, ${pct}% of the way through` : ''}.`;
    return { answer: last === undefined ? where : `${where} The last thing you heard: "${shorten(last.text)}"`, data };
  }

  async function recentEvents(args: Record<string, unknown>): Promise<ToolResult> {
    const id = argString(args, 'job_id', true);
    const spanArg = argString(args, 'span', false);
    if (spanArg !== '' && !(RECENT_SPANS as readonly string[]).includes(spanArg))
      throw new ToolError(`Argument span must be one of ${RECENT_SPANS.join(', ')}`);
    const h = await heard(id);
    return recentAnswer(
      { title: h.book.title, analysis: h.book.analysis, heard: h.sentences, positionSeconds: h.positionSeconds },
      spanArg === '' ? 'recent' : (spanArg as RecentSpan),
    );
  }

  const handlers: Record<ToolName, (args: Record<string, unknown>) => Promise<ToolResult>> = {
    search_library: searchLibrary,
    search_book: searchBook,
    xray_lookup: xrayLookup,
    tutor_turn: tutorTurn,
    book_outline: bookOutline,
    current_position: currentPosition,
    recent_events: recentEvents,
  };

  return {
    heard,
    async prepare(jobIdArg) {
      const h = await heard(jobIdArg);
      await h.index.prepare(h.heardCount);
    },
    async call(name, args) {
      if (!(TOOL_NAMES as readonly string[]).includes(name)) throw new ToolError(`Unknown tool ${name}`);
      const record =
        args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
      return handlers[name as ToolName](record);
    },
  };
}
