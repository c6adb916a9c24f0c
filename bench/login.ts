/**
 * Sign-in under a flood (loopback only): npm run bench -- login
 * Prints how long a real sign-in takes alone, and while 150 wrong sign-ins arrive at once, from
 * one address and from 150 addresses (127.0.1.x, all on this machine). The real sign-in comes from
 * its own address and, when told to wait (429), waits Retry-After and tries again, as a person
 * would. The server runs in this process at the real (OWASP) scrypt cost and default limits.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';

const FLOOD = 150;
const PASSWORD = 'correct-horse-battery';

interface Answer {
  status: number;
  retryAfter: number;
}

function post(port: number, pathname: string, body: object, localAddress: string): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0) }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const login = (port: number, email: string, password: string, from: string) =>
  post(port, '/api/v1/auth/login', { email, password }, from);

/** Signs in, following Retry-After on 429; returns the time to a token and how many 429s it got. */
async function realSignIn(port: number, email: string, from: string): Promise<{ seconds: number; waits: number }> {
  const started = performance.now();
  for (let waits = 0; ; waits++) {
    const answer = await login(port, email, PASSWORD, from);
    if (answer.status === 200) return { seconds: (performance.now() - started) / 1000, waits };
    if (answer.status !== 429 || waits > 20) throw new Error(`real sign-in answered ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, answer.retryAfter) * 1000));
  }
}

async function flooded(port: number, email: string, addressOf: (i: number) => string) {
  const flood = Array.from({ length: FLOOD }, (_, i) =>
    login(port, `flood${i}@example.com`, 'a wrong guess', addressOf(i)),
  );
  const real = realSignIn(port, email, '127.0.0.9');
  const answers = await Promise.all(flood);
  const { seconds, waits } = await real;
  const refused = answers.filter((a) => a.status === 429).length;
  return { seconds, waits, refused, checked: answers.length - refused };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'lectio-bench-login-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  STATIC_DIR: '',
  LOG_LEVEL: 'silent',
  WORKERS: 'none',
});
delete config.staticDir;
const app = await createApp(config);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
try {
  const email = 'bench.reader@example.com';
  const created = await post(port, '/api/v1/auth/register', { email, password: PASSWORD }, '127.0.0.8');
  if (created.status !== 201) throw new Error(`register answered ${created.status}`);

  const alone = await realSignIn(port, email, '127.0.0.9');
  console.log(`real sign-in alone: ${alone.seconds.toFixed(2)} s`);

  const single = await flooded(port, email, () => '127.0.1.1');
  console.log(
    `real sign-in during ${FLOOD} simultaneous wrong sign-ins from one address: ${single.seconds.toFixed(2)} s ` +
      `(${single.waits} Retry-After waits); flood: ${single.checked} checked, ${single.refused} refused with 429 at once`,
  );

  const spread = await flooded(port, email, (i) => `127.0.1.${(i % 250) + 1}`);
  console.log(
    `real sign-in during ${FLOOD} simultaneous wrong sign-ins from ${FLOOD} addresses: ${spread.seconds.toFixed(2)} s ` +
      `(${spread.waits} Retry-After waits); flood: ${spread.checked} checked, ${spread.refused} refused with 429 at once`,
  );
  console.log('target (issue 11): a real sign-in stays close to its time alone instead of waiting for the whole flood');
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
