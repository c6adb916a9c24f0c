import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../app';
import { TEST_PASSWORD_COST, testConfig } from '../testing/app';
import { migrate } from './migrate';
import { openPglite } from './pglite';
import { migrations } from './migrations/index';

describe('the embedded database', () => {
  it('keeps accounts in DATA_DIR/db across a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lectio-db-'));
    const config = testConfig({ DATA_DIR: dataDir });
    const credentials = { email: 'kept@example.com', password: 'survives restarts' };

    const first = await createApp(config, { passwordCost: TEST_PASSWORD_COST });
    const registered = await first.inject({ method: 'POST', url: '/api/v1/auth/register', payload: credentials });
    expect(registered.statusCode).toBe(201);
    await first.close();

    const second = await createApp(config, { passwordCost: TEST_PASSWORD_COST });
    const login = await second.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    await second.close();
    expect(login.statusCode).toBe(200);
  });

  it('applies each migration once and rolls back a failing one entirely', async () => {
    const db = await openPglite();
    try {
      const all = migrations.map((m) => m.id);
      expect(await migrate(db)).toEqual(all);
      expect(await migrate(db)).toEqual([]);

      const broken = [{ id: '9999_broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();' }];
      await expect(migrate(db, broken)).rejects.toThrow();
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'half_done'",
      );
      expect(rows[0]?.n).toBe(0);
      const applied = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(applied.rows.map((r) => r.id)).toEqual(all);
    } finally {
      await db.close();
    }
  });
});
