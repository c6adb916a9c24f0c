import { proxy } from 'valtio';
import type { AssistantMode } from '../../lib/paths';

/**
 * The voice assistant page's client state (docs/voice-assistant.md#where-its-state-lives): the
 * connection, the conversation, the page's mode, book and position, and what went wrong. What the
 * server says about the session (its status, websocket URL, tools, mode, whether it hears speech)
 * is never copied here: it lives in the React Query cache (data.ts).
 */

/** The service's status as the page shows it (docs/product.md#voice-assistant): see serviceStatusOf. */
export type ServiceStatus = 'unknown' | 'running' | 'stopped' | 'starting' | 'error';
export type ClientStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

/** A book the assistant asked the client to open ("continue X"): the server's `open-book` message. */
export interface OpenBookRequest {
  jobId: string;
  title: string;
  positionSeconds: number;
}

/** The heard sentence an X-ray answer rests on, and where to play it from. */
export interface Evidence {
  text: string;
  where: string;
  positionSeconds: number;
}

/** "Previously…": offered when the book has rested a while (the server's recap). */
export interface Recap {
  text: string;
  restedMinutes: number;
}

export interface TranscriptEntry {
  id: number;
  speaker: 'user' | 'bot';
  text: string;
  final: boolean;
  /** When the turn began (ms since the epoch). */
  at: number;
  /** A bot turn answered by the offline assistant because the chat model did not answer. */
  offline?: boolean;
  /** A bot turn that asked the client to open a book. */
  openBook?: OpenBookRequest;
  /** The mode the turn was said in. */
  mode?: AssistantMode | null;
  /** The passage an answer rests on. */
  evidence?: Evidence;
}

/** The chat model did not answer: the server's `assistant-fallback` message. */
export interface FallbackNotice {
  reason: string;
  message: string;
}

/**
 * Who hears the reader's voice: the server's speech service, the browser's own speech recognition
 * (the server has no speech service), or nobody (neither: the reader types).
 */
export type Hearing = 'server' | 'browser' | 'none';

/** What the conversation is doing, for the talk button (docs/voice-assistant.md#the-page). */
export type TalkState = 'idle' | 'connecting' | 'listening' | 'typing' | 'thinking' | 'speaking';

export interface VoiceAssistantState {
  /** The last request about the service (status, start or stop) failed: its status shows Error. */
  serviceFailed: boolean;
  clientStatus: ClientStatus;
  /** What went wrong, in words for the reader (the service's or the connection's). */
  error: string | null;
  transcript: TranscriptEntry[];
  mode: AssistantMode | null;
  jobId: string | null;
  /** Playback position (seconds) in the book, passed to the bot on connect. */
  position: number | null;
  /** The remote speaker once connected. */
  remoteParticipant: { id: 'bot'; name: 'Bot' } | null;
  micEnabled: boolean;
  camEnabled: boolean;
  reconnecting: boolean;
  botSpeaking: boolean;
  userSpeaking: boolean;
  levels: { local: number; remote: number };
  /** A question is out and no answer is heard yet. */
  thinking: boolean;
  /** Why the microphone is off while connected (no device, permission denied, insecure origin). */
  micProblem: string | null;
  /** The latest answer came from the offline assistant because the chat model did not answer. */
  fallback: FallbackNotice | null;
  /** The latest book the assistant asked to open, with a sequence number per request. */
  openBook: (OpenBookRequest & { seq: number }) | null;
  /** The book whose kept conversation the transcript holds (null: none loaded). */
  keptFor: string | null;
  /** The reader dismissed (or heard) the "Previously…" recap the server offers for the book. */
  recapDismissed: boolean;
}

const initialState: VoiceAssistantState = {
  serviceFailed: false,
  clientStatus: 'disconnected',
  error: null,
  transcript: [],
  mode: null,
  jobId: null,
  position: null,
  remoteParticipant: null,
  micEnabled: false,
  camEnabled: false,
  reconnecting: false,
  botSpeaking: false,
  userSpeaking: false,
  levels: { local: 0, remote: 0 },
  thinking: false,
  micProblem: null,
  fallback: null,
  openBook: null,
  keptFor: null,
  recapDismissed: false,
};

export const state = proxy<VoiceAssistantState>(structuredClone(initialState));

/** The conversation's state for the talk button. */
export function talkState(
  s: Pick<VoiceAssistantState, 'clientStatus' | 'botSpeaking' | 'thinking' | 'micEnabled'>,
): TalkState {
  if (s.clientStatus === 'connecting') return 'connecting';
  if (s.clientStatus !== 'connected') return 'idle';
  if (s.botSpeaking) return 'speaking';
  if (s.thinking) return 'thinking';
  return s.micEnabled ? 'listening' : 'typing';
}

/** Back to the initial state with `patch` applied. */
export function resetState(patch: Partial<VoiceAssistantState> = {}): void {
  Object.assign(state, structuredClone(initialState), patch);
}
