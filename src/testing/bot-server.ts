import { WebSocketServer, type WebSocket } from 'ws';
import { pipecat } from '../../proto/gen/frames.js';
import type { RTVIMessage } from '../voice-transport/rtvi';

/**
 * A tiny Pipecat-like bot on a real `ws` server (127.0.0.1, free port) for transport tests:
 * it records every decoded frame per connection and, unless told otherwise, answers client-ready
 * with bot-ready carrying the same id.
 */
export interface BotConnection {
  socket: WebSocket;
  frames: pipecat.Frame[];
  closeCode: Promise<number>;
}

export interface BotServerOptions {
  answerReady?: boolean;
  onMessage?: (conn: BotConnection, msg: RTVIMessage) => void;
}

export class BotServer {
  readonly connections: BotConnection[] = [];
  private readonly wss: WebSocketServer;
  private waiters: Array<() => void> = [];
  answerReady: boolean;

  private constructor(
    wss: WebSocketServer,
    private readonly options: BotServerOptions,
  ) {
    this.wss = wss;
    this.answerReady = options.answerReady ?? true;
    wss.on('connection', (socket) => this.accept(socket));
  }

  static start(options: BotServerOptions = {}): Promise<BotServer> {
    return new Promise((resolve) => {
      const wss: WebSocketServer = new WebSocketServer({ host: '127.0.0.1', port: 0 }, (): void =>
        resolve(new BotServer(wss, options)),
      );
    });
  }

  get url(): string {
    const address = this.wss.address();
    if (!address || typeof address === 'string') throw new Error('unexpected address');
    return `ws://127.0.0.1:${address.port}/ws`;
  }

  send(conn: BotConnection, frame: pipecat.Frame.$Properties | Uint8Array): void {
    conn.socket.send(frame instanceof Uint8Array ? frame : pipecat.Frame.encode(frame).finish());
  }

  sendMessage(conn: BotConnection, msg: Record<string, unknown>): void {
    this.send(conn, { message: { data: JSON.stringify(msg) } });
  }

  /** Resolves once `predicate` holds (checked after every event). */
  async until(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the bot server');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  messages(conn: BotConnection): RTVIMessage[] {
    return conn.frames.filter((f) => f.message).map((f) => JSON.parse(f.message!.data ?? '') as RTVIMessage);
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private accept(socket: WebSocket): void {
    let closed!: (code: number) => void;
    const conn: BotConnection = { socket, frames: [], closeCode: new Promise((resolve) => (closed = resolve)) };
    this.connections.push(conn);
    socket.on('close', (code) => {
      closed(code);
      this.notify();
    });
    socket.on('message', (data: Buffer) => {
      const frame = pipecat.Frame.decode(new Uint8Array(data));
      conn.frames.push(frame);
      if (frame.message) {
        const msg = JSON.parse(frame.message.data ?? '') as RTVIMessage;
        if (msg.type === 'client-ready' && this.answerReady) {
          this.sendMessage(conn, {
            label: 'rtvi-ai',
            type: 'bot-ready',
            id: msg.id,
            data: { version: '2.1.0', about: { library: 'test-bot' } },
          });
        }
        this.options.onMessage?.(conn, msg);
      }
      this.notify();
    });
    this.notify();
  }
}
