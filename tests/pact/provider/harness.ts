import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageDescriptor } from '@pact-foundation/pact';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { appStorage } from '../../../server/testing/library-fixtures';
import { createTestApp } from '../../../server/testing/app';
import { createStateHandlers, type ProviderContext, type StateHandler } from './state-handlers';
import { createMessageProviders, type MessageHandler } from './voice-messages';

/** Where a verifier posts state changes and asks for messages (docs/contracts.md shows the recipe). */
export const STATE_CHANGE_PATH = '/_pact/provider-states';
export const MESSAGES_PATH = '/_pact/messages';

export interface ProviderHarness {
  /** The provider as a verifier sees it: the real server behind a small front door. */
  url: string;
  port: number;
  stateHandlers: Record<string, StateHandler>;
  messageProviders: Record<string, MessageHandler>;
  close(): Promise<void>;
}

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const value: unknown = text ? JSON.parse(text) : {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('The body is not a JSON object');
  return value as Record<string, unknown>;
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body ?? {}));
}

/**
 * The real server, twice: one configured for development (signup open, no email) and one for
 * production (signup closed, reset links emailed), on one fresh in-memory database. A front door sends each interaction to the app
 * its provider state selects, and serves the two endpoints any Pact verifier can drive:
 * `POST /_pact/provider-states` ({state, params, action}: sets the state up and answers the values
 * the interactions inject) and `POST /_pact/messages` ({description, providerStates, request?}:
 * answers the message's JSON content). pact-js's Verifier calls the same handlers in process.
 */
export async function startProvider(): Promise<ProviderHarness> {
  // The production app emails password reset links, to an SMTP server that only takes them in.
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((done) => smtp.listen(0, '127.0.0.1', done));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const dev = await createTestApp({ env: { APP_ENV: 'dev' } });
  const prod = await createTestApp({
    db: dev.db,
    env: {
      APP_ENV: 'production',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Lectio <lectio@example.org>',
      PUBLIC_URL: 'https://listen.example.org',
    },
  });
  await dev.app.listen({ port: 0, host: '127.0.0.1' });
  await prod.app.listen({ port: 0, host: '127.0.0.1' });
  let current = dev.app;
  const ctx: ProviderContext = {
    dev,
    prod,
    storage: appStorage(dev.config),
    use: (app) => (current = app),
    voiceUrl: `ws://127.0.0.1:${portOf(dev.app)}/api/v1/voice-assistant/ws`,
    voice: null,
  };
  const stateHandlers = createStateHandlers(ctx);
  const messageProviders = createMessageProviders(ctx);

  async function stateChange(req: IncomingMessage, res: ServerResponse) {
    const { state, params, action = 'setup' } = await readJson(req);
    if (action === 'teardown') return answer(res, 200, {});
    const handler = typeof state === 'string' ? stateHandlers[state] : undefined;
    if (!handler) return answer(res, 400, { error: `Unknown provider state ${JSON.stringify(state)}` });
    answer(res, 200, (await handler(params ?? {})) ?? {});
  }

  async function message(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req);
    const handler = typeof body.description === 'string' ? messageProviders[body.description] : undefined;
    if (!handler) return answer(res, 404, { error: `No message described ${JSON.stringify(body.description)}` });
    const requestContents = (body.request as { contents?: { content?: unknown } } | undefined)?.contents;
    const descriptor: MessageDescriptor = {
      description: body.description as string,
      ...(Array.isArray(body.providerStates) && {
        providerStates: body.providerStates as MessageDescriptor['providerStates'],
      }),
      ...(requestContents && { content: requestContents.content as MessageDescriptor['content'] }),
    };
    const metadata = Buffer.from(JSON.stringify({ contentType: 'application/json' })).toString('base64');
    answer(res, 200, await handler(descriptor), { 'pact-message-metadata': metadata });
  }

  const front: Server = createServer((req, res) => {
    if (req.method === 'POST' && (req.url === STATE_CHANGE_PATH || req.url === MESSAGES_PATH)) {
      (req.url === STATE_CHANGE_PATH ? stateChange : message)(req, res).catch((error: unknown) =>
        answer(res, 500, { error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port: portOf(current), path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => front.listen(0, '127.0.0.1', done));
  const port = (front.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stateHandlers,
    messageProviders,
    async close() {
      front.closeAllConnections();
      await new Promise((done) => front.close(done));
      await prod.close();
      await dev.close();
      await new Promise<void>((done) => smtp.close(() => done()));
    },
  };
}
