/**
 * The voice assistant service: per-user sessions, the websocket endpoint (ws in noServer mode on
 * the HTTP server's 'upgrade' event) and the engines (offline by default; OpenAI when configured).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { getOfflineEngine, offlineVoiceFor } from '../tts/espeak';
import { resample, warmUpAudio } from './audio';
import type { BookSource } from './books';
import type { ListeningHistory } from './library';
import type { TutorState } from './tutor';
import { BookIndexCache } from './heard-index';
import { createOfflineBrain, type Brain, type CallTool } from './brain';
import { VoiceConnection, type SpeechToText } from './connection';
import { BOT_SAMPLE_RATE } from '../../proto/audio';
import { createVoiceSessions, type VoiceSession, type VoiceSessions } from './sessions';
import type { Synthesizer } from './speaker';
import { TOOL_NAMES, createToolbox, type Toolbox } from './tools';

export const VOICE_WS_PATH = '/api/v1/voice-assistant/ws';
/** Largest websocket message accepted (bigger ones close the socket with 1009). */
export const MAX_FRAME_BYTES = 1024 * 1024;

export const CLOSE_UNAUTHORIZED = { code: 4003, reason: 'Unauthorized: invalid or expired token' } as const;
export const CLOSE_ORIGIN_REFUSED = {
  code: 4003,
  reason: "Forbidden: this page's origin may not use the voice assistant",
} as const;
export const CLOSE_NOT_RUNNING = { code: 1008, reason: 'Voice assistant is not running' } as const;
export const CLOSE_TOO_LARGE = { code: 1009, reason: 'Frame too large: the limit is 1 MB' } as const;
export const CLOSE_STOPPED = { code: 1000, reason: 'Voice assistant stopped' } as const;
export const CLOSE_SWITCHED = { code: 1000, reason: 'Voice assistant switched to another mode or book' } as const;
/** The server is shutting down: 1012 (service restart) is a code the client reconnects on. */
export const CLOSE_RESTARTING = { code: 1012, reason: 'Server restarting; reconnect' } as const;

/** An alternative engine set (the OpenAI one, see openai.ts). */
export interface AssistantEngines {
  synthesize: Synthesizer;
  speechToText: SpeechToText | null;
  brain(context: {
    session: VoiceSession;
    toolbox: Toolbox;
    callTool: CallTool;
    /** Sends the client an RTVI server-message {t, d} (e.g. that the offline brain answered). */
    notify: (t: string, d: unknown) => void;
  }): Brain;
}

export interface VoiceAssistantDeps {
  /** Resolves a bearer token to its user; throws when it is invalid or expired. */
  authenticate(token: string): Promise<{ id: string }>;
  /** Whether an upgrade's Origin may use the socket (default: any). */
  allowOrigin?: (request: IncomingMessage) => boolean;
  books: BookSource;
  /** The users' playback history (default: the saved positions of `books`). */
  history?: ListeningHistory;
  /** Engines; default: the offline ones (eSpeak voice, rule-based brain, no speech-to-text). */
  engines?: AssistantEngines;
  log?: { warn(obj: unknown, msg?: string): void };
  now?: () => Date;
}

export interface VoiceAssistant {
  readonly sessions: VoiceSessions;
  readonly books: BookSource;
  readonly functions: readonly string[];
  /** Loads the speech engine and audio WASM in the background (the first answer is then fast). */
  warmUp(): Promise<void>;
  /** Serves the websocket on `server` (call once). */
  attach(server: Server): void;
  /** Open connections of a user (for tests). */
  connectionCount(userId: string): number;
  /** Open voice websockets in this process, all users. */
  openConnections(): number;
  /** Closes every voice websocket with 1012 (the client reconnects), then stops the sessions. */
  close(): Promise<void>;
}

/** The offline voice: eSpeak-NG at 22050 Hz, resampled to 24 kHz with the Speex resampler. */
export function offlineSynthesizer(): Synthesizer {
  const voice = offlineVoiceFor('openai', 'alloy');
  return async (text, signal) => {
    const speech = await getOfflineEngine().synthesize(text, voice, signal);
    return resample(speech.samples, speech.sampleRate, BOT_SAMPLE_RATE);
  };
}

export function offlineEngines(): AssistantEngines {
  return {
    synthesize: offlineSynthesizer(),
    speechToText: null,
    brain: ({ session, callTool }) => createOfflineBrain({ mode: session.mode, jobId: session.jobId, callTool }),
  };
}

export function createVoiceAssistant(deps: VoiceAssistantDeps): VoiceAssistant {
  const sessions = createVoiceSessions({ books: deps.books, ...(deps.now && { now: deps.now }) });
  const engines = deps.engines ?? offlineEngines();
  const open = new Map<string, Set<{ ws: WebSocket; connection: VoiceConnection | null }>>();
  // A session's tutoring dialogues outlive its sockets (a reconnect carries on), not the session.
  const tutorMemory = new WeakMap<VoiceSession, Map<string, TutorState>>();
  // Book indexes shared by the connections (a reconnect finds its book indexed).
  const indexes = new BookIndexCache();
  const tutorFor = (session: VoiceSession): Map<string, TutorState> => {
    let memory = tutorMemory.get(session);
    if (memory === undefined) {
      memory = new Map();
      tutorMemory.set(session, memory);
    }
    return memory;
  };
  let warming: Promise<void> | undefined;
  let wss: WebSocketServer | null = null;

  sessions.onStop((session, why) => {
    const close = why === 'switched' ? CLOSE_SWITCHED : CLOSE_STOPPED;
    for (const entry of open.get(session.userId) ?? []) {
      entry.connection?.close();
      entry.ws.close(close.code, close.reason);
    }
  });

  function warmUp(): Promise<void> {
    warming ??= Promise.all([
      warmUpAudio(),
      engines.synthesize('Ready.', new AbortController().signal).then(() => undefined),
    ]).then(
      () => undefined,
      (error: unknown) => deps.log?.warn({ err: error }, 'voice assistant warm-up failed'),
    );
    return warming;
  }

  async function onSocket(ws: WebSocket, url: URL): Promise<void> {
    // ws closes oversized messages with 1009 but no reason; give the client one.
    const close = ws.close.bind(ws);
    ws.close = (code?: number, reason?: string | Buffer) =>
      code === CLOSE_TOO_LARGE.code && (reason === undefined || reason.length === 0)
        ? close(code, CLOSE_TOO_LARGE.reason)
        : close(code, reason);
    ws.on('error', () => undefined);

    // Messages that arrive while the token is checked are handled afterwards, in order.
    const early: [RawData, boolean][] = [];
    let handler: ((data: RawData, isBinary: boolean) => void) | null = null;
    ws.on('message', (data, isBinary) => (handler ? handler(data, isBinary) : early.push([data, isBinary])));

    let userId: string;
    try {
      userId = (await deps.authenticate(url.searchParams.get('token') ?? '')).id;
    } catch {
      ws.close(CLOSE_UNAUTHORIZED.code, CLOSE_UNAUTHORIZED.reason);
      return;
    }
    const session = sessions.get(userId);
    if (session === null) {
      ws.close(CLOSE_NOT_RUNNING.code, CLOSE_NOT_RUNNING.reason);
      return;
    }
    if (ws.readyState !== ws.OPEN) return;

    const positions = new Map<string, number>();
    const position = Number(url.searchParams.get('position') ?? Number.NaN);
    if (session.jobId !== null && Number.isFinite(position) && position >= 0) positions.set(session.jobId, position);
    const toolbox = createToolbox({
      userId,
      books: deps.books,
      ...(deps.history && { history: deps.history }),
      tutor: tutorFor(session),
      indexes,
      clientPosition: (jobId) => positions.get(jobId),
    });
    const connection = new VoiceConnection({
      socket: {
        send: (frame) => {
          if (ws.readyState === ws.OPEN) ws.send(frame);
        },
        close: (code, reason) => ws.close(code, reason),
      },
      session,
      toolbox,
      brain: ({ callTool, notify }) => engines.brain({ session, toolbox, callTool, notify }),
      synthesize: engines.synthesize,
      speechToText: engines.speechToText,
      positions,
      ...(deps.log && { log: deps.log }),
    });
    const entry = { ws, connection };
    const set = open.get(userId) ?? new Set();
    set.add(entry);
    open.set(userId, set);
    ws.on('close', () => {
      connection.close();
      set.delete(entry);
      if (set.size === 0) open.delete(userId);
    });
    void warmUp();
    // Index the session's book up to the listener's position before the first question arrives.
    if (session.jobId !== null)
      toolbox
        .prepare(session.jobId)
        .catch((error: unknown) => deps.log?.warn({ err: error }, 'voice assistant could not index the book'));

    const toBytes = (data: RawData): Uint8Array =>
      Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    handler = (data, isBinary) => connection.handle(toBytes(data), isBinary);
    for (const [data, isBinary] of early.splice(0)) handler(data, isBinary);
  }

  return {
    sessions,
    books: deps.books,
    functions: TOOL_NAMES,
    warmUp,
    connectionCount: (userId) => open.get(userId)?.size ?? 0,
    openConnections: () => [...open.values()].reduce((n, set) => n + set.size, 0),
    attach(server) {
      wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
      const server_ = wss;
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        const url = new URL(request.url ?? '/', 'http://localhost');
        if (url.pathname !== VOICE_WS_PATH) {
          // Nobody else serves websockets: refuse instead of leaving the socket hanging.
          if (server.listenerCount('upgrade') === 1) {
            socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          }
          return;
        }
        const originAllowed = deps.allowOrigin?.(request) ?? true;
        server_.handleUpgrade(request, socket, head, (ws) =>
          originAllowed ? void onSocket(ws, url) : ws.close(CLOSE_ORIGIN_REFUSED.code, CLOSE_ORIGIN_REFUSED.reason),
        );
      });
    },
    async close() {
      // Tell every client to come back (1012), give the close handshakes a moment, then cut what is left.
      const sockets = [...open.values()].flatMap((set) => [...set]);
      open.clear();
      for (const entry of sockets) {
        entry.connection?.close();
        entry.ws.close(CLOSE_RESTARTING.code, CLOSE_RESTARTING.reason);
      }
      const closed = sockets.map((entry) =>
        entry.ws.readyState === entry.ws.CLOSED
          ? Promise.resolve()
          : new Promise<void>((resolve) => entry.ws.once('close', () => resolve())),
      );
      const limit = new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
      await Promise.race([Promise.all(closed), limit]);
      for (const entry of sockets) entry.ws.terminate();
      sessions.stopAll();
      wss?.close();
    },
  };
}
