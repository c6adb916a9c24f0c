/**
 * The voice assistant's service and connection (docs/voice-assistant.md#the-page): starting the
 * session the page asks for, connecting to the websocket URL the start answered, the microphone,
 * and the listening position sent to the live conversation. The state is in state.ts, what each
 * message does to the conversation in conversation.ts.
 */
import {
  getVoiceAssistantStatus,
  startVoiceAssistant,
  stopVoiceAssistant,
} from '../../api/gen/endpoints/voice-assistant/voice-assistant';
import type { VoiceAssistantStartRequest } from '../../api/gen/model';
import { readToken } from '../../entities/session';
import type { AssistantMode } from '../../lib/paths';
import {
  BrowserAudioIO,
  SIG_CONNECTION_CANCELED,
  WebSocketTransport,
  type AudioIO,
  type Transport,
  type TransportError,
} from '../../voice-transport/index';
import { addQuestion, applyMessage, finishTurn, resetTurn } from './conversation';
import { connectionProblemOf, messageOf, micProblemOf, serviceError } from './problems';
import { resetState, state, type VoiceAssistantState } from './state';

export { state };

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
/** The last position (whole seconds) the live session was told with set-position. */
let sentPosition: number | null = null;

/** Back to the initial state, dropping any live session (every story and test starts clean). */
export function resetVoiceAssistant(patch: Partial<VoiceAssistantState> = {}): void {
  endSession();
  resetState(patch);
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

export async function checkStatus(): Promise<void> {
  try {
    const status = await getVoiceAssistantStatus();
    // A start in flight owns the status until it answers.
    if (state.serviceStatus === 'starting') return;
    state.serviceStatus = status.status;
    state.websocketUrl = status.websocket_url ?? null;
    state.toolNames = [...status.mcp_functions];
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
    state.toolNames = [...status.mcp_functions];
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
    state.toolNames = [];
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
  // The conversation carries on across reconnects and mode switches: only the turn state resets.
  finishTurn('bot');
  resetTurn();
  const transport = deps.createTransport();
  const audio = deps.createAudio();
  const current: Session = { transport, audio, unsubscribe: [] };
  session = current;
  const live = () => session === current;
  try {
    // The websocket URL came with the start: no second request for it.
    const url = connectionUrlWith(state.websocketUrl, deps.location(), token, state.position);
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
    endSession();
    state.clientStatus = 'error';
    state.error = `Connection failed: ${connectionProblemOf(error)}`;
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
    console.warn('voice: the question could not be sent:', messageOf(error));
    clientError(`Connection failed: ${connectionProblemOf(error)}`);
    return false;
  }
  addQuestion(content);
  return true;
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
    transport.on(
      'message',
      guard((msg) => applyMessage(msg, { stopPlayback: () => audio.stopPlayback(), fatal: clientError })),
    ),
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
        console.warn('voice:', error.message);
        clientError(`Connection lost: ${connectionProblemOf(error)}`);
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
    audio.onPlaying(
      guard((playing) => {
        state.botSpeaking = playing;
      }),
    ),
  );
}
