/**
 * The offline brain: deterministic, rule-based answers built from the tools (so the same spoiler
 * bound applies). X-ray mode answers who/what/where questions; tutor mode runs a short Socratic
 * dialogue; with no mode it helps find books.
 */
import type { ToolName, ToolResult } from './tools';
import type { XrayKind } from './xray';
import { aheadRefusal, isAheadQuestion, parseRecentQuestion } from './recent';

export type AssistantMode = 'tutor' | 'xray';

export type CallTool = (name: ToolName, args: Record<string, unknown>) => Promise<ToolResult>;

export interface BrainContext {
  mode: AssistantMode | null;
  jobId: string | null;
  /** Runs a tool (the connection reports the call to the client around it). */
  callTool: CallTool;
}

export interface Brain {
  /** What the assistant says first, unprompted (tutor mode opens with a question); null = nothing. */
  opening(): Promise<string | null>;
  /** The answer to one user message. */
  respond(text: string): Promise<string>;
  /** Takes a turn answered by another brain into this one's context (a model after an offline fallback). */
  remember?(text: string, reply: string): void;
}

const XRAY_PATTERNS: readonly RegExp[] = [
  /^(?:so\s+|and\s+|but\s+)?(?:who|what|where)(?:'s|’s|\s+(?:is|are|was|were))\s+(.+)$/iu,
  /^(?:please\s+)?(?:tell\s+me|remind\s+me)\s+(?:more\s+)?about\s+(.+)$/iu,
  /^(?:who|what)\s+(?:exactly\s+)?(?:is|was)\s+(.+)$/iu,
  /^x-?ray\s+(.+)$/iu,
];

/** The entity of an X-ray question ("Who is Mr. Rochester?" -> "Mr. Rochester"); null when it is not one. */
export function parseXrayQuestion(text: string): string | null {
  return parseXray(text)?.entity ?? null;
}

const SETTING_QUESTION =
  /\b(?:where\b.*\b(?:take|takes|taking)\s+place|where\b.*\b(?:is|are)\b.*\bset\b|where\s+(?:does|did)\s+(?:it|this|the\s+(?:story|book|novel|action))\s+(?:happen|begin|start)|(?:what|what's|what’s)\s+(?:is\s+)?the\s+setting|setting\s+of\s+(?:the|this)\b|where\s+are\s+we\b|describe\s+the\s+setting)/iu;
const WHEN_QUESTION =
  /\b(?:when\s+(?:does|did|is)\s+(?:it|this|the\s+(?:story|book|novel))\b.*\b(?:set|take\s+place|happen)|what\s+(?:year|era|period|century|time\s+period|season)\b)/iu;

/** "Who said that?", "who says 'the oil is low'": the words of the line (empty for the last one heard). */
const SAID_QUESTION =
  /^(?:so\s+|and\s+|but\s+|wait,?\s+)?who\s+(?:said|says|asked|asks|shouted|whispered|cried|replied|answered|spoke)\b[,:]?\s*(.*)$/iu;

/** An X-ray question: its entity (empty for the setting and the last line heard) and its kind. */
export function parseXray(text: string): { entity: string; kind: XrayKind } | null {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const said = SAID_QUESTION.exec(trimmed);
  if (said !== null) return { entity: said[1]!.replace(/[?!.]+$/u, '').trim(), kind: 'said' };
  if (WHEN_QUESTION.test(trimmed)) return { entity: '', kind: 'when' };
  if (SETTING_QUESTION.test(trimmed)) return { entity: '', kind: 'setting' };
  for (const pattern of XRAY_PATTERNS) {
    const match = pattern.exec(trimmed);
    const entity = match?.[1]
      ?.replace(/[?!.]+$/u, '')
      .replace(/\s+(?:again|in this book|in the book|in the story)$/iu, '')
      .trim();
    if (entity !== undefined && entity !== '' && entity.split(' ').length <= 6) {
      const word = trimmed
        .split(' ')[0]!
        .toLowerCase()
        .replace(/['’]s$/u, '');
      const kind: XrayKind = word === 'where' ? 'where' : word === 'what' ? 'what' : 'who';
      return { entity, kind };
    }
  }
  return null;
}

const POSITION_QUESTION = /\b(?:where am i|how far|my (?:position|progress)|what did i (?:just )?hear)\b/iu;
const OUTLINE_QUESTION = /\b(?:chapters?|outline|table of contents)\b/iu;
const RECAP_QUESTION =
  /\b(?:recap|summari[sz]e|summary|catch me up)\b|\bwhat(?:'s|’s|\s+has)?\s+happened(?:\s+(?:so\s+far|until\s+now|up\s+to\s+now|in\s+the\s+(?:book|story)))?\s*[?.!]*$/iu;

const LIBRARY_LIST =
  /(?:^(?:so\s+|and\s+)?(?:what|which)\s+(?:books|audiobooks|titles|stories)\b|\bwhat(?:'s|’s|\s+is)\s+in\s+my\s+library|\b(?:list|show)\s+(?:me\s+)?(?:all\s+)?(?:my\s+)?(?:books|library)\b|\bwhat\s+(?:books\s+)?do\s+i\s+have\b|\bhow\s+many\s+books\b)/iu;
const RECENT =
  /\b(?:what\s+(?:was|were|am|have)\s+i\s+(?:been\s+)?(?:listening|reading)|what\s+did\s+i\s+(?:last\s+)?(?:listen|play)|(?:last|recently)\s+(?:listened|played)|where\s+did\s+i\s+(?:leave\s+off|stop))\b/iu;
const HOW_FAR =
  /\bhow\s+far\s+(?:along\s+)?(?:am\s+i|have\s+i\s+(?:got|gotten|come|listened|read)|did\s+i\s+get)\s+(?:in|into|with|through)\s+(.+)$/iu;
const CONTINUE =
  /^(?:please\s+|can\s+you\s+|could\s+you\s+|let's\s+|let’s\s+)?(?:continue|resume|keep\s+listening\s+to|carry\s+on\s+with|go\s+back\s+to|pick\s+up)(?:\s+(?:listening\s+to|playing|with))?(?:\s+(.+?))?[\s.!?]*$/iu;
const THIS_BOOK =
  /^(?:it|this|that|this\s+book|the\s+book|my\s+book|where\s+i\s+left\s+off|from\s+where\s+i\s+(?:left\s+off|stopped))$/iu;

/** "My last book", "what I was listening to": the book played last, whatever book the session is on. */
const LAST_BOOK =
  /^(?:(?:my\s+)?(?:last|latest|previous|most\s+recent)(?:\s+played)?\s+(?:book|audiobook|story|one)|(?:the\s+(?:book|one)\s+|what\s+)i\s+was\s+(?:listening\s+to|reading|playing))$/iu;

function cleanTitle(raw: string): string {
  return raw
    .trim()
    .replace(/[?!.]+$/u, '')
    .replace(/\s+(?:please|now|again)$/iu, '')
    .replace(/^["'“‘]+|["'”’]+$/gu, '')
    .replace(/^(?:the\s+(?:book|audiobook|story)\s+|my\s+(?:book\s+)?)/iu, '')
    .trim();
}

const NO_BOOK = 'Choose a book first: start the assistant in X-ray or Tutor mode from a book in your library.';

export function createOfflineBrain(ctx: BrainContext): Brain {
  const { mode, jobId, callTool } = ctx;

  /** The job id of a book named by the user (their library only); null when none matches. */
  async function resolveBook(title: string): Promise<{ id: string } | { missing: string }> {
    const name = cleanTitle(title);
    const lastPlayed = LAST_BOOK.test(name) || LAST_BOOK.test(title.trim().replace(/[?!.]+$/u, ''));
    if (lastPlayed || name === '' || THIS_BOOK.test(name)) {
      if (jobId !== null && !lastPlayed) return { id: jobId };
      const recent = await callTool('search_library', { recent: true, max_results: 1 });
      const last = (recent.data.results as { job_id: string }[] | undefined)?.[0];
      return last === undefined ? { missing: '' } : { id: last.job_id };
    }
    const found = await callTool('search_library', { query: name, max_results: 1 });
    const first = (found.data.results as { job_id: string }[] | undefined)?.[0];
    return first === undefined ? { missing: name } : { id: first.job_id };
  }

  /** Questions about the library, in any mode; null when the text is not one. */
  async function aboutLibrary(text: string): Promise<string | null> {
    if (RECENT.test(text)) return (await callTool('search_library', { recent: true, max_results: 3 })).answer;
    if (LIBRARY_LIST.test(text)) return (await callTool('search_library', { query: '', max_results: 5 })).answer;
    const howFar = HOW_FAR.exec(text);
    const resume = CONTINUE.exec(text);
    if (howFar === null && resume === null) return null;
    const book = await resolveBook(howFar?.[1] ?? resume?.[1] ?? '');
    if ('missing' in book) {
      // In a tutoring dialogue "continue …" may be an answer, not a request: let the tutor have it.
      if (mode === 'tutor' && book.missing !== '') return null;
      return book.missing === ''
        ? "You haven't played any book yet. Which one should I open?"
        : `I couldn't find a book called "${book.missing}" in your library.`;
    }
    return (await callTool('current_position', { job_id: book.id, ...(resume !== null && { resume: true }) })).answer;
  }

  /** Time-aware questions, in any mode: what just happened, and a kind refusal for what lies ahead. */
  async function aboutTime(id: string, text: string): Promise<string | null> {
    const span = parseRecentQuestion(text);
    if (span !== null) return (await callTool('recent_events', { job_id: id, span })).answer;
    if (!isAheadQuestion(text)) return null;
    const position = await callTool('current_position', { job_id: id });
    const {
      title,
      position_seconds: seconds,
      source,
    } = position.data as {
      title: string;
      position_seconds: number;
      source: string;
    };
    return aheadRefusal(title, seconds, source !== 'none');
  }

  async function aboutBook(id: string, text: string): Promise<string> {
    const timely = await aboutTime(id, text);
    if (timely !== null) return timely;
    if (POSITION_QUESTION.test(text)) return (await callTool('current_position', { job_id: id })).answer;
    if (RECAP_QUESTION.test(text)) {
      // Where the listener is in the book, then the last thing they heard.
      const outline = await callTool('book_outline', { job_id: id });
      const position = await callTool('current_position', { job_id: id });
      return `${outline.answer} ${position.answer}`;
    }
    if (OUTLINE_QUESTION.test(text)) return (await callTool('book_outline', { job_id: id })).answer;
    const xray = parseXray(text);
    if (xray !== null) {
      return (
        await callTool('xray_lookup', {
          job_id: id,
          ...(xray.entity !== '' && { query: xray.entity }),
          kind: xray.kind,
        })
      ).answer;
    }
    return (await callTool('search_book', { job_id: id, query: text })).answer;
  }

  return {
    async opening() {
      if (mode === 'tutor' && jobId !== null)
        return (await callTool('tutor_turn', { job_id: jobId, user_message: '' })).answer;
      return null;
    },
    async respond(raw) {
      const text = raw.trim();
      if (text === '') return 'I did not catch a question. What would you like to know?';
      const library = await aboutLibrary(text);
      if (library !== null) return library;
      if (mode === 'tutor') {
        if (jobId === null) return NO_BOOK;
        const timely = await aboutTime(jobId, text);
        if (timely !== null) return timely;
        return (await callTool('tutor_turn', { job_id: jobId, user_message: text })).answer;
      }
      if (jobId !== null) return aboutBook(jobId, text);
      if (mode === 'xray') return NO_BOOK;
      const search = await callTool('search_library', { query: text, max_results: 5 });
      const found = Array.isArray(search.data.results) && search.data.results.length > 0;
      return found
        ? `${search.answer} Open one in Tutor or X-ray mode to talk about it.`
        : `${search.answer} Ask me what's in your library or what you were listening to, or open a book in Tutor or X-ray mode to discuss it without spoilers.`;
    },
  };
}
