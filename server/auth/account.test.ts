import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { createTestApp, manualClock, type TestApp } from '../testing/app';
import { listFiles, tempStorage } from '../testing/audio';
import { createJob, SHORT_TEXT } from '../testing/jobs';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'violet lantern orchard';

let db: Db;
/** The app of the account's everyday actions (password, sessions, preferences), on the shared database. */
let t: TestApp;
let counter = 0;
const uniqueEmail = () => `account${++counter}@example.com`;

beforeAll(async () => {
  db = await openPglite();
  t = await createTestApp({ db });
});
afterAll(async () => {
  await t.close();
  await db.close();
});

async function register(t: TestApp, email: string, password = PASSWORD) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email, password } });
  expect(res.statusCode).toBe(201);
}

async function login(t: TestApp, email: string, password = PASSWORD) {
  return t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
}

async function session(t: TestApp, email: string, password = PASSWORD): Promise<{ authorization: string }> {
  const res = await login(t, email, password);
  expect(res.statusCode).toBe(200);
  return { authorization: `Bearer ${(res.json() as { access_token: string }).access_token}` };
}

const me = (t: TestApp, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers });

describe('changing the password', () => {
  it('signs out every other session, keeps this one with a new token, and the new password works', async () => {
    const email = uniqueEmail();
    await register(t, email);
    const phone = await session(t, email);
    const laptop = await session(t, email);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      headers: laptop,
      payload: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const fresh = { authorization: `Bearer ${(res.json() as { access_token: string }).access_token}` };
    expect((await me(t, fresh)).statusCode).toBe(200);
    const signedOut = await me(t, phone);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().detail).toBe('This session was signed out');
    expect((await me(t, laptop)).statusCode).toBe(401);
    expect((await login(t, email, PASSWORD)).statusCode).toBe(401);
    expect((await login(t, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a wrong current password and a weak new one with 422, changing nothing', async () => {
    const email = uniqueEmail();
    await register(t, email);
    const headers = await session(t, email);
    const wrong = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      headers,
      payload: { current_password: 'not my password', new_password: NEW_PASSWORD },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail).toBe('Your current password is not right');
    const weak = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      headers,
      payload: { current_password: PASSWORD, new_password: 'password1' },
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().detail).toMatch(/guess/i);
    expect((await me(t, headers)).statusCode).toBe(200);
    expect((await login(t, email, PASSWORD)).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      payload: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('signing out everywhere', () => {
  it('refuses every token of the user, this one included, and leaves other users signed in', async () => {
    const email = uniqueEmail();
    await register(t, email);
    const one = await session(t, email);
    const two = await session(t, email);
    const otherEmail = uniqueEmail();
    await register(t, otherEmail);
    const other = await session(t, otherEmail);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/sessions', headers: one });
    expect(res.statusCode).toBe(204);
    expect((await me(t, one)).statusCode).toBe(401);
    expect((await me(t, two)).statusCode).toBe(401);
    expect((await me(t, other)).statusCode).toBe(200);
    // Signing in again works.
    expect((await me(t, await session(t, email))).statusCode).toBe(200);
  });
});

describe('another server process on the same database', () => {
  it('reads an account once for many requests, and honours a sign-out made elsewhere at once', async () => {
    const elsewhere = await createTestApp({ db, env: { WORKERS: 'none' } });
    try {
      const email = uniqueEmail();
      await register(t, email);
      const headers = await session(t, email);
      expect((await me(elsewhere, headers)).statusCode).toBe(200);
      const reads = vi.spyOn(db, 'query');
      try {
        for (let i = 0; i < 3; i += 1) expect((await me(elsewhere, headers)).statusCode).toBe(200);
        expect(reads.mock.calls.filter(([sql]) => /\bFROM users\b/.test(String(sql)))).toEqual([]);
      } finally {
        reads.mockRestore();
      }
      // Signed out everywhere through the first process: the database announces it to the other.
      expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/sessions', headers })).statusCode).toBe(204);
      await vi.waitFor(async () => expect((await me(elsewhere, headers)).statusCode).toBe(401), { timeout: 2000 });
    } finally {
      await elsewhere.close();
    }
  });
});

describe('preferences', () => {
  it("keeps each reader's default voice, and refuses a voice that is not offered", async () => {
    const email = uniqueEmail();
    await register(t, email);
    const headers = await session(t, email);
    const otherEmail = uniqueEmail();
    await register(t, otherEmail);
    const other = await session(t, otherEmail);
    const initial = await t.app.inject({ method: 'GET', url: '/api/v1/auth/preferences', headers });
    expect(initial.json()).toEqual({ default_voice: null, default_speed: null });
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/preferences',
      headers,
      payload: { default_voice: { provider: 'openai', voice_id: 'nova' } },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ default_voice: { provider: 'openai', voice_id: 'nova' }, default_speed: null });
    const read = await t.app.inject({ method: 'GET', url: '/api/v1/auth/preferences', headers });
    expect(read.json()).toEqual({ default_voice: { provider: 'openai', voice_id: 'nova' }, default_speed: null });
    const others = await t.app.inject({ method: 'GET', url: '/api/v1/auth/preferences', headers: other });
    expect(others.json()).toEqual({ default_voice: null, default_speed: null });

    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/preferences',
      headers,
      payload: { default_voice: { provider: 'offline', voice_id: 'no-such-voice' } },
    });
    expect(unknown.statusCode).toBe(422);
    const badProvider = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/preferences',
      headers,
      payload: { default_voice: { provider: 'gramophone' } },
    });
    expect(badProvider.statusCode).toBe(422);
    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/preferences',
      headers,
      payload: { default_voice: null },
    });
    expect(cleared.json()).toEqual({ default_voice: null, default_speed: null });
  });

  it("keeps each reader's default speed apart from the voice, and refuses a speed the player does not offer", async () => {
    const email = uniqueEmail();
    await register(t, email);
    const headers = await session(t, email);
    const otherEmail = uniqueEmail();
    await register(t, otherEmail);
    const other = await session(t, otherEmail);
    const put = (payload: unknown, as = headers) =>
      t.app.inject({ method: 'PUT', url: '/api/v1/auth/preferences', headers: as, payload: payload as object });
    const get = (as = headers) => t.app.inject({ method: 'GET', url: '/api/v1/auth/preferences', headers: as });

    await put({ default_voice: { provider: 'openai', voice_id: 'nova' } }, other);
    const voice = await put({ default_voice: { provider: 'openai', voice_id: 'shimmer' } });
    expect(voice.statusCode).toBe(200);

    // Only the speed is sent: the saved voice stays.
    const saved = await put({ default_speed: 1.5 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ default_voice: { provider: 'openai', voice_id: 'shimmer' }, default_speed: 1.5 });
    expect((await get()).json()).toEqual({
      default_voice: { provider: 'openai', voice_id: 'shimmer' },
      default_speed: 1.5,
    });
    expect((await get(other)).json()).toEqual({
      default_voice: { provider: 'openai', voice_id: 'nova' },
      default_speed: null,
    });

    // Only the voice is sent (as the voice picker does): the saved speed stays.
    const voiceOnly = await put({ default_voice: null });
    expect(voiceOnly.json()).toEqual({ default_voice: null, default_speed: 1.5 });
    const slow = await put({ default_speed: 0.75 });
    expect(slow.json()).toEqual({ default_voice: null, default_speed: 0.75 });

    for (const bad of [3, 1.1, 0, '1.5', true]) {
      const refused = await put({ default_speed: bad });
      expect(refused.statusCode, String(bad)).toBe(422);
      expect(refused.json().detail).toBe('Default speed must be one of 0.75, 1, 1.25, 1.5, 1.75, 2, null');
    }
    expect((await get()).json()).toEqual({ default_voice: null, default_speed: 0.75 });

    const cleared = await put({ default_speed: null });
    expect(cleared.json()).toEqual({ default_voice: null, default_speed: null });
    expect((await get()).json()).toEqual({ default_voice: null, default_speed: null });
    expect((await get(other)).json()).toEqual({
      default_voice: { provider: 'openai', voice_id: 'nova' },
      default_speed: null,
    });
  });
});

describe('deleting the account', () => {
  it("removes the reader's rows and stored files, and nothing of another reader's", async () => {
    const { root, storage, cleanup } = await tempStorage();
    const t = await createTestApp({ env: { WORKERS: 'none' }, storage });
    try {
      const email = uniqueEmail();
      await register(t, email);
      const headers = await session(t, email);
      const otherEmail = uniqueEmail();
      await register(t, otherEmail);
      const other = await session(t, otherEmail);

      const stocked: Record<string, string> = {};
      for (const [name, who] of [
        ['leaving', headers],
        ['staying', other],
      ] as const) {
        const job = await createJob(t, who, { title: `${name} book`, content: SHORT_TEXT });
        expect(job.statusCode).toBe(201);
        const id = (job.json() as { id: string }).id;
        stocked[name] = id;
        // What a finished book keeps beside its text: audio, its timing map, a cover and a download.
        for (const file of ['audio.mp3', 'audio.mp3.timing.json', 'cover.jpg', 'exports/m4b-1.m4b']) {
          await storage.write(`jobs/${id}/${file}`, new TextEncoder().encode(file));
        }
        const boundary = 'lectio-account-test';
        const upload = await t.app.inject({
          method: 'POST',
          url: '/api/v1/files',
          headers: { ...who, 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload: Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.txt"\r\nContent-Type: text/plain\r\n\r\n${SHORT_TEXT}\r\n--${boundary}--\r\n`,
          ),
        });
        expect(upload.statusCode).toBe(201);
        await t.app.inject({
          method: 'PUT',
          url: '/api/v1/pronunciations',
          headers: who,
          payload: [{ text: 'Lectio', say_as: 'lek-tee-oh' }],
        });
      }
      const filesBefore = await listFiles(root);
      expect(filesBefore.some((f) => f.includes(stocked.leaving!))).toBe(true);

      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/account/delete',
        headers,
        payload: { email: otherEmail },
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().detail).toBe("That is not this account's email. Type it exactly to delete the account.");
      expect((await me(t, headers)).statusCode).toBe(200);

      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/account/delete',
        headers,
        payload: { email: ` ${email.toUpperCase()} ` },
      });
      expect(res.statusCode).toBe(204);

      // Signed out, unable to sign in, and nothing of theirs left in any table or in storage.
      expect((await me(t, headers)).statusCode).toBe(401);
      expect((await login(t, email)).statusCode).toBe(401);
      const { rows: tables } = await t.db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.columns WHERE column_name = 'user_id' AND table_schema = current_schema()",
      );
      expect(tables.length).toBeGreaterThan(5);
      const { rows: users } = await t.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [otherEmail]);
      const otherId = users[0]!.id;
      for (const { table_name } of tables) {
        const { rows } = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${table_name}" WHERE user_id <> $1`,
          [otherId],
        );
        expect({ table_name, left: rows[0]!.n }).toEqual({ table_name, left: 0 });
      }
      const filesAfter = await listFiles(root);
      expect(filesAfter.filter((f) => f.includes(stocked.leaving!))).toEqual([]);
      // Exactly the other reader's files are left: their book's five and their upload's text.
      expect(filesAfter.filter((f) => f.includes(stocked.staying!))).toHaveLength(5);
      expect(filesAfter.filter((f) => f.includes('uploads/'))).toHaveLength(1);

      // The other reader still has their book and their pronunciation.
      const theirs = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${stocked.staying}`, headers: other });
      expect(theirs.statusCode).toBe(200);
      const words = await t.app.inject({ method: 'GET', url: '/api/v1/pronunciations', headers: other });
      expect(words.json()).toEqual([{ text: 'Lectio', say_as: 'lek-tee-oh' }]);
    } finally {
      await t.close();
      await cleanup();
    }
  });
});

interface Mail {
  to: string;
  body: string;
}

/** A local SMTP server that keeps what it receives. */
async function startMailServer(): Promise<{ port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, smtpSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        // The body may be quoted-printable: undo its soft line breaks and escapes.
        const body = raw
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        mails.push({ to: smtpSession.envelope.rcptTo.map((r) => r.address).join(','), body });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function until<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('forgot password, by email', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  const clock = manualClock(new Date());
  beforeAll(async () => {
    smtp = await startMailServer();
    t = await createTestApp({
      db,
      now: clock.now,
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Lectio <lectio@example.org>',
        PUBLIC_URL: 'https://listen.example.org',
        PASSWORD_RESETS_PER_HOUR: '2',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const ask = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset', payload: { email } });
  const confirm = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset/confirm', payload: { token, password } });
  const linkIn = (mail: Mail) => {
    const match = /https:\/\/listen\.example\.org\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.body);
    expect(match).not.toBeNull();
    return match![1]!;
  };

  it('emails a one-time link that sets a new password and signs every session out', async () => {
    const email = uniqueEmail();
    await register(t, email);
    const before = await session(t, email);
    const env = await t.app.inject({ method: 'GET', url: '/api/v1/environment' });
    expect(env.json().features.password_reset_email).toBe(true);

    const res = await ask(`  ${email.toUpperCase()} `);
    expect(res.statusCode).toBe(202);
    const mail = await until(() => smtp.mails.find((m) => m.to === email));
    expect(mail.body).toContain('Set a new Lectio password');
    const token = linkIn(mail);

    const weak = await confirm(token, 'password1');
    expect(weak.statusCode).toBe(422);
    expect((await confirm(token, NEW_PASSWORD)).statusCode).toBe(204);
    expect((await me(t, before)).statusCode).toBe(401);
    expect((await login(t, email, PASSWORD)).statusCode).toBe(401);
    expect((await login(t, email, NEW_PASSWORD)).statusCode).toBe(200);

    const again = await confirm(token, 'another fine password 42');
    expect(again.statusCode).toBe(422);
    expect(again.json().detail).toBe('This reset link has expired or was already used. Ask for a new one.');
    expect((await login(t, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const sent = smtp.mails.length;
    const res = await ask('nobody-here@example.com');
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.length).toBe(sent);
  });

  it('refuses a link after it expires', async () => {
    const email = uniqueEmail();
    await register(t, email);
    await ask(email);
    const token = linkIn(await until(() => smtp.mails.find((m) => m.to === email)));
    clock.advance(3601);
    const res = await confirm(token, NEW_PASSWORD);
    expect(res.statusCode).toBe(422);
    expect((await login(t, email, PASSWORD)).statusCode).toBe(200);
  });

  it('sends at most PASSWORD_RESETS_PER_HOUR emails to one address, answering alike', async () => {
    const email = uniqueEmail();
    await register(t, email);
    for (let i = 0; i < 4; i += 1) expect((await ask(email)).statusCode).toBe(202);
    await until(() => (smtp.mails.filter((m) => m.to === email).length >= 2 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.filter((m) => m.to === email)).toHaveLength(2);
  });

  it('refuses a malformed request with 4xx', async () => {
    expect((await ask('not an email')).statusCode).toBe(422);
    expect((await confirm('', NEW_PASSWORD)).statusCode).toBe(422);
    expect((await confirm('made-up-token', NEW_PASSWORD)).statusCode).toBe(422);
  });
});

describe('forgot password, without email', () => {
  it('tells the reader to ask the operator, and the environment says so', async () => {
    const t = await createTestApp({ db, env: { TERMS_URL: 'https://example.org/terms' } });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset',
        payload: { email: 'someone@example.com' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(
        'This server does not send email. Ask its operator for a link to set a new password.',
      );
      const env = (await t.app.inject({ method: 'GET', url: '/api/v1/environment' })).json();
      expect(env.features.password_reset_email).toBe(false);
      expect(env.legal).toEqual({ terms_url: 'https://example.org/terms' });
    } finally {
      await t.close();
    }
  });
});
