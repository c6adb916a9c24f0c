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
import { createHeardReader, spoilerBound, type Heard, type ToolContext } from './heard';
import { historyFromBooks } from './library';
import { TOOL_NAMES, ToolError, type ToolName, type ToolResult } from './tool-definitions';
import {
  bookOutline,
  currentPosition,
  recentEvents,
  searchBook,
  searchLibrary,
  tutorTurn,
  xrayLookup,
  type ToolKit,
} from './tool-handlers';
import type { TutorState } from './tutor';

export { spoilerBound };
export { TOOL_DEFINITIONS, TOOL_NAMES, ToolError, type ToolName, type ToolResult } from './tool-definitions';

export interface Toolbox {
  call(name: string, args: unknown): Promise<ToolResult>;
  /** The bounded text of one of the user's books; throws ToolError when it is not theirs/finished. */
  heard(jobId: string): Promise<Heard>;
  /** Reads and indexes the heard part of a book ahead of the first question. */
  prepare(jobId: string): Promise<void>;
}

const HANDLERS: Record<ToolName, (t: ToolKit, args: Record<string, unknown>) => Promise<ToolResult>> = {
  search_library: searchLibrary,
  search_book: searchBook,
  xray_lookup: xrayLookup,
  tutor_turn: tutorTurn,
  book_outline: bookOutline,
  current_position: currentPosition,
  recent_events: recentEvents,
};

export function createToolbox(ctx: ToolContext): Toolbox {
  const kit: ToolKit = {
    ctx,
    history: ctx.history ?? historyFromBooks(ctx.books),
    tutorMemory: ctx.tutor ?? new Map<string, TutorState>(),
    ...createHeardReader(ctx),
  };
  const { heard } = kit;
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
      return HANDLERS[name as ToolName](kit, record);
    },
  };
}
