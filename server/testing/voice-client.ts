/**
 * FOR TESTS AND THE BENCHMARK: a raw `ws` client of the voice assistant speaking the published
 * frame schema (proto/frames.proto) and RTVI, recording everything the server sends.
 */
import WebSocket from 'ws';
import { pipecat } from '../../proto/gen/frames.js';
import { RTVI_LABEL, RTVI_PROTOCOL_VERSION } from '../../proto/rtvi';

export type ServerFrame =
  | { kind: 'message'; type: string; id?: string; data: Record<string, unknown>; at: number; json: string }
  | { kind: 'audio'; bytes: number; sampleRate: number; numChannels: number; name: string; at: number }
  | { kind: 'interruption'; at: number }
  | { kind: 'other'; at: number };

export class TestVoiceClient {
  readonly frames: ServerFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.on('error', () => undefined);
    ws.on('message', (data: Buffer) => {
      const frame = pipecat.Frame.decode(new Uint8Array(data));
      const at = performance.now();
      if (frame.frame === 'message') {
        const m = JSON.parse(frame.message.data ?? '{}') as {
          type: string;
          id?: string;
          data?: Record<string, unknown>;
        };
        this.frames.push({
          kind: 'message',
          type: m.type,
          ...(m.id !== undefined && { id: m.id }),
          data: m.data ?? {},
          at,
          json: frame.message.data ?? '{}',
        });
      } else if (frame.frame === 'audio') {
        const a = frame.audio;
        this.frames.push({
          kind: 'audio',
          bytes: a.audio?.byteLength ?? 0,
          sampleRate: a.sampleRate ?? 0,
          numChannels: a.numChannels ?? 0,
          name: a.name ?? '',
          at,
        });
      } else if (frame.frame === 'interruption') {
        this.frames.push({ kind: 'interruption', at });
      } else {
        this.frames.push({ kind: 'other', at });
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Opens the socket; resolves once it is open (a rejected token is accepted, then closed). */
  static connect(url: string): Promise<TestVoiceClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new TestVoiceClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  send(bytes: Uint8Array | string): void {
    this.ws.send(bytes);
  }

  sendMessage(type: string, data?: unknown, id?: string): void {
    const json = JSON.stringify({
      label: RTVI_LABEL,
      type,
      ...(id !== undefined && { id }),
      ...(data !== undefined && { data }),
    });
    this.ws.send(pipecat.Frame.encode({ message: { data: json } }).finish());
  }

  sendAudio(pcm: Int16Array, sampleRate = 16000, numChannels = 1): void {
    const audio = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    this.ws.send(pipecat.Frame.encode({ audio: { id: 0, name: 'audio', audio, sampleRate, numChannels } }).finish());
  }

  /** client-ready, resolved with bot-ready. */
  async handshake(id = 'ready-1'): Promise<ServerFrame> {
    this.sendMessage('client-ready', { version: RTVI_PROTOCOL_VERSION, about: { library: 'test-client' } }, id);
    return this.waitFor((f) => f.kind === 'message' && f.type === 'bot-ready');
  }

  messages(type?: string): Extract<ServerFrame, { kind: 'message' }>[] {
    return this.frames.filter(
      (f): f is Extract<ServerFrame, { kind: 'message' }> =>
        f.kind === 'message' && (type === undefined || f.type === type),
    );
  }

  /** The first frame (from index `from`) matching `predicate`, waiting up to `timeoutMs`. */
  waitFor(predicate: (f: ServerFrame) => boolean, timeoutMs = 5000, from = 0): Promise<ServerFrame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const seen = this.frames.map((f) => (f.kind === 'message' ? f.type : f.kind)).join(', ');
        reject(new Error(`Timed out after ${timeoutMs} ms; frames: ${seen}`));
      }, timeoutMs);
      const check = () => {
        const found = this.frames.slice(from).find(predicate);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
          return;
        }
        this.waiters.push(check);
      };
      check();
    });
  }

  waitForMessage(type: string, timeoutMs = 5000, from = 0): Promise<Extract<ServerFrame, { kind: 'message' }>> {
    return this.waitFor((f) => f.kind === 'message' && f.type === type, timeoutMs, from) as Promise<
      Extract<ServerFrame, { kind: 'message' }>
    >;
  }

  close(): void {
    this.ws.close();
  }
}
