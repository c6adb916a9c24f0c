import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../testing/app';
import { appStorage, seedCompletedBook } from '../testing/library-fixtures';

/**
 * No credential reaches the log, at any level: every route of the contract is called (as its
 * owner, with a password, a bearer token, a feed's token, a link's signature wherever it can
 * carry one), also the failures that log at info (a 416 on a valid feed, a wrong password, a
 * path no route matches), with the log at its most verbose, and the captured lines are searched.
 */
type Schema = Record<string, unknown>;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const contract = parse(readFileSync(path.join(root, 'contracts/openapi.yaml'), 'utf8')) as { paths: Schema };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const PASSWORD = 'Password-That-Must-Stay-Secret-7f3a';
const lines: string[] = [];
let t: TestApp;
const secrets: Record<string, string> = { password: PASSWORD };

beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'trace', WORKERS: 'none' },
    logDestination: { write: (line) => void lines.push(line) },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function call(method: string, url: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: method.toUpperCase() as 'GET',
    url,
    headers: options.headers ?? {},
    ...(options.body !== undefined && { payload: options.body as object }),
  });
}

describe('the log', () => {
  it('never holds a password, a bearer token, a feed token or a signature, whatever route was called', async () => {
    const email = 'secret-keeper@example.com';
    expect((await call('post', '/api/v1/auth/register', { body: { email, password: PASSWORD } })).statusCode).toBe(201);
    await call('post', '/api/v1/auth/login', { body: { email, password: `${PASSWORD}-wrong` } });
    const login = await call('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } });
    const jwt = (login.json() as { access_token: string }).access_token;
    secrets.jwt = jwt;
    const me = (await call('get', '/api/v1/auth/me', { headers: { authorization: `Bearer ${jwt}` } })).json() as {
      id: string;
    };
    const expired = await new SignJWT({ email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(me.id)
      .setIssuedAt(1_000)
      .setExpirationTime(2_000)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    secrets.expired = expired;
    const auth = { authorization: `Bearer ${jwt}`, cookie: `session=${jwt}` };

    const book = await seedCompletedBook(t.db, appStorage(t.config), {
      userId: me.id,
      chapters: 2,
      secondsPerChapter: 2,
    });
    const feed = (await call('post', '/api/v1/feeds', { body: { job_id: book.bookId }, headers: auth })).json() as {
      id: string;
      url: string;
    };
    const feedToken = /\/feeds\/([^/]+)\.xml$/.exec(new URL(feed.url).pathname)?.[1] ?? '';
    expect(feedToken.length).toBeGreaterThan(20);
    secrets.feedToken = feedToken;

    // The feed, each of its links (one asked past its end: 416), and a path under the token no route has.
    const xml = (await call('get', new URL(feed.url).pathname)).body;
    const links = [...xml.matchAll(/(?:url|href)="([^"]+)"/g)].map((m) => new URL(m[1]!.replaceAll('&amp;', '&')));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      // A link's own credential: any long segment that is not a book's id.
      const own = link.pathname.split('/').filter((s) => s.length >= 32 && !/^[0-9a-f-]{36}$/.test(s));
      for (const value of own) secrets[`link ${value}`] = value.replace(/\.\w+$/, '');
      for (const [name, value] of link.searchParams) if (value.length >= 16) secrets[`${name} ${value}`] = value;
      await call('get', `${link.pathname}${link.search}`, { headers: { range: 'bytes=999999999-' } });
      await call('get', `${link.pathname}${link.search}`);
    }
    await call('get', `/feeds/${feedToken}/nothing/here.mp3`);

    // A signed media link, asked for past its end.
    const stream = (await call('get', `/api/v1/audio/${book.bookId}/stream`, { headers: auth })).json() as {
      streaming_url: string;
    };
    const media = new URL(stream.streaming_url, 'http://localhost');
    secrets.sig = media.searchParams.get('sig') ?? '';
    expect(secrets.sig.length).toBeGreaterThan(10);
    await call('get', `${media.pathname}${media.search}`, { headers: { range: 'bytes=999999999-' } });

    // Every route of the contract, as the owner, with credentials wherever they could be carried.
    const values: Record<string, string> = {
      jobId: book.bookId,
      feedId: feed.id,
      token: feedToken,
      chapter: '1',
      format: 'mp3',
      provider: 'openai',
      voiceId: 'alloy',
      fileKey: 'uploads/none.txt',
    };
    let calls = 0;
    for (const [template, item] of Object.entries(contract.paths)) {
      for (const method of METHODS) {
        if ((item as Schema)[method] === undefined) continue;
        const url = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));
        const query = `?sig=${secrets.sig}&token=${jwt}&expires=9999999999&format=mp3`;
        for (const headers of [auth, { authorization: `Bearer ${expired}` }]) {
          const body =
            method === 'get' || method === 'delete'
              ? undefined
              : { email, password: PASSWORD, current_password: PASSWORD, token: jwt, access_token: jwt };
          await call(method, `${url}${query}`, { headers, ...(body !== undefined && { body }) });
          calls += 1;
        }
      }
    }
    expect(calls).toBeGreaterThan(60);

    const log = lines.join('');
    expect(log.length).toBeGreaterThan(10_000);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(log.includes(value), `the log holds the ${name}`).toBe(false);
    }
  }, 120_000);
});
