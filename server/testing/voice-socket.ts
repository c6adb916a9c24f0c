import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { VoiceAssistant } from '../assistant/service';
import { VOICE_WS_PATH, voiceSocketRoutes } from '../routes/voice-socket';

export interface ServedAssistant {
  /** ws://127.0.0.1:port/api/v1/voice-assistant/ws?token=… */
  url: string;
  port: number;
  /** Closes the server: its preClose ends every socket (1012) and stops the sessions. */
  close(): Promise<void>;
}

/**
 * Serves an assistant's websocket the way the app does (the same route), on its own small Fastify
 * server, for tests and benches that drive the assistant without the rest of the API. One token is
 * accepted, as `userId` (default: the user named like the token).
 */
export async function serveVoiceAssistant(
  assistant: VoiceAssistant,
  token: string,
  userId = token,
): Promise<ServedAssistant> {
  const app = Fastify();
  await app.register(voiceSocketRoutes, {
    prefix: '/api/v1',
    assistant,
    authenticate: async (given) => {
      if (given !== token) throw new Error('bad token');
      return { id: userId };
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { url: `ws://127.0.0.1:${port}${VOICE_WS_PATH}?token=${token}`, port, close: () => app.close() };
}
