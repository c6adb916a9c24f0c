import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, truncateAll } from '../../../server/testing';
import { reader, states } from '../states';

// The real server, twice: one configured for development (signup open) and one for production
// (signup closed). A small forwarding proxy sends each interaction to the app its provider state
// selects, so every interaction is replayed against a real app on a real, fresh database.
let dev: TestApp;
let prod: TestApp;
let devApp: FastifyInstance;
let prodApp: FastifyInstance;
let current: FastifyInstance;
let proxy: Server;

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

async function call(app: FastifyInstance, method: string, url: string, payload?: object) {
  const res = await app.inject({ method: method as 'POST', url, payload });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

async function ensureAccount(email: string, password: string) {
  const { status } = await call(devApp, 'POST', '/api/v1/auth/register', { email, password });
  if (status !== 201 && status !== 409) throw new Error(`Could not create ${email}: ${status}`);
}

beforeAll(async () => {
  // Both apps share one fresh in-memory database.
  dev = await createTestApp({ env: { APP_ENV: 'dev' } });
  prod = await createTestApp({ db: dev.db, env: { APP_ENV: 'production' } });
  devApp = dev.app;
  prodApp = prod.app;
  await devApp.listen({ port: 0, host: '127.0.0.1' });
  await prodApp.listen({ port: 0, host: '127.0.0.1' });
  current = devApp;
  proxy = createServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: portOf(current), path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
});

afterAll(async () => {
  await new Promise((done) => proxy?.close(done));
  await prod?.close();
  await dev?.close();
});

type Params = { email?: string; password?: string } | undefined;

const stateHandlers = {
  [states.signupEnabled]: async () => {
    current = devApp;
    return undefined;
  },
  [states.signupDisabled]: async () => {
    current = prodApp;
    return undefined;
  },
  [states.noAccount]: async () => {
    current = devApp;
    await truncateAll(dev.db);
    return undefined;
  },
  [states.accountExists]: async (params: unknown) => {
    current = devApp;
    const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
    await ensureAccount(email, password);
    return undefined;
  },
  [states.signedIn]: async (params: unknown) => {
    current = devApp;
    const { email = reader.email, password = reader.password } = (params ?? {}) as NonNullable<Params>;
    await ensureAccount(email, password);
    const { status, body } = await call(devApp, 'POST', '/api/v1/auth/login', { email, password });
    if (status !== 200) throw new Error(`Could not sign in ${email}: ${status}`);
    return { token: String(body.access_token) };
  },
};

describe('lectio-api honours the pact of lectio-web', () => {
  it('verifies every interaction against the real server', async () => {
    const output = await new Verifier({
      provider: 'lectio-api',
      providerBaseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      pactUrls: [resolve('contracts/pacts/lectio-web-lectio-api.json')],
      stateHandlers,
      logLevel: 'warn',
    }).verifyProvider();
    expect(output).toBeTruthy();
  });
});
