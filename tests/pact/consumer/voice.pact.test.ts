import { MatchersV3 } from '@pact-foundation/pact';
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { pipecat } from '../../../proto/gen/frames.js';
import { RTVI_LABEL, RTVI_PROTOCOL_VERSION } from '../../../proto/rtvi';
import { BotServer } from '../../../src/testing/bot-server';
import { CLIENT_LIBRARY } from '../../../src/voice-transport/constants';
import type { RTVIMessage } from '../../../src/voice-transport/rtvi';
import { WebSocketTransport, type WebSocketConstructor } from '../../../src/voice-transport/websocket-transport';
import { states, voiceMessages } from '../states';
import { lectioPact } from './pact';

// The voice transport's RTVI messages (docs/voice-protocol.md) as Pact V4 message interactions with
// JSON content: what the SPA sends and what it expects back (synchronous messages), and what the
// server pushes that the SPA acts on (asynchronous messages). Each is handled by the SPA's real
// transport (src/voice-transport/) over a real websocket, the message wrapped in a protobuf frame as
// the server sends it. The provider verification produces each one from the real server.
const { eachLike, integer, like, regex, string, uuid } = MatchersV3;
const pact = lectioPact();
const EXAMPLE_BOOK_ID = '3f2c1d0e-9b8a-4c7d-8e6f-5a4b3c2d1e0f';
const session = { mode: 'xray' };

let server: BotServer | null = null;
let transport: WebSocketTransport | null = null;

afterEach(async () => {
  await transport?.disconnect();
  await server?.close();
  transport = null;
  server = null;
});

/** The SPA's transport connected to a bot that answers each request with `reply(request)`. */
async function connectedTransport(reply: (request: RTVIMessage) => RTVIMessage | null) {
  server = await BotServer.start({
    answerReady: false,
    onMessage: (conn, msg) => {
      const answer = reply(msg);
      if (answer) server!.sendMessage(conn, answer as unknown as Record<string, unknown>);
    },
  });
  transport = new WebSocketTransport({ WebSocket: WebSocket as unknown as WebSocketConstructor });
  const received: RTVIMessage[] = [];
  transport.on('message', (msg) => received.push(msg));
  await transport.connect({ ws_url: server.url });
  return { transport, received, conn: server.connections[0]! };
}

/** bot-ready for any client-ready (the handshake's own interaction is below). */
const readyFor = (request: RTVIMessage): RTVIMessage | null =>
  request.type === 'client-ready'
    ? { label: RTVI_LABEL, type: 'bot-ready', id: request.id!, data: { version: RTVI_PROTOCOL_VERSION } }
    : null;

/** What pact-js hands the test: a request and its responses (synchronous), or one message. */
interface SynchronousMessage {
  Request: { content: unknown };
  Response: { content: unknown }[];
}
interface AsynchronousMessage {
  contents: { content: unknown };
}

/** A message's JSON content (pact-js gives synchronous contents as bytes). */
function contentOf(message: { content: unknown }): RTVIMessage<Record<string, unknown>> {
  const { content } = message;
  if (content instanceof Uint8Array)
    return JSON.parse(Buffer.from(content).toString('utf8')) as RTVIMessage<Record<string, unknown>>;
  if (typeof content === 'string') return JSON.parse(content) as RTVIMessage<Record<string, unknown>>;
  return content as RTVIMessage<Record<string, unknown>>;
}

describe('voice transport: what the SPA sends and what it expects back', () => {
  it('connects once bot-ready answers its client-ready with the same id', () =>
    pact
      .addSynchronousInteraction(voiceMessages.handshake)
      .given(states.voiceSession, session)
      .withRequest((request) =>
        request.withJSONContent({
          label: RTVI_LABEL,
          type: 'client-ready',
          id: string('a1b2c3d4'),
          data: { version: regex(/^2\.\d+\.\d+$/, RTVI_PROTOCOL_VERSION), about: { library: string(CLIENT_LIBRARY) } },
        }),
      )
      .withResponse((response) =>
        response.withJSONContent({
          label: RTVI_LABEL,
          type: 'bot-ready',
          id: string('a1b2c3d4'),
          data: {
            version: regex(/^2\.\d+\.\d+$/, RTVI_PROTOCOL_VERSION),
            about: { mode: 'xray', job_id: uuid(EXAMPLE_BOOK_ID), functions: eachLike('xray_lookup') },
          },
        }),
      )
      .executeTest(async (message: SynchronousMessage) => {
        const expected = contentOf(message.Request);
        const botReady = contentOf(message.Response[0]!);
        const sent: RTVIMessage[] = [];
        const { received } = await connectedTransport((request) => {
          sent.push(request);
          // The server answers with the id the client chose.
          return request.type === 'client-ready' ? { ...botReady, id: request.id! } : null;
        });
        // What the SPA sent has the shape of the pact's request.
        expect(sent[0]).toMatchObject({
          label: expected.label,
          type: expected.type,
          data: { version: RTVI_PROTOCOL_VERSION, about: { library: CLIENT_LIBRARY } },
        });
        expect(typeof sent[0]!.id).toBe('string');
        // The connect resolved on bot-ready; the session's mode and book reach the page.
        expect(transport!.state).toBe('ready');
        expect(received[0]).toMatchObject({ type: 'bot-ready', data: { about: { mode: 'xray' } } });
      }));

  it('sends set-position as a client message and resolves with the server-response', () =>
    pact
      .addSynchronousInteraction(voiceMessages.setPosition)
      .given(states.voiceSession, session)
      .withRequest((request) =>
        request.withJSONContent({
          label: RTVI_LABEL,
          type: 'client-message',
          id: string('p0s1t10n'),
          data: { t: 'set-position', d: { seconds: integer(16), job_id: uuid(EXAMPLE_BOOK_ID) } },
        }),
      )
      .withResponse((response) =>
        response.withJSONContent({
          label: RTVI_LABEL,
          type: 'server-response',
          id: string('p0s1t10n'),
          data: { t: 'set-position', d: { job_id: uuid(EXAMPLE_BOOK_ID), seconds: integer(16) } },
        }),
      )
      .executeTest(async (message: SynchronousMessage) => {
        const expected = contentOf(message.Request);
        const answer = contentOf(message.Response[0]!);
        const sent: RTVIMessage[] = [];
        const { transport: t } = await connectedTransport((request) => {
          if (request.type === 'client-ready') return readyFor(request);
          sent.push(request);
          return { ...answer, id: request.id! };
        });
        const d = (expected.data as { d: { seconds: number; job_id: string } }).d;
        const result = await t.sendClientMessage('set-position', { seconds: d.seconds, job_id: d.job_id });
        expect(sent[0]).toMatchObject({ label: RTVI_LABEL, type: 'client-message', data: expected.data });
        expect(result).toEqual((answer.data as { d: unknown }).d);
      }));
});

describe('voice transport: what the server pushes that the SPA acts on', () => {
  /** Delivers one pushed message to a connected transport, wrapped in a protobuf frame. */
  async function deliver(message: AsynchronousMessage) {
    const connection = await connectedTransport(readyFor);
    const seen = connection.received.length;
    let interrupted = 0;
    connection.transport.on('interruption', () => (interrupted += 1));
    server!.send(
      connection.conn,
      pipecat.Frame.encode({ message: { data: JSON.stringify(contentOf(message.contents)) } }).finish(),
    );
    await server!.until(() => connection.received.length > seen);
    return { pushed: connection.received[seen]!, interrupted: () => interrupted };
  }

  it('passes the bot’s answer text on to the page', () =>
    pact
      .addAsynchronousInteraction()
      .given(states.voiceSession, session)
      .expectsToReceive(voiceMessages.answerText, (builder) =>
        builder.withJSONContent({
          label: RTVI_LABEL,
          type: 'bot-llm-text',
          data: { text: string("Mr. Rochester hasn't appeared in what you've heard so far — keep listening!") },
        }),
      )
      .executeTest(async (message: AsynchronousMessage) => {
        const { pushed } = await deliver(message);
        expect(pushed.type).toBe('bot-llm-text');
        expect((pushed.data as { text: string }).text).toContain('Rochester');
      }));

  it('reports barge-in so the player drops the bot audio it queued', () =>
    pact
      .addAsynchronousInteraction()
      .given(states.voiceSession, session)
      .expectsToReceive(voiceMessages.interrupted, (builder) =>
        builder.withJSONContent({ label: RTVI_LABEL, type: 'bot-interrupted' }),
      )
      .executeTest(async (message: AsynchronousMessage) => {
        const { pushed, interrupted } = await deliver(message);
        expect(pushed.type).toBe('bot-interrupted');
        expect(interrupted()).toBe(1);
      }));

  it('passes a non-fatal error on without dropping the connection', () =>
    pact
      .addAsynchronousInteraction()
      .given(states.voiceSession, session)
      .expectsToReceive(voiceMessages.frameError, (builder) =>
        builder.withJSONContent({
          label: RTVI_LABEL,
          type: 'error',
          data: { error: like('Malformed frame: index out of range'), fatal: false },
        }),
      )
      .executeTest(async (message: AsynchronousMessage) => {
        const { pushed } = await deliver(message);
        expect(pushed).toMatchObject({ type: 'error', data: { fatal: false } });
        expect(transport!.state).toBe('ready');
      }));
});
