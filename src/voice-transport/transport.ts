/**
 * The transport contract the voice store talks to, and its errors; the websocket implementation is
 * websocket-transport.ts, the in-memory one for stories and tests src/testing/voice-fakes.ts.
 */
import { Emitter } from './emitter';
import { sendTextMessage, type RTVIMessage, type SendTextOptions } from './rtvi';

/** Transport states (docs/product.md#voice-connection). */
export type TransportState =
  'disconnected' | 'initializing' | 'initialized' | 'connecting' | 'connected' | 'ready' | 'disconnecting' | 'error';

export const SIG_CONNECTION_CANCELED = 'SIG_CONNECTION_CANCELED';
export const WEBSOCKET_ERROR = 'WebSocket_ERROR';

/** A transport failure. `name` is SIG_CONNECTION_CANCELED or WebSocket_ERROR; `code` a close code. */
export class TransportError extends Error {
  readonly fatal: boolean;
  readonly code: number | undefined;

  constructor(message: string, options: { name?: string; fatal?: boolean; code?: number } = {}) {
    super(message);
    this.name = options.name ?? WEBSOCKET_ERROR;
    this.fatal = options.fatal ?? true;
    this.code = options.code;
  }
}

export function connectionCanceledError(): TransportError {
  return new TransportError('interrupted by disconnect or newer connection', {
    name: SIG_CONNECTION_CANCELED,
    fatal: false,
  });
}

/** Camera and screen share do not exist on the websocket transport (docs/product.md#voice-connection). */
export class UnsupportedFeatureError extends Error {
  readonly feature: string;
  constructor(feature: string) {
    super(`${feature} is not supported by the websocket transport`);
    this.name = 'UnsupportedFeatureError';
    this.feature = feature;
  }
}

export interface BotAudio {
  pcm: Int16Array;
  sampleRate: number;
  numChannels: number;
}

export type TransportEvents = {
  stateChanged: (state: TransportState) => void;
  /** Every RTVI message from the server (bot-ready included). */
  message: (msg: RTVIMessage) => void;
  botAudio: (audio: BotAudio) => void;
  /** The user spoke over the bot: drop queued bot audio now. */
  interruption: () => void;
  text: (text: string) => void;
  transcription: (t: { text: string; userId: string; timestamp: string }) => void;
  /** Fatal errors (the transport is then in state 'error') and non-fatal ones (a malformed frame). */
  error: (error: TransportError) => void;
  reconnecting: (info: { attempt: number; delayMs: number }) => void;
  reconnected: () => void;
  reconnectFailed: (error: TransportError) => void;
};

const ALLOWED_URL_KEYS = ['ws_url', 'connectionUrl', 'wsUrl'] as const;

/**
 * docs/product.md#voice-connection: an object whose only key is the URL (ws_url, connectionUrl or wsUrl), a string.
 * Returns the URL or throws with the documented message.
 */
export function connectionUrlFrom(params: unknown): string {
  if (params === undefined || params === null)
    throw new TransportError('No url provided for connection', { fatal: false });
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new TransportError('Invalid connection parameters', { fatal: false });
  }
  let url: string | undefined;
  for (const [key, value] of Object.entries(params)) {
    if (!(ALLOWED_URL_KEYS as readonly string[]).includes(key)) {
      throw new TransportError(`Unrecognized connection parameter: ${key}`, { fatal: false });
    }
    if (typeof value !== 'string')
      throw new TransportError(`Invalid type for ${key}: ${typeof value}`, { fatal: false });
    url = value;
  }
  if (!url) throw new TransportError('No url provided for connection', { fatal: false });
  return url;
}

/**
 * The transport contract the voice store talks to (Pipecat's habit: an abstract class, so stories
 * and tests inject a fake and the real websocket is one constructor away).
 */
export abstract class Transport extends Emitter<TransportEvents> {
  private currentState: TransportState = 'disconnected';
  protected micEnabled = true;

  get state(): TransportState {
    return this.currentState;
  }

  protected setState(state: TransportState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit('stateChanged', state);
  }

  abstract initialize(): Promise<void>;
  /** Resolves when the bot is ready (bot-ready answering our client-ready). */
  abstract connect(params: unknown): Promise<void>;
  abstract disconnect(): Promise<void>;
  abstract sendMessage(msg: RTVIMessage): void;
  /** Microphone audio, 16 kHz Int16 mono; queued until ready. */
  abstract sendAudio(pcm: Int16Array): void;
  /** client-message request, answered by server-response (resolves with `d`) or error-response. */
  abstract sendClientMessage(t: string, d?: unknown, timeoutMs?: number): Promise<unknown>;

  /** RTVI send-text: by default the bot answers at once and out loud. */
  sendText(content: string, options: SendTextOptions = { run_immediately: true, audio_response: true }): void {
    this.sendMessage(sendTextMessage(content, options));
  }

  enableMic(enabled: boolean): void {
    this.micEnabled = enabled;
  }

  get isMicEnabled(): boolean {
    return this.micEnabled;
  }

  /** Turning the camera off is a no-op (it is always off); turning it on is unsupported. */
  enableCam(enabled: boolean): void {
    if (enabled) throw new UnsupportedFeatureError('camera');
  }

  get isCamEnabled(): boolean {
    return false;
  }

  enableScreenShare(enabled: boolean): void {
    if (enabled) throw new UnsupportedFeatureError('screen share');
  }
}
