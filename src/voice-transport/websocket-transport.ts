/**
 * The websocket implementation of the transport contract (transport.ts): Pipecat's protobuf
 * frames over one socket, with a real reconnect and a connection timeout.
 */
import {
  CLIENT_LIBRARY,
  CLIENT_LIBRARY_VERSION,
  CLOSE_CODE_TIMEOUT,
  CONNECTION_TIMEOUT_MS,
  KEEP_ALIVE_INTERVAL_MS,
  MAX_QUEUED_MIC_CHUNKS,
  MIC_CHANNELS,
  MIC_SAMPLE_RATE,
  normalizeReconnectAttempts,
  reconnectDelay,
  REQUEST_TIMEOUT_MS,
} from './constants';
import { clientMessage, clientReadyMessage, rtvi, type ClientAbout, type RTVIMessage } from './rtvi';
import { ProtobufFrameSerializer, type FrameSerializer } from './serializer';
import { connectionCanceledError, connectionUrlFrom, Transport, TransportError } from './transport';

/** The subset of the WebSocket API used here: the browser's and `ws`'s both fit (cast). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface WebSocketTransportOptions {
  serializer?: FrameSerializer;
  /** Default: the global WebSocket (browser). Node tests pass `ws`. */
  WebSocket?: WebSocketConstructor;
  timers?: Timers;
  /** 1..9, anything else means 2. */
  reconnectAttempts?: number;
  /** Socket open + handshake must finish within this; 0 disables. */
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  about?: ClientAbout;
}

const OPEN = 1;

/** Close codes that mean "do not come back" (server shut us out or ended the session). */
const NON_RETRYABLE_CLOSE_CODES = new Set([1000, 1008, 1013, 4003, CLOSE_CODE_TIMEOUT]);

interface Connection {
  ws: WebSocketLike;
  opened: boolean;
  handshakeDone: boolean;
  sawError: boolean;
  readyId: string | undefined;
  timer: unknown;
}

interface PendingRequest {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: unknown;
}

function defaultAbout(): ClientAbout {
  const platform = typeof navigator !== 'undefined' && navigator.userAgent ? navigator.userAgent : 'unknown';
  return { library: CLIENT_LIBRARY, library_version: CLIENT_LIBRARY_VERSION, platform };
}

/**
 * Pipecat-compatible websocket transport (docs/voice-protocol.md). Unlike the stock browser
 * transport it really reconnects (new socket, new handshake), its connection timeout really fires
 * (close 4100), and it reports barge-in so the player can drop stale bot audio: Lectio's server
 * says so with the RTVI `bot-interrupted` message, newer Pipecat servers with an interruption frame.
 */
export class WebSocketTransport extends Transport {
  readonly keepAliveIntervalMs = KEEP_ALIVE_INTERVAL_MS;
  readonly reconnectAttempts: number;
  readonly connectionTimeoutMs: number;
  readonly requestTimeoutMs: number;

  private readonly serializer: FrameSerializer;
  private readonly WebSocketCtor: WebSocketConstructor;
  private readonly timers: Timers;
  private readonly about: ClientAbout;

  private url: string | null = null;
  private conn: Connection | null = null;
  private pending: { resolve: () => void; reject: (error: Error) => void } | null = null;
  /** The session reached bot-ready at least once: later drops are reconnected. */
  private established = false;
  private attempt = 0;
  private reconnectTimer: unknown = null;
  private micQueue: Uint8Array[] = [];
  private readonly requests = new Map<string, PendingRequest>();

  constructor(options: WebSocketTransportOptions = {}) {
    super();
    this.serializer = options.serializer ?? new ProtobufFrameSerializer();
    this.WebSocketCtor = options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
    this.timers = options.timers ?? realTimers;
    this.reconnectAttempts = normalizeReconnectAttempts(options.reconnectAttempts);
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.about = options.about ?? defaultAbout();
  }

  async initialize(): Promise<void> {
    this.initializeNow();
  }

  private initializeNow(): void {
    if (this.state !== 'disconnected' && this.state !== 'error') return;
    this.setState('initializing');
    this.setState('initialized');
  }

  /** Synchronous up to opening the socket, so a newer call always cancels an older one. */
  connect(params: unknown): Promise<void> {
    let url: string;
    try {
      url = connectionUrlFrom(params);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    this.cancelPending();
    this.closeConnection();
    this.clearReconnectTimer();
    this.initializeNow();
    this.url = url;
    this.established = false;
    this.attempt = 0;
    this.setState('connecting');
    const done = new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject };
    });
    this.openSocket();
    return done;
  }

  async disconnect(): Promise<void> {
    if (this.state === 'disconnected' && !this.conn && !this.pending) return;
    this.setState('disconnecting');
    this.cancelPending();
    this.clearReconnectTimer();
    const conn = this.conn;
    if (conn && conn.ws.readyState === OPEN && conn.handshakeDone) {
      try {
        conn.ws.send(this.serializer.serializeMessage(rtvi('disconnect-bot', {})));
      } catch {
        // The socket is going away anyway.
      }
    }
    this.closeConnection(1000, 'client disconnect');
    this.rejectRequests(new TransportError('websocket disconnected', { fatal: false }));
    this.micQueue = [];
    this.established = false;
    this.setState('disconnected');
  }

  sendMessage(msg: RTVIMessage): void {
    const conn = this.conn;
    if (!conn || this.state !== 'ready' || conn.ws.readyState !== OPEN) {
      throw new TransportError(`websocket not ready to send ${msg.type}`, { fatal: false });
    }
    conn.ws.send(this.serializer.serializeMessage(msg));
  }

  sendAudio(pcm: Int16Array): void {
    if (!this.micEnabled) return;
    const bytes = this.serializer.serializeAudio(pcm, MIC_SAMPLE_RATE, MIC_CHANNELS);
    if (this.state === 'ready' && this.conn?.ws.readyState === OPEN) {
      this.flushMic();
      this.conn.ws.send(bytes);
      return;
    }
    if (['initializing', 'initialized', 'connecting', 'connected'].includes(this.state)) {
      this.micQueue.push(bytes);
      if (this.micQueue.length > MAX_QUEUED_MIC_CHUNKS) this.micQueue.shift();
    }
  }

  sendClientMessage(t: string, d?: unknown, timeoutMs = this.requestTimeoutMs): Promise<unknown> {
    const msg = clientMessage(t, d);
    const id = msg.id!;
    return new Promise((resolve, reject) => {
      const timer = this.timers.setTimeout(() => {
        this.requests.delete(id);
        reject(new TransportError(`client-message ${t} timed out`, { fatal: false }));
      }, timeoutMs);
      this.requests.set(id, { resolve, reject, timer });
      try {
        this.sendMessage(msg);
      } catch (error) {
        this.timers.clearTimeout(timer);
        this.requests.delete(id);
        reject(error as Error);
      }
    });
  }

  // --- socket lifecycle -------------------------------------------------------------------------

  private openSocket(): void {
    let ws: WebSocketLike;
    try {
      ws = new this.WebSocketCtor(this.url!);
    } catch (error) {
      this.fail(new TransportError(`Failed to connect to websocket: ${(error as Error).message}`));
      return;
    }
    ws.binaryType = 'arraybuffer';
    const conn: Connection = {
      ws,
      opened: false,
      handshakeDone: false,
      sawError: false,
      readyId: undefined,
      timer: null,
    };
    this.conn = conn;
    if (this.connectionTimeoutMs > 0) {
      conn.timer = this.timers.setTimeout(() => this.onTimeout(conn), this.connectionTimeoutMs);
    }
    // Handlers stay attached to a replaced socket (ws throws on an unhandled 'error'), but do nothing.
    ws.onopen = () => {
      if (this.conn === conn) this.onOpen(conn);
    };
    ws.onmessage = (event) => {
      if (this.conn === conn) this.onData(conn, event.data);
    };
    ws.onerror = () => {
      if (this.conn === conn) conn.sawError = true;
    };
    ws.onclose = (event) => {
      if (this.conn === conn) this.onClose(conn, event.code, event.reason);
    };
  }

  private onOpen(conn: Connection): void {
    conn.opened = true;
    this.setState('connected');
    conn.readyId = rtvi('client-ready').id;
    // The transport is ready once the ready message is sent (docs/product.md#voice-connection).
    this.setState('ready');
    conn.ws.send(this.serializer.serializeMessage(clientReadyMessage(this.about, conn.readyId)));
    this.flushMic();
  }

  private onData(conn: Connection, data: unknown): void {
    if (typeof Blob !== 'undefined' && data instanceof Blob) {
      void data.arrayBuffer().then((buffer) => {
        if (this.conn === conn) this.onBytes(conn, new Uint8Array(buffer));
      });
      return;
    }
    if (data instanceof ArrayBuffer) return this.onBytes(conn, new Uint8Array(data));
    if (ArrayBuffer.isView(data))
      return this.onBytes(conn, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.emit('error', new TransportError('Malformed frame: expected binary data', { fatal: false }));
  }

  private onBytes(conn: Connection, bytes: Uint8Array): void {
    let frame;
    try {
      frame = this.serializer.deserialize(bytes);
    } catch (error) {
      this.emit('error', new TransportError(`Malformed frame: ${(error as Error).message}`, { fatal: false }));
      return;
    }
    switch (frame.kind) {
      case 'message':
        return this.onMessage(conn, frame.msg);
      case 'audio':
        return this.emit('botAudio', { pcm: frame.pcm, sampleRate: frame.sampleRate, numChannels: frame.numChannels });
      case 'interruption':
        return this.emit('interruption');
      case 'text':
        return this.emit('text', frame.text);
      case 'transcription':
        return this.emit('transcription', { text: frame.text, userId: frame.userId, timestamp: frame.timestamp });
      case 'ignored':
        return;
    }
  }

  private onMessage(conn: Connection, msg: RTVIMessage): void {
    if (msg.type === 'bot-ready' && msg.id !== undefined && msg.id === conn.readyId && !conn.handshakeDone) {
      conn.handshakeDone = true;
      this.timers.clearTimeout(conn.timer);
      const wasReconnect = this.established;
      this.established = true;
      this.attempt = 0;
      if (this.pending) {
        const { resolve } = this.pending;
        this.pending = null;
        resolve();
      }
      if (wasReconnect) this.emit('reconnected');
    }
    if ((msg.type === 'server-response' || msg.type === 'error-response') && msg.id && this.requests.has(msg.id)) {
      const request = this.requests.get(msg.id)!;
      this.requests.delete(msg.id);
      this.timers.clearTimeout(request.timer);
      const data = (msg.data ?? {}) as { d?: unknown; error?: unknown };
      if (msg.type === 'server-response') request.resolve(data.d);
      else request.reject(new Error(typeof data.error === 'string' ? data.error : 'error-response'));
    }
    this.emit('message', msg);
    if (msg.type === 'bot-interrupted') this.emit('interruption');
  }

  private onTimeout(conn: Connection): void {
    if (this.conn !== conn) return;
    const error = new TransportError('websocket connection timed out', { code: CLOSE_CODE_TIMEOUT });
    this.closeConnection(CLOSE_CODE_TIMEOUT, 'websocket connection timed out');
    this.fail(error);
  }

  private onClose(conn: Connection, code: number, reason: string): void {
    this.timers.clearTimeout(conn.timer);
    this.conn = null;
    if (!this.established) {
      // The first connection never reached bot-ready: report it rather than retry blindly.
      const why =
        reason || (conn.sawError || code === 1006 ? 'websocket error' : `websocket connection closed. Code: ${code}`);
      this.fail(new TransportError(`Failed to connect to websocket: ${why}`, { code }));
      return;
    }
    if (NON_RETRYABLE_CLOSE_CODES.has(code) && conn.handshakeDone) {
      this.fail(new TransportError(`websocket connection closed. Code: ${code}`, { code }));
      return;
    }
    if (this.attempt >= this.reconnectAttempts) {
      const error = new TransportError('websocket reconnect failed', { code });
      this.emit('reconnectFailed', error);
      this.fail(error);
      return;
    }
    const delayMs = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.setState('connecting');
    this.emit('reconnecting', { attempt: this.attempt, delayMs });
    this.reconnectTimer = this.timers.setTimeout(() => {
      this.reconnectTimer = null;
      this.openSocket();
    }, delayMs);
  }

  // --- helpers ----------------------------------------------------------------------------------

  /** Fatal: error state, error event, the pending connect rejected. */
  private fail(error: TransportError): void {
    this.clearReconnectTimer();
    this.closeConnection();
    this.rejectRequests(error);
    this.micQueue = [];
    this.established = false;
    this.setState('error');
    this.emit('error', error);
    if (this.pending) {
      const { reject } = this.pending;
      this.pending = null;
      reject(error);
    }
  }

  private flushMic(): void {
    const conn = this.conn;
    if (!conn) return;
    const queued = this.micQueue;
    this.micQueue = [];
    for (const bytes of queued) conn.ws.send(bytes);
  }

  private cancelPending(): void {
    if (!this.pending) return;
    const { reject } = this.pending;
    this.pending = null;
    reject(connectionCanceledError());
  }

  private closeConnection(code = 1000, reason = ''): void {
    const conn = this.conn;
    if (!conn) return;
    this.conn = null;
    this.timers.clearTimeout(conn.timer);
    try {
      conn.ws.close(code, reason);
    } catch {
      // Already closed.
    }
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private rejectRequests(error: Error): void {
    for (const request of this.requests.values()) {
      this.timers.clearTimeout(request.timer);
      request.reject(error);
    }
    this.requests.clear();
  }
}
