import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Db } from '../db/types';
import { openPglite } from '../db/pglite';
import { createTestApp, TEST_JWT_SECRET, type TestApp, manualClock } from '../testing/app';

let db: Db;
let counter = 0;
const uniqueEmail = () => `reader${++counter}@example.com`;

beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db.close();
});

async function register(t: TestApp, email: string, password = 'correct horse') {
  return t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email, password } });
}

async function login(t: TestApp, email: string, password = 'correct horse', remoteAddress = '10.0.0.1') {
  return t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress });
}

async function me(t: TestApp, token?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/v1/auth/me',
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
}

describe('register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  it('creates an account and answers the user without a token', async () => {
    const res = await register(t, '  New.Reader@Example.COM ');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(String), email: 'new.reader@example.com', created_at: expect.any(String) });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body).not.toHaveProperty('access_token');
  });

  it('refuses a second account for the same email, whatever its case', async () => {
    const email = uniqueEmail();
    expect((await register(t, email)).statusCode).toBe(201);
    const res = await register(t, email.toUpperCase());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'Email already registered',
      message: 'Email already registered',
      request_id: expect.any(String),
    });
  });

  it('names the invalid field when the email is not an address', async () => {
    const res = await register(t, 'not-an-email');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: 'Invalid email address',
      message: 'Invalid email address',
      errors: [{ field: 'email', message: 'Invalid email address' }],
      request_id: expect.any(String),
    });
  });

  it('refuses a password shorter than 8 characters', async () => {
    const res = await register(t, uniqueEmail(), 'Xk#9vQ2');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'password', message: 'Password must be at least 8 characters' }]);
    expect(res.json().message).toBe('Password must be at least 8 characters');
  });

  it('refuses common and easily guessed passwords, saying why, and creates no account', async () => {
    const cases: [email: string, password: string, reason: RegExp][] = [
      [uniqueEmail(), 'password', /heavily used password/],
      [uniqueEmail(), 'password1', /commonly used password/],
      [uniqueEmail(), 'qwertyuiop', /frequently used password|keyboard|easy to guess/i],
      [uniqueEmail(), '12345678', /heavily used password/],
      [uniqueEmail(), 'Summer2024', /easy to guess/],
      ['margaret.hill@example.com', 'margaret.hill', /personal/],
    ];
    for (const [email, password, reason] of cases) {
      const res = await register(t, email, password);
      expect(res.statusCode, password).toBe(422);
      expect(res.json().message).toMatch(/^This password is too easy to guess\. /);
      expect(res.json().message).toMatch(reason);
      expect(res.json().detail).toBe(res.json().message);
      // The account was not created: the same email registers with a good password.
      expect((await register(t, email, 'correct horse battery')).statusCode).toBe(201);
    }
  });

  it('accepts long passphrases and random passwords, up to the longest the contract allows', async () => {
    const longest = randomBytes(768).toString('base64');
    for (const password of ['correct horse battery staple', 'Tr0ub4dor&3x', 'vq8-Lm2#pZ0r', longest]) {
      expect((await register(t, uniqueEmail(), password)).statusCode, password).toBe(201);
    }
  });

  it('says which fields are missing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });

  it('stores an scrypt hash, never the password', async () => {
    const email = uniqueEmail();
    await register(t, email, 'my secret password');
    const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [
      email,
    ]);
    const hash = rows[0]?.password_hash ?? '';
    expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('my secret password');
  });
});

describe('sign-up availability', () => {
  it('is refused in production by default', async () => {
    const t = await createTestApp({ db, env: { APP_ENV: 'production' } });
    const res = await register(t, uniqueEmail());
    await t.close();
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/^Sign-up is disabled on this server/);
    expect(res.json().detail).toBe(res.json().message);
  });

  it('is allowed in production when SIGNUP_ENABLED=true', async () => {
    const t = await createTestApp({ db, env: { APP_ENV: 'production', SIGNUP_ENABLED: 'true' } });
    const res = await register(t, uniqueEmail());
    await t.close();
    expect(res.statusCode).toBe(201);
  });
});

describe('login and the current user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  it('answers a bearer token that opens /auth/me', async () => {
    const email = uniqueEmail();
    const created = (await register(t, email)).json();
    const res = await login(t, `  ${email.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 28_800 });

    const current = await me(t, body.access_token);
    expect(current.statusCode).toBe(200);
    // The account's own fields, and how much of its storage it uses (nothing yet).
    expect(current.json()).toEqual({ ...created, storage: { used_bytes: 0, quota_bytes: expect.any(Number) } });
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const email = uniqueEmail();
    await register(t, email);
    const wrong = await login(t, email, 'not the password');
    const unknown = await login(t, uniqueEmail());
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        detail: 'Incorrect email or password',
        message: 'Incorrect email or password',
        request_id: expect.any(String),
      });
    }
  });

  it('validates the login body against the contract', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'x@example.com' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'password', message: 'Password is required' }]);
  });
});

describe('tokens that do not open /auth/me', () => {
  const clock = manualClock();
  let t: TestApp;
  let userId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ db, now: clock.now, env: { TOKEN_TTL_SECONDS: '3600' } });
    const email = uniqueEmail();
    userId = (await register(t, email)).json().id;
    token = (await login(t, email)).json().access_token;
  });
  afterAll(() => t.close());

  function expectRejected(res: Awaited<ReturnType<typeof me>>, detail: string) {
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({ detail, message: detail, request_id: expect.any(String) });
  }

  it('needs a token', async () => {
    expectRejected(await me(t), 'Not authenticated');
  });

  it('rejects garbage and a header without the Bearer scheme', async () => {
    expectRejected(await me(t, 'garbage'), 'Invalid token');
    const basic = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { authorization: `Basic ${token}` },
    });
    expect(basic.statusCode).toBe(401);
    expect(basic.json().detail).toMatch(/^Invalid token/);
  });

  it('rejects an unsigned (alg none) token', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const iat = Math.floor(clock.now().getTime() / 1000);
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: userId, iss: 'lectio', iat, exp: iat + 600 })}.`;
    expectRejected(await me(t, unsigned), 'Invalid token');
  });

  it('rejects a token signed with another secret', async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer('lectio')
      .setIssuedAt(clock.now())
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(`${TEST_JWT_SECRET}-but-different`));
    expectRejected(await me(t, forged), 'Invalid token');
  });

  it('accepts the token until it expires, then says it expired', async () => {
    expect((await me(t, token)).statusCode).toBe(200);
    clock.advance(3601);
    expectRejected(await me(t, token), 'Token expired');
  });

  it('rejects the token of a deleted account', async () => {
    const email = uniqueEmail();
    await register(t, email);
    const fresh = (await login(t, email)).json().access_token;
    await db.query('DELETE FROM users WHERE email = $1', [email]);
    const res = await me(t, fresh);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });
});

describe('login throttling', () => {
  const clock = manualClock();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db, now: clock.now, env: { LOGIN_MAX_ATTEMPTS: '3', LOGIN_WINDOW_SECONDS: '900' } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After after too many failures, even for the right password, until the window ends', async () => {
    const email = uniqueEmail();
    await register(t, email);
    for (let i = 0; i < 3; i++) expect((await login(t, email, 'wrong password')).statusCode).toBe(401);

    const blocked = await login(t, email);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('900');
    expect(blocked.json()).toEqual({
      detail: 'Too many sign-in attempts. Try again in 15 minutes.',
      message: 'Too many sign-in attempts. Try again in 15 minutes.',
      request_id: expect.any(String),
    });

    clock.advance(60 * 14 + 30);
    const later = await login(t, email);
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('30');
    expect(later.json().message).toBe('Too many sign-in attempts. Try again in 30 seconds.');

    clock.advance(30);
    expect((await login(t, email)).statusCode).toBe(200);
  });

  it('forgets an email’s failures after a successful login', async () => {
    const email = uniqueEmail();
    await register(t, email);
    for (let i = 0; i < 2; i++) await login(t, email, 'wrong password', '10.0.0.2');
    expect((await login(t, email, 'correct horse', '10.0.0.2')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect((await login(t, email, 'wrong password', '10.0.0.2')).statusCode).toBe(401);
    }
    expect((await login(t, email, 'correct horse', '10.0.0.2')).statusCode).toBe(200);
  });

  it('blocks one client IP that tries many accounts, but not other clients', async () => {
    // The per-IP limit is four times the per-email one (3 here).
    for (let i = 0; i < 12; i++) {
      expect((await login(t, uniqueEmail(), 'wrong password', '10.9.9.9')).statusCode).toBe(401);
    }
    const email = uniqueEmail();
    await register(t, email);
    expect((await login(t, email, 'correct horse', '10.9.9.9')).statusCode).toBe(429);
    expect((await login(t, email, 'correct horse', '10.1.1.1')).statusCode).toBe(200);
  });
});

describe('sessions across restarts', () => {
  it('keeps a token valid when the server restarts with its generated secret', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lectio-restart-'));
    const env = { DATA_DIR: dataDir, JWT_SECRET: '' };

    const first = await createTestApp({ db, env });
    const email = uniqueEmail();
    await register(first, email);
    const token = (await login(first, email)).json().access_token;
    await first.close();

    const second = await createTestApp({ db, env });
    const res = await me(second, token);
    await second.close();
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(email);
  });
});
