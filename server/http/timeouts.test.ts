import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { loadConfig } from '../config';
import { createTestApp, type TestApp } from '../testing/app';
import { idleWhileWorking, serverOptions } from './server-options';

// Slow clients: a connection that stops sending, or sends too slowly, is closed by the server.
// Short timeouts are configured here; the defaults are in server/config/http.ts (all within 30 s).

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({
    env: { HTTP_IDLE_TIMEOUT_SECONDS: '1', HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Opens a raw TCP connection and collects what the server sends until it closes the connection. */
function rawClient(): { socket: Socket; closed: Promise<string> } {
  const socket = connect({ port, host: '127.0.0.1' });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => undefined);
  return { socket, closed };
}

const body = JSON.stringify({ email: 'slow@example.com', password: 'correct-horse-battery' });
const headers = [
  'POST /api/v1/auth/login HTTP/1.1',
  'Host: 127.0.0.1',
  'Content-Type: application/json',
  `Content-Length: ${body.length}`,
  '',
  '',
].join('\r\n');

describe('slow clients', () => {
  it('closes a connection whose request body stalls half-way', async () => {
    const { socket, closed } = rawClient();
    socket.write(headers + body.slice(0, body.length / 2));
    const answer = await closed;
    // Nothing was answered to the half request: the connection was simply closed.
    expect(answer).not.toMatch(/^HTTP\/1\.1 (200|401)/);
    expect(socket.destroyed).toBe(true);
  });

  it('answers 408 and closes a request whose body trickles in slower than the request timeout allows', async () => {
    const { socket, closed } = rawClient();
    socket.write(headers);
    let sent = 0;
    // One byte every 300 ms never trips the idle timeout, but the whole request takes too long.
    const drip = setInterval(() => {
      if (sent < body.length - 1 && !socket.destroyed) socket.write(body[sent++]!);
    }, 300);
    const answer = await closed.finally(() => clearInterval(drip));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent).toBeLessThan(body.length - 1);
  });

  it('closes a connection whose headers never end', async () => {
    const { socket, closed } = rawClient();
    socket.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write('X-Slow: 1\r\n');
    }, 300);
    const answer = await closed.finally(() => clearInterval(drip));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still answers a client that sends its request in time', async () => {
    const { socket, closed } = rawClient();
    socket.write(headers.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n') + body);
    expect(await closed).toMatch(/^HTTP\/1\.1 401 /);
  });
});

describe('the server at work', () => {
  it('answers a request it takes longer than the idle timeout to work on, on a kept-alive connection', async () => {
    const config = loadConfig({ ...process.env, HTTP_IDLE_TIMEOUT_SECONDS: '1' });
    const app = Fastify({ ...serverOptions(config) });
    idleWhileWorking(app);
    // Reading a large book in a worker thread: nothing moves on the socket meanwhile.
    app.post('/work', async () => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      return { read: true };
    });
    app.get('/quick', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.server.address() as AddressInfo).port;
      // Both requests on one connection, as a browser or undici reuses it after an answer.
      const socket = connect({ port, host: '127.0.0.1' });
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n');
      await vi.waitFor(() => expect(received).toContain('{"ok":true}'));
      socket.write('POST /work HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      await vi.waitFor(() => expect(received).toContain('{"read":true}'), { timeout: 10_000 });
      // Once answered, the silent connection is closed by the idle timeout as before.
      await closed;
      expect(socket.destroyed).toBe(true);
    } finally {
      await app.close();
    }
  });
});
