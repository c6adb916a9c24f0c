import pg from 'pg';
import { startPostgres, type TestPostgres } from '../../tests/support/postgres';
import { openDatabase } from './open';
import type { Db } from './types';

// The pool on a PostgreSQL server is as large as DATABASE_POOL_SIZE says: that many statements run
// at once, the next one waits for a connection.
let server: TestPostgres;
let probe: pg.Client;
beforeAll(async () => {
  server = await startPostgres();
  probe = new pg.Client({ connectionString: server.url });
  await probe.connect();
}, 120_000);
afterAll(async () => {
  await probe?.end();
  server?.stop();
});

/** The most statements of `db` seen sleeping in the server at once while `count` are sent together. */
async function atOnce(db: Db, count: number): Promise<number> {
  let most = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await probe.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(0.6)%' AND state = 'active'",
      );
      most = Math.max(most, rows[0]!.n);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  await Promise.all(Array.from({ length: count }, () => db.query('SELECT pg_sleep(0.6) AS slept')));
  sampling = false;
  await sampler;
  return most;
}

describe('the PostgreSQL connection pool', () => {
  it('runs DATABASE_POOL_SIZE statements at once, no more', { timeout: 60_000 }, async () => {
    const db = await openDatabase({ databaseUrl: server.url, dataDir: '/nonexistent', databasePoolSize: 24 });
    try {
      expect(await atOnce(db, 30)).toBe(24);
    } finally {
      await db.close();
    }
  });

  it('holds 20 connections when the size is not given', { timeout: 60_000 }, async () => {
    const db = await openDatabase({ databaseUrl: server.url, dataDir: '/nonexistent' });
    try {
      expect(await atOnce(db, 25)).toBe(20);
    } finally {
      await db.close();
    }
  });
});
