/**
 * The assistant's tools as a language model is offered them: their names, what each does, the JSON
 * schema of its arguments; what a tool answers, and how it refuses bad arguments.
 */
import { RECENT_SPANS } from './recent';
import { XRAY_KINDS } from './xray';

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
      'Who or what a character, place or thing is, or where and when the story is set (kind "setting" or "when", no query needed), or who said a line (kind "said", the query some of its words; none for the last line heard), from what the listener has heard so far (spoiler-free).',
    parameters: {
      type: 'object',
      properties: {
        job_id: jobId,
        query: { type: 'string', description: 'The name or thing to look up (for "said": words of the line).' },
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

/** A string argument; '' when an optional one is absent. */
export function argString(args: Record<string, unknown>, key: string, required: boolean): string {
  const value = args[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolError(`Missing argument ${key}`);
    return '';
  }
  if (typeof value !== 'string') throw new ToolError(`Argument ${key} must be a string`);
  return value;
}

/** A name as the listener said it: quotes, trailing punctuation and a leading article dropped. */
export function cleanEntity(query: string): string {
  return query
    .trim()
    .replace(/^["'“‘]+|["'”’]+$/gu, '')
    .replace(/[?!.,;:]+$/u, '')
    .replace(/^(?:the|a|an)\s+/i, '')
    .trim();
}
