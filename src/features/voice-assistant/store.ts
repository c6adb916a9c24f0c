import type { QueryClient } from '@tanstack/react-query';
import { proxy } from 'valtio';
import type { AssistantMode } from '../../lib/paths';
import type { AudioIO, Recognizer, RecognizerFactory, Transport } from '../../voice-transport/index';

/**
 * The voice assistant page's client state (docs/voice-assistant.md#where-its-state-lives): the
 * connection, the conversation, the page's mode, book and position, and what went wrong. What the
 * server says about the session (its status, websocket URL, tools, mode, whether it hears speech)
 * is never copied here: it lives in the React Query cache (data.ts).
 *
 * Two holders, and nothing else mutable at module level: `state`, the Valtio proxy the page renders
 * from, and `runtime`, one plain object for what must not be reactive (the live session's socket
 * and audio, the data cache, the browser parts in force, counters). A component never renders from
 * `runtime`. The actions live beside them, in files named for what they do: service.ts (the
 * session the page asks for, the talk button), connection.ts (the live conversation),
 * conversation.ts (the messages it brings), history.ts (the kept conversation).
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

/** What the voice assistant uses from the browser, swappable in stories and tests. */
export interface VoiceAssistantDeps {
  createTransport: () => Transport;
  createAudio: () => AudioIO;
  /** The stored access token (`access_token` in local or session storage; docs/product.md#session). */
  getToken: () => string | null;
  /** Base for relative connection URLs. */
  location: () => string;
  /** Whether the page may open a microphone at all (HTTPS or localhost). */
  isSecureContext: () => boolean;
  /** The browser's own speech recognition; null where it offers none. */
  speechRecognition: () => RecognizerFactory | null;
}

/** The live session's I/O (sockets and AudioContexts are not state). */
export interface Session {
  transport: Transport;
  audio: AudioIO;
  /** The browser's speech recognition, when it (not the server) hears the reader. */
  recognizer: Recognizer | null;
  unsubscribe: Array<() => void>;
}

/** The voice assistant's non-reactive parts (see the comment on VoiceAssistantState). */
export interface VoiceAssistantRuntime {
  /** The browser parts in force (deps.ts); null: the real ones. */
  deps: VoiceAssistantDeps | null;
  /** The data cache the app hands the feature (attachVoiceAssistant, service.ts), and how to let it go. */
  cache: QueryClient | null;
  stopWatchingCache: (() => void) | null;
  /** What the page does with the latest status answer, awaited by checkStatus (service.ts). */
  followUp: Promise<void>;
  /** The live conversation (connection.ts). */
  session: Session | null;
  /** The last position (whole seconds) the live session was told with set-position. */
  sentPosition: number | null;
  /** The next transcript entry's id, and the next open-book request's sequence number. */
  nextEntryId: number;
  nextOpenBook: number;
  /** The current turn was answered offline (an assistant-fallback arrived since the question). */
  turnOffline: boolean;
  /** An open-book request waiting for the bot turn that carries it. */
  pendingOpenBook: OpenBookRequest | null;
}

export const runtime: VoiceAssistantRuntime = {
  deps: null,
  cache: null,
  stopWatchingCache: null,
  followUp: Promise.resolve(),
  session: null,
  sentPosition: null,
  nextEntryId: 1,
  nextOpenBook: 1,
  turnOffline: false,
  pendingOpenBook: null,
};
