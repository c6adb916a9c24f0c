/**
 * Each of the assistant's tools: its arguments checked, its answer read from the heard part of the
 * book only (./heard.ts). The toolbox (./tools.ts) calls them by name.
 */
import type { Book } from '../books/book';
import { describePlace, indexTerms } from './heard-index';
import type { HeardReader, ToolContext } from './heard';
import { searchLibrary as librarySearch, type ListeningHistory } from './library';
import { recentEvents as recentAnswer, RECENT_SPANS, type RecentSpan } from './recent';
import { formatTime, shorten } from './text';
import { argString, cleanEntity, ToolError, type ToolResult } from './tool-definitions';
import { newTutorState, tutorTurn as tutorReply, type TutorState } from './tutor';
import { xrayLookup as xrayAnswer, XRAY_KINDS, type XrayKind } from './xray';
import { whoSaid } from './who-said';

/** What every tool works with: the toolbox's context, its reader of heard text, its memories. */
export interface ToolKit extends HeardReader {
  ctx: ToolContext;
  history: ListeningHistory;
  tutorMemory: Map<string, TutorState>;
}

export async function searchLibrary(kit: ToolKit, args: Record<string, unknown>): Promise<ToolResult> {
  const query = argString(args, 'query', false);
  const maxRaw = args.max_results;
  const max = typeof maxRaw === 'number' && Number.isFinite(maxRaw) ? Math.min(20, Math.max(1, Math.round(maxRaw))) : 5;
  if (args.recent !== undefined && typeof args.recent !== 'boolean')
    throw new ToolError('Argument recent must be a boolean');
  return librarySearch(
    { userId: kit.ctx.userId, books: kit.ctx.books, history: kit.history },
    { query, max, recent: args.recent === true },
  );
}

export async function searchBook(kit: ToolKit, args: Record<string, unknown>): Promise<ToolResult> {
  const id = argString(args, 'job_id', true);
  const query = argString(args, 'query', true);
  const h = await kit.heard(id);
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

export async function xrayLookup(kit: ToolKit, args: Record<string, unknown>): Promise<ToolResult> {
  const id = argString(args, 'job_id', true);
  const kindArg = argString(args, 'kind', false);
  if (kindArg !== '' && !(XRAY_KINDS as readonly string[]).includes(kindArg))
    throw new ToolError(`Argument kind must be one of ${XRAY_KINDS.join(', ')}`);
  const kind = kindArg === '' ? null : (kindArg as XrayKind);
  if (kind === 'said')
    return whoSaid(kit.ctx.books, kit.ctx.userId, await kit.heard(id), argString(args, 'query', false));
  const entity = cleanEntity(argString(args, 'query', false));
  if (entity === '' && kind !== 'setting' && kind !== 'when') throw new ToolError('Missing argument query');
  const h = await kit.heard(id);
  return xrayAnswer(
    { title: h.book.title, analysis: h.book.analysis, index: h.index, heardCount: h.heardCount },
    entity,
    kind,
  );
}

export async function tutorTurn(kit: ToolKit, args: Record<string, unknown>): Promise<ToolResult> {
  const id = argString(args, 'job_id', true);
  const message = argString(args, 'user_message', false);
  const h = await kit.heard(id);
  let state = kit.tutorMemory.get(id);
  if (state === undefined) {
    state = newTutorState();
    kit.tutorMemory.set(id, state);
    // The conversation outlives sessions: a tutor that comes back carries on, never re-asks.
    for (const q of (await kit.ctx.pastQuestions?.(id)) ?? []) if (!state.asked.includes(q)) state.asked.push(q);
  }
  const result = await tutorReply(
    { title: h.book.title, bookId: h.book.id, analysis: h.book.analysis, index: h.index, heardCount: h.heardCount },
    state,
    message,
  );
  return { answer: result.answer, data: result.data };
}

export async function bookOutline(kit: ToolKit, args: Record<string, unknown>): Promise<ToolResult> {
  const id = argString(args, 'job_id', true);
  const b = await kit.book(id);
  const pos = await kit.position(id);
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
async function convertingPosition(kit: ToolKit, b: Book, resume: boolean): Promise<ToolResult> {
  const pos = await kit.position(b.id);
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

export async function currentPosition(kit: ToolKit, args: Record<string, unknown>): Promise<ToolResult> {
  const id = argString(args, 'job_id', true);
  if (args.resume !== undefined && typeof args.resume !== 'boolean')
    throw new ToolError('Argument resume must be a boolean');
  // A book is read once: still converting it has a place but no text yet; a chapter job is no
  // book of its own (findListenable), and is read as the finished job it is.
  const listenable = await kit.ctx.books.findListenable(kit.ctx.userId, id);
  if (listenable !== null && listenable.status !== 'COMPLETED')
    return convertingPosition(kit, listenable, args.resume === true);
  const h = listenable !== null ? await kit.heardOf(listenable) : await kit.heard(id);
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

export async function recentEvents(kit: ToolKit, args: Record<string, unknown>): Promise<ToolResult> {
  const id = argString(args, 'job_id', true);
  const spanArg = argString(args, 'span', false);
  if (spanArg !== '' && !(RECENT_SPANS as readonly string[]).includes(spanArg))
    throw new ToolError(`Argument span must be one of ${RECENT_SPANS.join(', ')}`);
  const h = await kit.heard(id);
  return recentAnswer(
    { title: h.book.title, analysis: h.book.analysis, heard: h.sentences, positionSeconds: h.positionSeconds },
    spanArg === '' ? 'recent' : (spanArg as RecentSpan),
  );
}
