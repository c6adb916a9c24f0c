// @vitest-environment node
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { BotServer } from '../testing/bot-server';
import {
  connectionUrlFrom,
  SIG_CONNECTION_CANCELED,
  TransportError,
  UnsupportedFeatureError,
  type TransportState,
} from './transport';
import {
  WebSocketTransport,
  type Timers,
  type WebSocketConstructor,
  type WebSocketTransportOptions,
} from './websocket-transport';
import type { RTVIMessage } from './rtvi';

const WS = WebSocket as unknown as WebSocketConstructor;

/** Real timers, 50x faster, recording the delays asked for. */
function fastTimers(asked: number[] = []): Timers {
  return {
    setTimeout: (callback, ms) => {
      asked.push(ms);
      return setTimeout(callback, ms / 50);
    },
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

let server: BotServer | null = null;
const transports: WebSocketTransport[] = [];

function makeTransport(options: WebSocketTransportOptions = {}) {
  const transport = new WebSocketTransport({ WebSocket: WS, timers: fastTimers(), ...options });
  transports.push(transport);
  const states: TransportState[] = [];
  const errors: TransportError[] = [];
  const messages: RTVIMessage[] = [];
  transport.on('stateChanged', (s) => states.push(s));
  transport.on('error', (e) => errors.push(e));
  transport.on('message', (m) => messages.push(m));
  return { transport, states, errors, messages };
}

function pcm(...values: number[]): Int16Array {
  const chunk = new Int16Array(512);
  values.forEach((v, i) => (chunk[i] = v));
  return chunk;
}

afterEach(async () => {
  for (const t of transports.splice(0)) await t.disconnect();
  await server?.close();
  server = null;
});

describe('connection parameters', () => {
  it('accepts ws_url, connectionUrl and wsUrl', () => {
    expect(connectionUrlFrom({ ws_url: 'ws://a' })).toBe('ws://a');
    expect(connectionUrlFrom({ connectionUrl: 'ws://b' })).toBe('ws://b');
    expect(connectionUrlFrom({ wsUrl: 'ws://c' })).toBe('ws://c');
  });

  it('rejects other keys, non-string values and a missing url', async () => {
    expect(() => connectionUrlFrom({ ws_url: 'ws://a', room: 'x' })).toThrow('Unrecognized connection parameter: room');
    expect(() => connectionUrlFrom({ ws_url: 42 })).toThrow('Invalid type for ws_url: number');
    expect(() => connectionUrlFrom({})).toThrow('No url provided for connection');
    expect(() => connectionUrlFrom(undefined)).toThrow('No url provided for connection');
    const { transport, states } = makeTransport();
    await expect(transport.connect({ url: 'ws://x' })).rejects.toThrow('Unrecognized connection parameter: url');
    expect(states).toEqual([]);
  });

  it('camera and screen share are unsupported', () => {
    const { transport } = makeTransport();
    expect(() => transport.enableCam(true)).toThrow(UnsupportedFeatureError);
    expect(() => transport.enableScreenShare(true)).toThrow(UnsupportedFeatureError);
    expect(() => transport.enableCam(false)).not.toThrow();
    expect(transport.keepAliveIntervalMs).toBe(0);
  });
});

describe('WebSocketTransport against a real ws server', () => {
  it('handshake: client-ready 2.1.0, then bot-ready with the same id resolves connect', async () => {
    server = await BotServer.start();
    const { transport, states, messages } = makeTransport();
    await transport.connect({ ws_url: server.url });
    expect(states).toEqual(['initializing', 'initialized', 'connecting', 'connected', 'ready']);
    const [ready] = server.messages(server.connections[0]!);
    expect(ready).toMatchObject({
      label: 'rtvi-ai',
      type: 'client-ready',
      data: { version: '2.1.0', about: { library: 'lectio-web' } },
    });
    expect(messages[0]).toMatchObject({ type: 'bot-ready', id: ready!.id });
  });

  it('queues mic audio until ready, then flushes it in order as 16 kHz mono frames named audio', async () => {
    server = await BotServer.start();
    const { transport } = makeTransport();
    const connecting = transport.connect({ connectionUrl: server.url });
    transport.sendAudio(pcm(1));
    transport.sendAudio(pcm(2));
    transport.sendAudio(pcm(3));
    await connecting;
    transport.sendAudio(pcm(4));
    const conn = server.connections[0]!;
    await server.until(() => conn.frames.filter((f) => f.audio).length === 4);
    expect(conn.frames[0]?.message).toBeTruthy();
    const audio = conn.frames.filter((f) => f.audio).map((f) => f.audio!);
    expect(audio.map((a) => new DataView(a.audio!.buffer, a.audio!.byteOffset).getInt16(0, true))).toEqual([
      1, 2, 3, 4,
    ]);
    expect(audio.map((a) => [a.name, a.sampleRate, a.numChannels, a.audio!.byteLength])).toEqual(
      Array(4).fill(['audio', 16000, 1, 1024]),
    );
    expect(
      audio.every(
        (a) => a.name === 'audio' && a.sampleRate === 16000 && a.numChannels === 1 && a.audio!.byteLength === 1024,
      ),
    ).toBe(true);
  });

  it('reconnects when the server drops the socket: a new socket and a new handshake', async () => {
    server = await BotServer.start();
    const asked: number[] = [];
    const { transport } = makeTransport({ timers: fastTimers(asked) });
    const reconnecting: unknown[] = [];
    let reconnected = 0;
    transport.on('reconnecting', (info) => reconnecting.push(info));
    transport.on('reconnected', () => reconnected++);
    await transport.connect({ ws_url: server.url });
    server.connections[0]!.socket.terminate();
    await server.until(() => reconnected === 1);
    expect(reconnecting).toEqual([{ attempt: 1, delayMs: 1000 }]);
    expect(server.connections).toHaveLength(2);
    expect(server.messages(server.connections[1]!)[0]?.type).toBe('client-ready');
    expect(transport.state).toBe('ready');
    transport.sendText('still there?');
    await server.until(() => server!.messages(server!.connections[1]!).some((m) => m.type === 'send-text'));
  });

  it('reconnects when the server closes with 1012 (restarting, as a server does when it shuts down)', async () => {
    server = await BotServer.start();
    const { transport, errors } = makeTransport({ timers: fastTimers([]) });
    let reconnected = 0;
    transport.on('reconnected', () => reconnected++);
    await transport.connect({ ws_url: server.url });
    server.connections[0]!.socket.close(1012, 'Server restarting; reconnect');
    await server.until(() => reconnected === 1);
    expect(errors.filter((e) => e.fatal)).toEqual([]);
    expect(server.connections).toHaveLength(2);
    expect(transport.state).toBe('ready');
  });

  it('emits reconnectFailed after the attempts run out (server gone)', async () => {
    server = await BotServer.start();
    const { transport, errors } = makeTransport({ reconnectAttempts: 2 });
    const reconnecting: Array<{ attempt: number; delayMs: number }> = [];
    const failed: TransportError[] = [];
    transport.on('reconnecting', (info) => reconnecting.push(info));
    transport.on('reconnectFailed', (e) => failed.push(e));
    await transport.connect({ ws_url: server.url });
    await server.close();
    server = null;
    const deadline = Date.now() + 3000;
    while (!failed.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(reconnecting).toEqual([
      { attempt: 1, delayMs: 1000 },
      { attempt: 2, delayMs: 1500 },
    ]);
    expect(failed[0]?.message).toBe('websocket reconnect failed');
    expect(errors.at(-1)?.message).toBe('websocket reconnect failed');
    expect(transport.state).toBe('error');
  });

  it('times out with close code 4100 when the bot never gets ready', async () => {
    server = await BotServer.start({ answerReady: false });
    const { transport, errors } = makeTransport({ timers: undefined, connectionTimeoutMs: 80 });
    await expect(transport.connect({ ws_url: server.url })).rejects.toMatchObject({
      message: 'websocket connection timed out',
      code: 4100,
    });
    expect(await server.connections[0]!.closeCode).toBe(4100);
    expect(errors[0]?.message).toBe('websocket connection timed out');
    expect(transport.state).toBe('error');
  });

  it('a disconnect or a newer connect during a pending connect rejects it with SIG_CONNECTION_CANCELED', async () => {
    server = await BotServer.start({ answerReady: false });
    const { transport } = makeTransport();
    const first = transport.connect({ ws_url: server.url });
    const second = transport.connect({ ws_url: server.url });
    await expect(first).rejects.toMatchObject({
      name: SIG_CONNECTION_CANCELED,
      message: 'interrupted by disconnect or newer connection',
    });
    await transport.disconnect();
    await expect(second).rejects.toMatchObject({ name: SIG_CONNECTION_CANCELED });
    expect(transport.state).toBe('disconnected');
  });

  it('fails fast when nothing listens: Failed to connect to websocket', async () => {
    server = await BotServer.start();
    const url = server.url;
    await server.close();
    server = null;
    const { transport } = makeTransport();
    await expect(transport.connect({ ws_url: url })).rejects.toThrow('Failed to connect to websocket: websocket error');
    expect(transport.state).toBe('error');
  });

  it('passes on interruption (frame or bot-interrupted), bot audio and only rtvi-ai messages; malformed frames give a non-fatal error', async () => {
    server = await BotServer.start();
    const { transport, errors, messages } = makeTransport();
    let interruptions = 0;
    const audio: Int16Array[] = [];
    transport.on('interruption', () => interruptions++);
    transport.on('botAudio', (a) => audio.push(a.pcm));
    await transport.connect({ ws_url: server.url });
    const conn = server.connections[0]!;
    server.send(conn, Uint8Array.of(0x0a, 0xff));
    server.send(conn, { message: { data: '{not json' } });
    server.sendMessage(conn, { label: 'other', type: 'bot-tts-text', data: { text: 'hidden' } });
    server.send(conn, {
      audio: { id: 1, name: 'audio', audio: new Uint8Array([1, 0, 2, 0]), sampleRate: 24000, numChannels: 1 },
    });
    server.send(conn, { interruption: { id: 2, name: 'interruption' } });
    server.sendMessage(conn, { label: 'rtvi-ai', type: 'bot-tts-text', data: { text: 'shown' } });
    // Lectio's server signals barge-in the RTVI way; a Pipecat server may send the frame instead.
    server.sendMessage(conn, { label: 'rtvi-ai', type: 'bot-interrupted' });
    const deadline = Date.now() + 3000;
    while (messages.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(messages.map((m) => m.type)).toEqual(['bot-ready', 'bot-tts-text', 'bot-interrupted']);
    expect(messages[1]?.data).toEqual({ text: 'shown' });
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => !e.fatal && e.message.startsWith('Malformed frame'))).toBe(true);
    expect(interruptions).toBe(2);
    expect([...audio[0]!]).toEqual([1, 2]);
    expect(transport.state).toBe('ready');
  });

  it('a deliberate server close (1008) is fatal without retry: websocket connection closed. Code: 1008', async () => {
    server = await BotServer.start();
    const { transport, errors } = makeTransport();
    const reconnecting: unknown[] = [];
    transport.on('reconnecting', (info) => reconnecting.push(info));
    await transport.connect({ ws_url: server.url });
    server.connections[0]!.socket.close(1008, 'Unauthorized');
    await server.until(() => errors.length > 0);
    expect(errors[0]).toMatchObject({ message: 'websocket connection closed. Code: 1008', code: 1008, fatal: true });
    expect(reconnecting).toEqual([]);
    expect(transport.state).toBe('error');
  });

  it('mic audio captured while reconnecting is flushed in order after the new handshake', async () => {
    server = await BotServer.start();
    const { transport } = makeTransport();
    await transport.connect({ ws_url: server.url });
    transport.on('reconnecting', () => {
      transport.sendAudio(pcm(7));
      transport.sendAudio(pcm(8));
    });
    server.connections[0]!.socket.terminate();
    await server.until(() => (server!.connections[1]?.frames.filter((f) => f.audio).length ?? 0) === 2);
    const frames = server.connections[1]!.frames;
    expect(frames[0]?.message).toBeTruthy();
    expect(
      frames.slice(1).map((f) => new DataView(f.audio!.audio!.buffer, f.audio!.audio!.byteOffset).getInt16(0, true)),
    ).toEqual([7, 8]);
  });

  it('client-message requests resolve with the server-response', async () => {
    server = await BotServer.start({
      onMessage: (conn, msg) => {
        if (msg.type === 'client-message') {
          server!.sendMessage(conn, {
            label: 'rtvi-ai',
            type: 'server-response',
            id: msg.id,
            data: { t: 'echo', d: msg.data },
          });
        }
      },
    });
    const { transport } = makeTransport();
    await transport.connect({ ws_url: server.url });
    await expect(transport.sendClientMessage('echo', { n: 1 })).resolves.toEqual({ t: 'echo', d: { n: 1 } });
  });
});
