import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite } from '../db/pglite';
import { createTestApp, TEST_JWT_SECRET } from '../testing/app';
import { runUserCommand } from './user-cli';

const OLD = 'correct horse battery';
const NEW = 'violet lantern orchard';

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) } };
}

describe('npm run user -- reset-password', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectio-user-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET, PUBLIC_URL: 'https://listen.example.org' };

  async function withApp<T>(fn: (t: Awaited<ReturnType<typeof createTestApp>>) => Promise<T>): Promise<T> {
    const db = await openPglite(path.join(dataDir, 'db'));
    const t = await createTestApp({ db });
    try {
      return await fn(t);
    } finally {
      await t.close();
      await db.close();
    }
  }

  it('prints a one-time link at PUBLIC_URL that sets a new password', async () => {
    await withApp(async (t) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { email: 'ann@example.com', password: OLD },
      });
      expect(res.statusCode).toBe(201);
    });

    const run = capture();
    expect(await runUserCommand(['reset-password', ' Ann@Example.com '], env, run.out)).toBe(0);
    expect(run.lines[0]).toBe('A link that sets a new password for ann@example.com (it works once, for 60 minutes):');
    const match = /^https:\/\/listen\.example\.org\/reset-password#token=([A-Za-z0-9_-]+)$/.exec(run.lines[1] ?? '');
    expect(match).not.toBeNull();

    await withApp(async (t) => {
      const confirm = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/password-reset/confirm',
          payload: { token: match![1], password: NEW },
        });
      expect((await confirm()).statusCode).toBe(204);
      expect((await confirm()).statusCode).toBe(422);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'ann@example.com', password: NEW },
      });
      expect(login.statusCode).toBe(200);
    });
  });

  it('says so for an unknown email or a wrong command', async () => {
    const unknown = capture();
    expect(await runUserCommand(['reset-password', 'nobody@example.com'], env, unknown.out)).toBe(1);
    expect(unknown.errors).toEqual(['No account has the email nobody@example.com.']);
    const wrong = capture();
    expect(await runUserCommand(['delete', 'ann@example.com'], env, wrong.out)).toBe(2);
    expect(wrong.errors).toEqual(['Usage: npm run user -- reset-password EMAIL']);
  });
});
