// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { WebSocket, WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RTVIMessage } from './rtvi';
import type { BotAudio } from './transport';
import { WebSocketTransport, type WebSocketConstructor } from './websocket-transport';

/**
 * Interop: a minimal Pipecat-style server that knows only the published frame schema
 * (proto/frames.proto, parsed at run time with snake_case fields, as Pipecat's Python side
 * names them) talks to our transport: handshake, send-text, bot audio back.
 */
const schema = readFileSync(fileURLToPath(new URL('../../proto/frames.proto', import.meta.url)), 'utf8');
const Frame = protobuf.parse(schema, { keepCase: true }).root.lookupType('pipecat.Frame');

type FrameObject = Record<string, Record<string, unknown> | undefined>;
const decode = (data: Buffer) => Frame.toObject(Frame.decode(new Uint8Array(data)), { bytes: Array }) as FrameObject;
const encode = (frame: FrameObject) => Frame.encode(Frame.fromObject(frame)).finish();
const message = (msg: Record<string, unknown>) =>
  encode({ message: { data: JSON.stringify({ label: 'rtvi-ai', ...msg }) } });

let wss: WebSocketServer;
const received: FrameObject[] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const frame = decode(data);
      received.push(frame);
      if (!frame.message) return;
      const msg = JSON.parse(String(frame.message.data)) as RTVIMessage<{ content?: string }>;
      if (msg.type === 'client-ready')
        socket.send(
          message({ type: 'bot-ready', id: msg.id, data: { version: '2.1.0', about: { library: 'pipecat' } } }),
        );
      if (msg.type === 'send-text') {
        socket.send(message({ type: 'bot-llm-text', data: { text: `echo: ${msg.data?.content}` } }));
        // 40 ms at 24 kHz mono, as Pipecat paces its output.
        socket.send(
          encode({ audio: { id: 7, name: 'audio', audio: new Uint8Array(1920), sample_rate: 24000, num_channels: 1 } }),
        );
      }
    });
  });
});
afterAll(async () => {
  await new Promise((resolve) => wss.close(resolve));
});

describe('interop with the published Pipecat frame schema', () => {
  it('handshake, send-text and bot audio', async () => {
    const { port } = wss.address() as { port: number };
    const transport = new WebSocketTransport({ WebSocket: WebSocket as unknown as WebSocketConstructor });
    const messages: RTVIMessage[] = [];
    const audio: BotAudio[] = [];
    transport.on('message', (m) => messages.push(m));
    transport.on('botAudio', (a) => audio.push(a));
    await transport.connect({ ws_url: `ws://127.0.0.1:${port}/ws?token=t` });
    transport.sendAudio(new Int16Array(512).fill(3));
    transport.sendText('hello bot');
    await expect.poll(() => audio.length).toBe(1);
    expect(messages.map((m) => m.type)).toEqual(['bot-ready', 'bot-llm-text']);
    expect(messages[1]?.data).toEqual({ text: 'echo: hello bot' });
    expect(audio[0]).toMatchObject({ sampleRate: 24000, numChannels: 1 });
    expect(audio[0]?.pcm).toHaveLength(960);
    const mic = received.find((f) => f.audio)?.audio;
    expect(mic).toMatchObject({ name: 'audio', sample_rate: 16000, num_channels: 1 });
    expect(mic && 'pts' in mic).toBe(false);
    expect((mic?.audio as number[]).length).toBe(1024);
    const sendText = received
      .map((f) => f.message && JSON.parse(String(f.message.data)))
      .find((m) => m?.type === 'send-text');
    expect(sendText.data).toEqual({ content: 'hello bot', options: { run_immediately: true, audio_response: true } });
    await transport.disconnect();
  });
});
