import type { MessageDescriptor } from '@pact-foundation/pact';
import { pipecat } from '../../../proto/gen/frames.js';
import { TestVoiceClient, type ServerFrame } from '../../../server/testing/voice-client';
import { voiceMessages } from '../states';
import type { ProviderContext } from './state-handlers';

/**
 * The voice transport's RTVI messages, produced by the real server: each provider opens a real
 * websocket to the voice assistant the provider state started, does what the listener's client does,
 * and answers with the JSON of the message the server sent (docs/contracts.md, "Voice messages").
 */
export type MessageHandler = (message: MessageDescriptor) => Promise<unknown>;

const ANSWER_TIMEOUT_MS = 15_000;

type MessageFrame = Extract<ServerFrame, { kind: 'message' }>;

async function withSession<T>(ctx: ProviderContext, use: (client: TestVoiceClient) => Promise<T>): Promise<T> {
  if (!ctx.voice) throw new Error('No voice session: the provider state starts one');
  const client = await TestVoiceClient.connect(`${ctx.voiceUrl}?token=${encodeURIComponent(ctx.voice.token)}`);
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

const sendJson = (client: TestVoiceClient, message: unknown) =>
  client.send(pipecat.Frame.encode({ message: { data: JSON.stringify(message) } }).finish());

const asJson = (frame: ServerFrame) => JSON.parse((frame as MessageFrame).json) as unknown;

/** Sends the pact's request as it stands and answers with the server's reply carrying the same id. */
function exchange(ctx: ProviderContext, handshakeFirst: boolean): MessageHandler {
  return (message) =>
    withSession(ctx, async (client) => {
      const request = message.content as { id?: unknown } | undefined;
      if (!request || typeof request.id !== 'string') throw new Error('The request message has no id');
      if (handshakeFirst) await client.handshake();
      const from = client.frames.length;
      sendJson(client, request);
      const reply = await client.waitFor((f) => f.kind === 'message' && f.id === request.id, ANSWER_TIMEOUT_MS, from);
      return asJson(reply);
    });
}

/** One producer per message interaction, keyed by its description. */
export function createMessageProviders(ctx: ProviderContext): Record<string, MessageHandler> {
  return {
    [voiceMessages.handshake]: exchange(ctx, false),
    [voiceMessages.setPosition]: exchange(ctx, true),
    [voiceMessages.answerText]: () =>
      withSession(ctx, async (client) => {
        await client.handshake();
        const from = client.frames.length;
        client.sendMessage('send-text', {
          content: 'Who is Mr. Rochester?',
          options: { run_immediately: true, audio_response: false },
        });
        return asJson(await client.waitForMessage('bot-llm-text', ANSWER_TIMEOUT_MS, from));
      }),
    [voiceMessages.interrupted]: () =>
      withSession(ctx, async (client) => {
        await client.handshake();
        const from = client.frames.length;
        client.sendMessage('send-text', { content: 'Who is Mr. Rochester?' });
        await client.waitForMessage('bot-started-speaking', ANSWER_TIMEOUT_MS, from);
        // The listener types over the bot.
        client.sendMessage('send-text', { content: 'Where does the story take place?' });
        return asJson(await client.waitForMessage('bot-interrupted', ANSWER_TIMEOUT_MS, from));
      }),
    [voiceMessages.frameError]: () =>
      withSession(ctx, async (client) => {
        client.send(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
        return asJson(await client.waitForMessage('error', ANSWER_TIMEOUT_MS));
      }),
  };
}
