import { proxy } from 'valtio';
import {
  connectVoiceAssistant,
  getVoiceAssistantStatus,
  startVoiceAssistant,
  stopVoiceAssistant,
} from '../../api/gen/endpoints/voice-assistant/voice-assistant';
import type { VoiceAssistantStartRequest } from '../../api/gen/model';
import { serverReason } from '../../api/errors';
import { readToken } from '../../entities/session';
import type { AssistantMode } from '../../lib/paths';
import {
  BrowserAudioIO,
  SIG_CONNECTION_CANCELED,
  WebSocketTransport,
  type AudioIO,
  type RTVIMessage,
  type Transport,
  type TransportError,
} from '../../voice-transport/index';

/** Voice assistant service and client status (docs/product.md#voice-assistant). */
export type ServiceStatus = 'unknown' | 'running' | 'stopped' | 'starting' | 'error';
export type ClientStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

/** A book the assistant asked the client to open ("continue X"): the server's `open-book` message. */
export interface OpenBookRequest {
  jobId: string;
  title: string;
  positionSeconds: number;
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
  mcpFunctions: string[];
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
}

const initialState: VoiceAssistantState = {
  serviceStatus: 'unknown',
  clientStatus: 'disconnected',
  error: null,
  websocketUrl: null,
  mcpFunctions: [],
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
};

export const state = proxy<VoiceAssistantState>(structuredClone(initialState));

/** While running, the status is re-polled this often (docs/product.md#voice-assistant). */
export const STATUS_POLL_MS = 10_000;

export interface VoiceAssistantDeps {
  createTransport: () => Transport;
  createAudio: () => AudioIO;
  /** The stored access token (`access_token` in local or session storage; docs/product.md#session). */
  getToken: () => string | null;
  /** Base for relative connection URLs. */
  location: () => string;
  /** Whether the page may open a microphone at all (HTTPS or localhost). */
  isSecureContext: () => boolean;
}

const defaultDeps: VoiceAssistantDeps = {
  createTransport: () => new WebSocketTransport(),
  createAudio: () => new BrowserAudioIO(),
  getToken: readToken,
  location: () => window.location.href,
  isSecureContext: () => (typeof window === 'undefined' ? true : window.isSecureContext),
};

let deps: VoiceAssistantDeps = { ...defaultDeps };

/** Inject the transport, audio and token source (stories, tests); `null` restores the real ones. */
export function configureVoiceAssistant(patch: Partial<VoiceAssistantDeps> | null): void {
  deps = patch ? { ...deps, ...patch } : { ...defaultDeps };
}

/** The live session's I/O, outside the proxy (sockets and AudioContexts are not state). */
interface Session {
  transport: Transport;
  audio: AudioIO;
  unsubscribe: Array<() => void>;
}
let session: Session | null = null;
let nextEntryId = 1;
let nextOpenBook = 1;
/** The current turn was answered offline (an assistant-fallback arrived since the question). */
let turnOffline = false;
/** An open-book request waiting for the bot turn that carries it. */
let pendingOpenBook: OpenBookRequest | null = null;
/** The last position (whole seconds) the live session was told with set-position. */
let sentPosition: number | null = null;

/** Back to the initial state, dropping any live session (every story and test starts clean). */
export function resetVoiceAssistant(patch: Partial<VoiceAssistantState> = {}): void {
  endSession();
  Object.assign(state, structuredClone(initialState), patch);
}

/**
 * The page's mode, book and listening position. Another mode or book while a session runs switches
 * the session; a new position (whole seconds) is sent to a live conversation at once (set-position),
 * so X-ray follows the player while it plays.
 */
export function setContext(context: {
  mode?: AssistantMode | null;
  jobId?: string | null;
  position?: number | null;
}): void {
  const before = { mode: state.mode, jobId: state.jobId };
  if (context.mode !== undefined) state.mode = context.mode;
  if (context.jobId !== undefined) state.jobId = context.jobId;
  if (context.position !== undefined) state.position = context.position;
  // Asked for another mode or book while a session runs: look, and switch if it differs.
  if (state.serviceStatus === 'running' && (before.mode !== state.mode || before.jobId !== state.jobId)) {
    void checkStatus();
    return;
  }
  if (context.position !== undefined) sendPosition();
}

/** Tells the live conversation where the listener is, once per whole second moved. */
function sendPosition(): void {
  const current = session;
  if (!current || state.clientStatus !== 'connected' || state.jobId === null || state.position === null) return;
  if (!Number.isFinite(state.position) || state.position < 0) return;
  const seconds = Math.floor(state.position);
  if (seconds === sentPosition) return;
  sentPosition = seconds;
  current.transport.sendClientMessage('set-position', { seconds, job_id: state.jobId }).catch((error: unknown) => {
    // The next move sends it again.
    if (sentPosition === seconds) sentPosition = null;
    console.warn('voice: set-position failed:', messageOf(error));
  });
}

/** The server's own words when it sent any, else '{prefix}: {message}' (docs/product.md#voice-assistant). */
function serviceError(error: unknown, prefix: string): string {
  return serverReason(error) ?? `${prefix}: ${messageOf(error)}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// --- service --------------------------------------------------------------------------------------

export async function checkStatus(): Promise<void> {
  try {
    const status = await getVoiceAssistantStatus();
    // A start in flight owns the status until it answers.
    if (state.serviceStatus === 'starting') return;
    state.serviceStatus = status.status;
    state.websocketUrl = status.websocket_url ?? null;
    state.mcpFunctions = [...status.mcp_functions];
    state.sessionMode = status.mode ?? null;
    if (state.clientStatus !== 'error') state.error = null;
    if (status.status === 'running' && asksForAnotherSession(status)) await switchSession();
  } catch (error) {
    state.serviceStatus = 'error';
    state.error = serviceError(error, 'Failed to check status');
  }
}

/** The page names a mode or book (e.g. "Ask Tutor" on a book) other than the running session's. */
function asksForAnotherSession(status: { mode?: string | null; job_id?: string | null }): boolean {
  if (state.mode === null && state.jobId === null) return false;
  return (status.mode ?? null) !== state.mode || (status.job_id ?? null) !== state.jobId;
}

/**
 * Starts the session the page asks for; the server ends the running one (never a stale mode).
 * A live conversation reconnects to the new session.
 */
async function switchSession(): Promise<void> {
  const wasConnected = state.clientStatus === 'connected' || state.clientStatus === 'connecting';
  if (wasConnected) await disconnect();
  await start();
  if (wasConnected && state.serviceStatus === 'running') await connect();
}

export async function start(): Promise<void> {
  state.serviceStatus = 'starting';
  state.error = null;
  const body: VoiceAssistantStartRequest = {};
  if (state.mode) body.mode = state.mode;
  if (state.jobId) body.jobId = state.jobId;
  try {
    const status = await startVoiceAssistant(body);
    state.serviceStatus = 'running';
    state.websocketUrl = status.websocket_url ?? null;
    state.mcpFunctions = [...status.mcp_functions];
    state.sessionMode = status.mode ?? null;
  } catch (error) {
    state.serviceStatus = 'error';
    state.error = serviceError(error, 'Failed to start service');
  }
}

export async function stop(): Promise<void> {
  if (session) await disconnect();
  state.error = null;
  try {
    await stopVoiceAssistant();
    state.serviceStatus = 'stopped';
    state.websocketUrl = null;
    state.mcpFunctions = [];
    state.sessionMode = null;
  } catch (error) {
    state.serviceStatus = 'error';
    state.error = serviceError(error, 'Failed to stop service');
  }
}

/**
 * Checks the status now, then every 10 s while the service is running.
 * Returns the function that stops watching.
 */
export function watchStatus(): () => void {
  void checkStatus();
  const timer = setInterval(() => {
    if (state.serviceStatus === 'running') void checkStatus();
  }, STATUS_POLL_MS);
  return () => clearInterval(timer);
}

// --- client ---------------------------------------------------------------------------------------

/**
 * The talk button: starts the session the page asks for (mode and book; the server switches a
 * running one), then connects with the microphone on.
 */
export async function talk(): Promise<void> {
  if (state.clientStatus === 'connecting' || state.clientStatus === 'connected') return;
  if (state.serviceStatus === 'starting') return;
  await start();
  if (state.serviceStatus === 'running') await connect();
}

/**
 * A typed question, connected or not: when no conversation runs, it starts one first, then asks.
 * Resolves true when the question was sent.
 */
export async function ask(text: string): Promise<boolean> {
  const content = text.trim();
  if (!content) return false;
  if (state.clientStatus !== 'connected') await talk();
  return sendText(content);
}

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

/**
 * Why the microphone could not open, in words a listener can act on: no device, permission
 * denied, or an insecure origin (browsers only give pages served over HTTPS or from localhost a
 * microphone).
 */
export function micProblemOf(error: unknown, secure: boolean): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (!secure) return 'The microphone is off: this page is not served over HTTPS, so the browser does not allow it.';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'The microphone is off: permission was denied. Allow it in the browser’s site settings, then start again.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError') {
    return name === 'NotReadableError'
      ? 'The microphone is off: another application is using it.'
      : 'The microphone is off: no microphone was found.';
  }
  return `The microphone is off: ${messageOf(error)}.`;
}

/** The websocket URL for the connection: ws(s) scheme, `token` and `position` query parameters. */
export function connectionUrlWith(connectionUrl: string, base: string, token: string, position: number | null): string {
  const url = new URL(connectionUrl, base);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  url.searchParams.set('token', token);
  if (position !== null && Number.isFinite(position)) url.searchParams.set('position', String(position));
  return url.toString();
}

export async function connect(): Promise<void> {
  if (!state.websocketUrl) return;
  if (state.clientStatus === 'connecting' || state.clientStatus === 'connected') return;
  const token = deps.getToken();
  if (!token) {
    state.error = 'No authentication token found';
    return;
  }
  endSession();
  state.clientStatus = 'connecting';
  state.error = null;
  state.micProblem = null;
  state.fallback = null;
  state.openBook = null;
  state.transcript = [];
  turnOffline = false;
  pendingOpenBook = null;
  const transport = deps.createTransport();
  const audio = deps.createAudio();
  const current: Session = { transport, audio, unsubscribe: [] };
  session = current;
  const live = () => session === current;
  try {
    const { connectionUrl } = await connectVoiceAssistant();
    if (!live()) return;
    const url = connectionUrlWith(connectionUrl, deps.location(), token, state.position);
    wire(current);
    transport.enableMic(true);
    transport.enableCam(false);
    state.micEnabled = true;
    state.camEnabled = false;
    // The mic starts with the connection: chunks captured before ready are queued by the transport.
    const mic = audio
      .startMic((pcm) => transport.sendAudio(pcm))
      .then(
        () => null,
        (error: unknown) => error,
      );
    await transport.connect({ ws_url: url });
    if (!live()) return;
    state.clientStatus = 'connected';
    state.remoteParticipant = { id: 'bot', name: 'Bot' };
    sentPosition = state.position === null ? null : Math.floor(state.position);
    const micError = await mic;
    if (micError && live()) {
      state.micEnabled = false;
      transport.enableMic(false);
      state.micProblem = micProblemOf(micError, deps.isSecureContext());
    }
  } catch (error) {
    if (!live()) return;
    if ((error as Error | undefined)?.name === SIG_CONNECTION_CANCELED) return;
    const message = serverReason(error) ?? messageOf(error);
    endSession();
    state.clientStatus = 'error';
    state.error = `Connection failed: ${message}`;
  }
}

export async function disconnect(): Promise<void> {
  const current = session;
  session = null;
  endSession(current);
  state.clientStatus = 'disconnected';
}

/** RTVI send-text: the bot answers at once, out loud. The question joins the transcript. */
export function sendText(text: string): boolean {
  const content = text.trim();
  if (!content || !session || state.clientStatus !== 'connected') return false;
  try {
    session.transport.sendText(content, { run_immediately: true, audio_response: true });
  } catch (error) {
    clientError(messageOf(error));
    return false;
  }
  finishTurn('bot');
  newTurn();
  state.transcript.push({ id: nextEntryId++, speaker: 'user', text: content, final: true, at: Date.now() });
  return true;
}

/** A question is out: the answer to come is not known to be offline yet. */
function newTurn(): void {
  state.thinking = true;
  turnOffline = false;
  pendingOpenBook = null;
}

function endSession(current: Session | null = session): void {
  session = null;
  if (current) {
    current.unsubscribe.forEach((off) => off());
    current.audio.stopMic();
    current.audio.stopPlayback();
    void current.audio.close().catch(() => {});
    void current.transport.disconnect().catch(() => {});
  }
  Object.assign(state, {
    remoteParticipant: null,
    micEnabled: false,
    reconnecting: false,
    botSpeaking: false,
    userSpeaking: false,
    thinking: false,
    levels: { local: 0, remote: 0 },
  });
  sentPosition = null;
}

/** A client or message error shows its message and sets client status error (docs/product.md#voice-assistant). */
function clientError(message: string): void {
  endSession();
  state.clientStatus = 'error';
  state.error = message;
}

function wire(current: Session): void {
  const { transport, audio } = current;
  const guard =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      if (session === current) fn(...args);
    };
  current.unsubscribe.push(
    transport.on('message', guard(onMessage)),
    transport.on(
      'botAudio',
      guard(({ pcm, sampleRate }) => audio.play(pcm, sampleRate)),
    ),
    transport.on(
      'interruption',
      guard(() => {
        audio.stopPlayback();
        state.botSpeaking = false;
        state.thinking = false;
        finishTurn('bot');
      }),
    ),
    transport.on(
      'error',
      guard((error: TransportError) => {
        if (!error.fatal) {
          console.warn('voice:', error.message);
          return;
        }
        // During the connect, the connect's own failure path reports it.
        if (state.clientStatus === 'connecting') return;
        clientError(error.message);
      }),
    ),
    transport.on(
      'reconnecting',
      guard(() => {
        state.reconnecting = true;
        audio.stopPlayback();
      }),
    ),
    transport.on(
      'reconnected',
      guard(() => {
        state.reconnecting = false;
      }),
    ),
    audio.onLevels(
      guard((levels) => {
        state.levels = levels;
      }),
    ),
  );
}

function lastEntry(speaker: 'user' | 'bot'): TranscriptEntry | undefined {
  const last = state.transcript[state.transcript.length - 1];
  return last && last.speaker === speaker && !last.final ? last : undefined;
}

function finishTurn(speaker: 'user' | 'bot'): void {
  const open = lastEntry(speaker);
  if (open) open.final = true;
}

function textOf(msg: RTVIMessage): string {
  const text = (msg.data as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}

function onMessage(msg: RTVIMessage): void {
  switch (msg.type) {
    case 'user-transcription': {
      const data = (msg.data ?? {}) as { text?: unknown; final?: unknown };
      const text = typeof data.text === 'string' ? data.text : '';
      if (!text) return;
      finishTurn('bot');
      const open = lastEntry('user');
      if (open) {
        open.text = text;
        open.final = data.final === true;
      } else {
        state.transcript.push({ id: nextEntryId++, speaker: 'user', text, final: data.final === true, at: Date.now() });
      }
      return;
    }
    case 'bot-llm-text': {
      const text = textOf(msg);
      if (!text) return;
      finishTurn('user');
      const open = lastEntry('bot');
      if (open) open.text += text;
      else
        state.transcript.push({
          id: nextEntryId++,
          speaker: 'bot',
          text: text.trimStart(),
          final: false,
          at: Date.now(),
        });
      const entry = lastEntry('bot');
      if (entry && turnOffline) entry.offline = true;
      if (entry && pendingOpenBook) {
        entry.openBook = pendingOpenBook;
        pendingOpenBook = null;
      }
      return;
    }
    case 'bot-llm-stopped':
      finishTurn('bot');
      // An answer the chat model gave itself: the offline notice has served its turn.
      if (!turnOffline) state.fallback = null;
      return;
    case 'user-started-speaking':
      state.userSpeaking = true;
      return;
    case 'user-stopped-speaking':
      state.userSpeaking = false;
      newTurn();
      return;
    case 'bot-started-speaking':
      state.botSpeaking = true;
      state.thinking = false;
      return;
    case 'bot-stopped-speaking':
      state.botSpeaking = false;
      return;
    case 'bot-output':
    case 'bot-tts-stopped':
      // Shown rather than spoken, or speech ended: nothing more is coming for this turn.
      state.thinking = false;
      return;
    case 'bot-interrupted':
      session?.audio.stopPlayback();
      state.botSpeaking = false;
      state.thinking = false;
      finishTurn('bot');
      return;
    case 'server-message':
      onServerMessage(msg.data);
      return;
    case 'error':
    case 'error-response': {
      // A fatal bot error ends the session; an answer to one bad request only shows its message.
      const data = (msg.data ?? {}) as { error?: unknown; fatal?: unknown };
      const message = typeof data.error === 'string' ? data.error : 'Voice assistant error';
      state.thinking = false;
      if (msg.type === 'error' && data.fatal === true) clientError(message);
      else state.error = message;
      return;
    }
  }
}

/** RTVI server-message {t, d}: `assistant-fallback` and `open-book` (docs/voice-assistant.md). */
function onServerMessage(data: unknown): void {
  const { t, d } = (data ?? {}) as { t?: unknown; d?: unknown };
  const body = (d !== null && typeof d === 'object' ? d : {}) as Record<string, unknown>;
  if (t === 'assistant-fallback') {
    const message =
      typeof body.message === 'string' && body.message.trim() ? body.message : 'The offline assistant is answering.';
    state.fallback = { reason: typeof body.reason === 'string' ? body.reason : '', message };
    turnOffline = true;
    const open = lastEntry('bot');
    if (open) open.offline = true;
    return;
  }
  if (t === 'open-book') {
    const { job_id: jobId, title, position_seconds: position } = body;
    if (typeof jobId !== 'string' || !jobId) return;
    const request: OpenBookRequest = {
      jobId,
      title: typeof title === 'string' && title ? title : 'your book',
      positionSeconds: typeof position === 'number' && Number.isFinite(position) && position >= 0 ? position : 0,
    };
    state.openBook = { ...request, seq: nextOpenBook++ };
    const open = lastEntry('bot');
    if (open) open.openBook = request;
    else pendingOpenBook = request;
  }
}
