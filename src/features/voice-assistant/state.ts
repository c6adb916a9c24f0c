import { proxy } from 'valtio';
import type { AssistantMode } from '../../lib/paths';

/** Voice assistant service and client status (docs/product.md#voice-assistant). */
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

/** What the conversation is doing, for the talk button (docs/voice-assistant.md#the-page). */
export type TalkState = 'idle' | 'connecting' | 'listening' | 'typing' | 'thinking' | 'speaking';

export interface VoiceAssistantState {
  serviceStatus: ServiceStatus;
  clientStatus: ClientStatus;
  error: string | null;
  websocketUrl: string | null;
  /** The names of the tools the assistant answers with (the wire field `mcp_functions`). */
  toolNames: string[];
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
  /** The running session's mode, as the server last reported it. */
  sessionMode: AssistantMode | null;
  /** The latest book the assistant asked to open, with a sequence number per request. */
  openBook: (OpenBookRequest & { seq: number }) | null;
  /** The book whose kept conversation the transcript holds (null: none loaded). */
  keptFor: string | null;
  /** "Previously…", when the server offers it for the book. */
  recap: Recap | null;
}

const initialState: VoiceAssistantState = {
  serviceStatus: 'unknown',
  clientStatus: 'disconnected',
  error: null,
  websocketUrl: null,
  toolNames: [],
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
  sessionMode: null,
  openBook: null,
  keptFor: null,
  recap: null,
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
