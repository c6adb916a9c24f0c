/**
 * The conversation's connection (docs/voice-assistant.md#the-page): the websocket to the running
 * session, the microphone, who hears the reader, the questions sent and the listening position
 * sent to a live conversation. The websocket URL and whether the server hears speech are read
 * from the status the server last gave (data.ts); what each message does to the conversation is
 * in conversation.ts.
 */
import { SIG_CONNECTION_CANCELED, type TransportError } from '../../voice-transport/index';
import { addQuestion, applyMessage, finishTurn, resetTurn } from './conversation';
import { cachedStatus, hearingOf } from './data';
import { deps } from './deps';
import { connectionProblemOf, messageOf, micProblemOf } from './problems';
import { runtime, state, type Session } from './store';

/** Said when nobody can turn speech into text here (the page adds that typing works). */
export const NOBODY_HEARS =
  'Speaking is not available here: the server has no speech service and this browser offers no speech recognition.';

/** Tells the live conversation where the listener is, once per whole second moved. */
export function sendPosition(): void {
  const current = runtime.session;
  if (!current || state.clientStatus !== 'connected' || state.jobId === null || state.position === null) return;
  if (!Number.isFinite(state.position) || state.position < 0) return;
  const seconds = Math.floor(state.position);
  if (seconds === runtime.sentPosition) return;
  runtime.sentPosition = seconds;
  current.transport.sendClientMessage('set-position', { seconds, job_id: state.jobId }).catch((error: unknown) => {
    // The next move sends it again.
    if (runtime.sentPosition === seconds) runtime.sentPosition = null;
    console.warn('voice: set-position failed:', messageOf(error));
  });
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

/** Connects to the running session's websocket (the URL its start or status answered). */
export async function connect(): Promise<void> {
  const status = cachedStatus();
  const websocketUrl = status?.websocket_url;
  if (!websocketUrl) return;
  if (state.clientStatus === 'connecting' || state.clientStatus === 'connected') return;
  const token = deps().getToken();
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
  const transport = deps().createTransport();
  const audio = deps().createAudio();
  const hearing = hearingOf(status);
  const current: Session = { transport, audio, recognizer: null, unsubscribe: [] };
  runtime.session = current;
  const live = () => runtime.session === current;
  try {
    // The websocket URL came with the start: no second request for it.
    const url = connectionUrlWith(websocketUrl, deps().location(), token, state.position);
    wire(current);
    // The server hears the microphone's audio only when it has a speech service.
    transport.enableMic(hearing === 'server');
    transport.enableCam(false);
    state.micEnabled = hearing !== 'none';
    state.camEnabled = false;
    if (hearing === 'none') state.micProblem = NOBODY_HEARS;
    // The mic starts with the connection: chunks captured before ready are queued by the transport.
    // When the browser hears the reader, the microphone runs for its level meter only.
    const mic =
      hearing === 'none'
        ? Promise.resolve(null)
        : audio
            .startMic((pcm) => {
              if (hearing === 'server') transport.sendAudio(pcm);
            })
            .then(
              () => null,
              (error: unknown) => error,
            );
    await transport.connect({ ws_url: url });
    if (!live()) return;
    state.clientStatus = 'connected';
    state.remoteParticipant = { id: 'bot', name: 'Bot' };
    runtime.sentPosition = state.position === null ? null : Math.floor(state.position);
    if (hearing === 'browser') listenInBrowser(current);
    const micError = await mic;
    if (micError && live()) {
      state.micEnabled = false;
      transport.enableMic(false);
      current.recognizer?.stop();
      state.micProblem = micProblemOf(micError, deps().isSecureContext());
    }
  } catch (error) {
    if (!live()) return;
    if ((error as Error | undefined)?.name === SIG_CONNECTION_CANCELED) return;
    endSession();
    state.clientStatus = 'error';
    state.error = `Connection failed: ${connectionProblemOf(error)}`;
  }
}

/**
 * The browser hears the reader (the server has no speech service): each thing they say is sent as
 * a question, as if typed; listening pauses while the assistant speaks, so it never hears itself.
 */
function listenInBrowser(current: Session): void {
  const create = deps().speechRecognition();
  if (create === null) return;
  const live = () => runtime.session === current;
  const recognizer = create({
    onFinal: (text) => {
      if (live()) sendText(text);
    },
    onSpeech: (speaking) => {
      if (live()) state.userSpeaking = speaking;
    },
    onError: (problem, detail) => {
      if (!live()) return;
      current.audio.stopMic();
      state.micEnabled = false;
      state.userSpeaking = false;
      state.micProblem =
        problem === 'denied'
          ? micProblemOf({ name: 'NotAllowedError' }, deps().isSecureContext())
          : `The browser's speech recognition stopped: ${detail}.`;
    },
  });
  current.recognizer = recognizer;
  recognizer.start();
}

export async function disconnect(): Promise<void> {
  const current = runtime.session;
  runtime.session = null;
  endSession(current);
  state.clientStatus = 'disconnected';
}

/** RTVI send-text: the bot answers at once, out loud. The question joins the transcript. */
export function sendText(text: string): boolean {
  const content = text.trim();
  if (!content || !runtime.session || state.clientStatus !== 'connected') return false;
  try {
    runtime.session.transport.sendText(content, { run_immediately: true, audio_response: true });
  } catch (error) {
    console.warn('voice: the question could not be sent:', messageOf(error));
    clientError(`Connection failed: ${connectionProblemOf(error)}`);
    return false;
  }
  addQuestion(content);
  return true;
}

export function endSession(current: Session | null = runtime.session): void {
  runtime.session = null;
  if (current) {
    current.unsubscribe.forEach((off) => off());
    current.recognizer?.stop();
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
  runtime.sentPosition = null;
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
      if (runtime.session === current) fn(...args);
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
        // The browser's recognition would hear the assistant through the speakers.
        current.recognizer?.pause(playing);
      }),
    ),
  );
}
