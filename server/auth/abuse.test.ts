import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../db/types';
import { openPglite } from '../db/pglite';
import { createTestApp, manualClock, type TestApp } from '../testing/app';
import { OWASP_SCRYPT } from './passwords';

// Sign-in abuse: concurrent guessing, locking other people out, flooding the password hasher,
// and limits behind a reverse proxy.

const PASSWORD = 'correct-horse-battery';
let db: Db;
let counter = 0;
const uniqueEmail = () => `abuse${++counter}@example.com`;

beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db.close();
});

function register(t: TestApp, email: string, remoteAddress = '10.0.0.1', headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { email, password: PASSWORD },
    remoteAddress,
    headers,
  });
}

function login(
  t: TestApp,
  email: string,
  password: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress,
    headers,
  });
}

const statuses = (responses: LightMyRequestResponse[]) => responses.map((res) => res.statusCode);
const count = (responses: LightMyRequestResponse[], status: number) =>
  responses.filter((res) => res.statusCode === status).length;

describe('concurrent guesses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  it('checks at most LOGIN_MAX_ATTEMPTS of 40 simultaneous guesses; the correct password sent last gets no token', async () => {
    const email = uniqueEmail();
    expect((await register(t, email)).statusCode).toBe(201);

    const guesses = Array.from({ length: 39 }, (_, i) => login(t, email, `wrong guess number ${i}`, '10.20.30.40'));
    const last = login(t, email, PASSWORD, '10.20.30.40');
    const responses = await Promise.all([...guesses, last]);

    expect(new Set(statuses(responses))).toEqual(new Set([401, 429]));
    expect(count(responses, 401)).toBeLessThanOrEqual(5);
    expect(count(responses, 429)).toBeGreaterThanOrEqual(35);
    const answer = responses.at(-1)!;
    expect(answer.statusCode).toBe(429);
    expect(answer.json()).not.toHaveProperty('access_token');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('guessing does not lock the owner out', () => {
  const clock = manualClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, now: clock.now, env: { LOGIN_MAX_ATTEMPTS: '3' } });
  });
  afterAll(() => t.close());

  it('blocks the guessing address, while the owner signs in from another', async () => {
    const email = uniqueEmail();
    await register(t, email);
    for (let i = 0; i < 3; i++) expect((await login(t, email, 'a wrong guess', '203.0.113.66')).statusCode).toBe(401);
    const blocked = await login(t, email, PASSWORD, '203.0.113.66');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Too many sign-in attempts. Try again in 15 minutes.');

    const owner = await login(t, email, PASSWORD, '198.51.100.7');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().access_token).toEqual(expect.any(String));
  });

  it('spaces out guesses from many addresses with growing delays, never a lock', async () => {
    const email = uniqueEmail();
    await register(t, email);
    // 2 x LOGIN_MAX_ATTEMPTS failures from different addresses are free...
    for (let i = 0; i < 6; i++) expect((await login(t, email, 'a wrong guess', `192.0.2.${i}`)).statusCode).toBe(401);
    // ...then each failure makes the next attempt wait: 1 s, 2 s, 4 s.
    expect((await login(t, email, 'a wrong guess', '192.0.2.10')).statusCode).toBe(401);
    const soon = await login(t, email, PASSWORD, '192.0.2.11');
    expect(soon.statusCode).toBe(429);
    expect(soon.headers['retry-after']).toBe('1');
    clock.advance(1);
    expect((await login(t, email, 'a wrong guess', '192.0.2.12')).statusCode).toBe(401);
    expect((await login(t, email, 'a wrong guess', '192.0.2.13')).headers['retry-after']).toBe('2');
    clock.advance(2);
    expect((await login(t, email, 'a wrong guess', '192.0.2.14')).statusCode).toBe(401);
    expect((await login(t, email, PASSWORD, '192.0.2.15')).headers['retry-after']).toBe('4');

    // The owner waits the delay out and gets in.
    clock.advance(4);
    expect((await login(t, email, PASSWORD, '192.0.2.16')).statusCode).toBe(200);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, env: { LOGIN_MAX_ATTEMPTS: '3', TRUST_PROXY: '127.0.0.1, 10.99.0.0/16' } });
  });
  afterAll(() => t.close());

  const via = (client: string) => ({ 'x-forwarded-for': client });

  it('keys the limits on the client address a trusted proxy forwards', async () => {
    const email = uniqueEmail();
    await register(t, email);
    for (let i = 0; i < 3; i++) {
      expect((await login(t, email, 'a wrong guess', '10.99.0.5', via('203.0.113.9'))).statusCode).toBe(401);
    }
    expect((await login(t, email, PASSWORD, '10.99.0.5', via('203.0.113.9'))).statusCode).toBe(429);
    // Another client through the same proxy, and the same one through another trusted proxy hop.
    expect((await login(t, email, PASSWORD, '10.99.0.5', via('203.0.113.10'))).statusCode).toBe(200);
    expect((await login(t, email, PASSWORD, '127.0.0.1', via('203.0.113.9'))).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For from a sender that is not a trusted proxy', async () => {
    const email = uniqueEmail();
    await register(t, email);
    for (let i = 0; i < 3; i++) {
      expect((await login(t, email, 'a wrong guess', '198.51.100.20', via(`203.0.113.${50 + i}`))).statusCode).toBe(
        401,
      );
    }
    const spoofed = await login(t, email, PASSWORD, '198.51.100.20', via('203.0.113.99'));
    expect(spoofed.statusCode).toBe(429);
  });

  it('rate-limits requests per forwarded client address', async () => {
    const limited = await createTestApp({ db, env: { TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const email = uniqueEmail();
      for (let i = 0; i < 3; i++) {
        expect((await login(limited, email, 'a wrong guess', '127.0.0.1', via(`203.0.113.${60 + i}`))).statusCode).toBe(
          401,
        );
      }
      for (let i = 0; i < 3; i++) {
        expect((await login(limited, email, 'a wrong guess', '127.0.0.1', via('203.0.113.70'))).statusCode).toBe(401);
      }
      const fourth = await login(limited, email, 'a wrong guess', '127.0.0.1', via('203.0.113.70'));
      expect(fourth.statusCode).toBe(429);
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      expect(fourth.json().message).toMatch(/^Too many requests\. Try again in \d+ (seconds?|minutes?)\.$/);
      expect(fourth.json().detail).toBe(fourth.json().message);
    } finally {
      await limited.close();
    }
  });
});

describe('rate limits on the auth routes', () => {
  it('limits requests per minute per address on sign-in', async () => {
    const t = await createTestApp({ db, env: { AUTH_RATE_LIMIT_PER_MINUTE: '4' } });
    try {
      const email = uniqueEmail();
      // Different accounts, so the login throttle (per account and address) is not what answers.
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await login(t, `${i}${email}`, 'a wrong guess', '10.40.0.1'));
      expect(statuses(answers)).toEqual([401, 401, 401, 401, 429]);
      expect(Number(answers[4]!.headers['retry-after'])).toBeGreaterThan(0);
      expect((await login(t, email, 'a wrong guess', '10.40.0.2')).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('throttles sign-up per address', async () => {
    const t = await createTestApp({ db, env: { SIGNUP_RATE_LIMIT_PER_HOUR: '2' } });
    try {
      expect((await register(t, uniqueEmail(), '10.50.0.1')).statusCode).toBe(201);
      expect((await register(t, uniqueEmail(), '10.50.0.1')).statusCode).toBe(201);
      const third = await register(t, uniqueEmail(), '10.50.0.1');
      expect(third.statusCode).toBe(429);
      expect(third.json().message).toMatch(/^Too many sign-ups from your network\. Try again in \d+ minutes?\.$/);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(3000);
      expect((await register(t, uniqueEmail(), '10.50.0.2')).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});

describe('the password hashing queue', () => {
  // Real OWASP-cost hashing (about 0.3 s each), one at a time with two waiting places.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      db,
      passwordCost: OWASP_SCRYPT,
      env: { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '2' },
    });
  });
  afterAll(() => t.close());

  it('answers sign-ins beyond the queue at once with 429 and Retry-After', async () => {
    const flood = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(t, `nobody${i}@example.com`, 'a wrong guess', `198.18.0.${i + 1}`)),
    );
    // One hashing, two waiting: the rest are refused without being hashed.
    expect(count(flood, 401)).toBe(3);
    expect(count(flood, 429)).toBe(9);
    for (const res of flood.filter((r) => r.statusCode === 429)) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.json().message).toMatch(/^The server is busy with other sign-ins\. Try again in \d+ seconds?\.$/);
    }
  });

  it('lets a real sign-in through promptly while one address floods the sign-in route', async () => {
    const email = uniqueEmail();
    expect((await register(t, email, '198.19.0.1')).statusCode).toBe(201);

    const finished: string[] = [];
    const track = (name: string, pending: Promise<LightMyRequestResponse>) =>
      pending.then((res) => {
        finished.push(`${name}:${res.statusCode}`);
        return res;
      });
    const flood = Array.from({ length: 30 }, (_, i) =>
      track('flood', login(t, `flood${i}@example.com`, 'a wrong guess', '198.18.1.1')),
    );
    const real = track('real', login(t, email, PASSWORD, '198.19.0.2'));
    const [realAnswer, ...floodAnswers] = await Promise.all([real, ...flood]);

    expect(realAnswer!.statusCode).toBe(200);
    // The flooding address holds two places; the rest of its requests are refused at once...
    expect(count(floodAnswers, 401)).toBe(2);
    expect(count(floodAnswers, 429)).toBe(28);
    // ...so the real sign-in waits for at most those two hashes, not for thirty.
    const checkedBeforeReal = finished.slice(0, finished.indexOf('real:200')).filter((f) => f === 'flood:401').length;
    expect(checkedBeforeReal).toBeLessThanOrEqual(2);
  });
});
