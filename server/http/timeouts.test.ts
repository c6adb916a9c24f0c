import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../testing/app';

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
