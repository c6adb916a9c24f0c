/**
 * The offline brain: deterministic, rule-based answers built from the tools (so the same spoiler
 * bound applies). X-ray mode answers who/what/where questions; tutor mode runs a short Socratic
 * dialogue; with no mode it helps find books.
 */
import type { ToolName, ToolResult } from './tools';
import type { XrayKind } from './xray';

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

/** An X-ray question: its entity (empty for the setting) and its kind. */
export function parseXray(text: string): { entity: string; kind: XrayKind } | null {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (WHEN_QUESTION.test(trimmed)) return { entity: '', kind: 'when' };
  if (SETTING_QUESTION.test(trimmed)) return { entity: '', kind: 'setting' };
  for (const pattern of XRAY_PATTERNS) {
    const match = pattern.exec(trimmed);
    const entity = match?.[1]
      ?.replace(/[?!.]+$/u, '')
      .replace(/\s+(?:again|in this book|in the book|in the story)$/iu, '')
      .trim();
    if (entity !== undefined && entity !== '' && entity.split(' ').length <= 6) {
      const word = trimmed.split(' ')[0]!.toLowerCase().replace(/['’]s$/u, '');
      const kind: XrayKind = word === 'where' ? 'where' : word === 'what' ? 'what' : 'who';
      return { entity, kind };
    }
  }
  return null;
}

const POSITION_QUESTION = /\b(?:where am i|how far|my (?:position|progress)|what did i (?:just )?hear)\b/iu;
const OUTLINE_QUESTION = /\b(?:chapters?|outline|table of contents)\b/iu;

const NO_BOOK = 'Choose a book first: start the assistant in X-ray or Tutor mode from a book in your library.';

export function createOfflineBrain(ctx: BrainContext): Brain {
  const { mode, jobId, callTool } = ctx;

  async function aboutBook(id: string, text: string): Promise<string> {
    if (POSITION_QUESTION.test(text)) return (await callTool('current_position', { job_id: id })).answer;
    if (OUTLINE_QUESTION.test(text)) return (await callTool('book_outline', { job_id: id })).answer;
    const xray = parseXray(text);
    if (xray !== null) {
      return (await callTool('xray_lookup', { job_id: id, ...(xray.entity !== '' && { query: xray.entity }), kind: xray.kind })).answer;
    }
    return (await callTool('search_book', { job_id: id, query: text })).answer;
  }

  return {
    async opening() {
      if (mode === 'tutor' && jobId !== null) return (await callTool('tutor_turn', { job_id: jobId, user_message: '' })).answer;
      return null;
    },
    async respond(raw) {
      const text = raw.trim();
      if (text === '') return 'I did not catch a question. What would you like to know?';
      if (mode === 'tutor') {
        if (jobId === null) return NO_BOOK;
        return (await callTool('tutor_turn', { job_id: jobId, user_message: text })).answer;
      }
      if (jobId !== null) return aboutBook(jobId, text);
      if (mode === 'xray') return NO_BOOK;
      const library = await callTool('search_library', { query: text, max_results: 5 });
      const found = Array.isArray(library.data.results) && library.data.results.length > 0;
      return found
        ? `${library.answer} Open one in Tutor or X-ray mode to talk about it.`
        : `${library.answer} I can find books in your library, and in Tutor or X-ray mode I can discuss one without spoilers.`;
    },
  };
}
