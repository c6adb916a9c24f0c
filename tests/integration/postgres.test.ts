import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { TEST_PASSWORD_COST, testConfig } from '../../server/testing';
import { startPostgres, type TestPostgres } from '../support/postgres';

// DATABASE_URL selects a real PostgreSQL server: the same migrations and the same behaviour as
// the embedded database.
let pg: TestPostgres;
let app: FastifyInstance;

beforeAll(async () => {
  pg = await startPostgres();
  app = await createApp(testConfig({ DATABASE_URL: pg.url }), { passwordCost: TEST_PASSWORD_COST });
});

afterAll(async () => {
  await app?.close();
  pg?.stop();
});

describe('the server on a PostgreSQL server', () => {
  it('migrates, registers, signs in and answers the current user', async () => {
    const credentials = { email: 'pg.reader@example.com', password: 'correct-horse' };
    expect((await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials })).statusCode).toBe(201);
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    expect(login.statusCode).toBe(200);
    const me = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${login.json().access_token}` },
    });
    expect(me.json().email).toBe(credentials.email);
  });

  it('refuses a second account for the same email, as on the embedded database', async () => {
    const credentials = { email: 'PG.Reader@Example.com', password: 'another-passphrase' };
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Email already registered');
  });

  it('applies migrations once even when a second server starts on the same database', async () => {
    const second = await createApp(testConfig({ DATABASE_URL: pg.url }), { passwordCost: TEST_PASSWORD_COST });
    await second.close();
  });
});
