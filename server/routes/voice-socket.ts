/**
 * The voice assistant's websocket (docs/voice-protocol.md), served with @fastify/websocket: the
 * upgrade runs through Fastify's router and hooks like any request. This edge checks the page's
 * Origin and the access token (the `token` query parameter: browsers cannot set headers on a
 * websocket), hands the assistant a socket, and turns every reason a connection ends into its
 * close code.
 */
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { ConnectionEnd, VoiceAssistant, VoiceSocket } from '../assistant/service';
import type { RoutePlugin } from './types';

/** The socket's path under /api/v1 (the contract's answers carry it as `websocket_url`). */
export const VOICE_SOCKET_PATH = '/voice-assistant/ws';
export const VOICE_WS_PATH = `/api/v1${VOICE_SOCKET_PATH}`;
/** Largest websocket message accepted (bigger ones close the socket with 1009). */
export const MAX_FRAME_BYTES = 1024 * 1024;

interface Close {
  code: number;
  reason: string;
}

export const CLOSE_UNAUTHORIZED: Close = { code: 4003, reason: 'Unauthorized: invalid or expired token' };
export const CLOSE_ORIGIN_REFUSED: Close = {
  code: 4003,
  reason: "Forbidden: this page's origin may not use the voice assistant",
};
export const CLOSE_TOO_LARGE: Close = { code: 1009, reason: 'Frame too large: the limit is 1 MB' };

/** The close code of each reason the assistant ends a connection. */
export const CLOSE_FOR: Record<ConnectionEnd, Close> = {
  'not-running': { code: 1008, reason: 'Voice assistant is not running' },
  stopped: { code: 1000, reason: 'Voice assistant stopped' },
  switched: { code: 1000, reason: 'Voice assistant switched to another mode or book' },
  // 1012 (service restart) is a code the client reconnects on.
  restarting: { code: 1012, reason: 'Server restarting; reconnect' },
  client: { code: 1000, reason: 'Disconnected by the client' },
};

/** How long closing sockets get to finish their close handshake at shutdown. */
const SHUTDOWN_CLOSE_MS = 1000;

export interface VoiceSocketOptions extends Record<string, unknown> {
  assistant: VoiceAssistant;
  /** Resolves an access token to its user; throws when it is invalid or expired. */
  authenticate(token: string): Promise<{ id: string }>;
  /** Whether the upgrade's Origin may use the socket (default: any). */
  allowOrigin?: (request: FastifyRequest) => boolean;
}

const toBytes = (data: RawData): Uint8Array =>
  Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data;

export const voiceSocketRoutes: RoutePlugin<VoiceSocketOptions> = async (app, options) => {
  const { assistant } = options;
  const sockets = new Set<WebSocket>();

  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false },
    // Shutdown: every client is told to come back (1012), gets a moment for the close handshake,
    // then whatever is left is cut.
    preClose: async function closeSockets() {
      assistant.close();
      const open = [...sockets];
      const closed = open.map((ws) =>
        ws.readyState === ws.CLOSED ? Promise.resolve() : new Promise<void>((resolve) => ws.once('close', resolve)),
      );
      const limit = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_CLOSE_MS).unref());
      await Promise.race([Promise.all(closed), limit]);
      for (const ws of open) ws.terminate();
      await new Promise<void>((resolve) => app.websocketServer.close(() => resolve()));
    },
  });

  app.get(VOICE_SOCKET_PATH, { websocket: true, config: { public: true } }, (ws, request) => {
    sockets.add(ws);
    // ws closes oversized messages with 1009 but no reason; give the client one.
    const close = ws.close.bind(ws);
    ws.close = (code?: number, reason?: string | Buffer) =>
      code === CLOSE_TOO_LARGE.code && (reason === undefined || reason.length === 0)
        ? close(code, CLOSE_TOO_LARGE.reason)
        : close(code, reason);
    const end = ({ code, reason }: Close) => ws.close(code, reason);

    if (!(options.allowOrigin?.(request) ?? true)) {
      end(CLOSE_ORIGIN_REFUSED);
      sockets.delete(ws);
      return;
    }

    // Messages that arrive while the token is checked are handled afterwards, in order.
    const early: [RawData, boolean][] = [];
    let receive: ((data: Uint8Array, isBinary: boolean) => void) | null = null;
    ws.on('message', (data: RawData, isBinary: boolean) =>
      receive ? receive(toBytes(data), isBinary) : early.push([data, isBinary]),
    );
    let link: { closed(): void } | null = null;
    ws.on('close', () => {
      sockets.delete(ws);
      link?.closed();
    });

    const url = new URL(request.url, 'http://localhost');
    void (async () => {
      let userId: string;
      try {
        userId = (await options.authenticate(url.searchParams.get('token') ?? '')).id;
      } catch {
        end(CLOSE_UNAUTHORIZED);
        return;
      }
      if (ws.readyState !== ws.OPEN) return;
      const socket: VoiceSocket = {
        send: (frame) => {
          if (ws.readyState === ws.OPEN) ws.send(frame);
        },
        end: (why) => end(CLOSE_FOR[why]),
      };
      const rawPosition = url.searchParams.get('position');
      const position = rawPosition === null || rawPosition === '' ? null : Number(rawPosition);
      const connection = assistant.connect(userId, socket, { position });
      if (connection === null) return;
      link = connection;
      if (ws.readyState !== ws.OPEN) {
        connection.closed();
        return;
      }
      receive = (data, isBinary) => connection.receive(data, isBinary);
      for (const [data, isBinary] of early.splice(0)) receive(toBytes(data), isBinary);
    })();
  });
};
