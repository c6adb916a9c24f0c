import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migrate } from './migrate';
import { DB_TEMPLATE_FILE, DB_TEMPLATE_STAMP, installedPgliteVersion, openPglite } from './pglite';

const scratch = mkdtempSync(path.join(tmpdir(), 'lectio-db-template-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the embedded database template', () => {
  it('was made with the installed PGlite (run `npm run generate:db-template` after upgrading it)', () => {
    const stamp = JSON.parse(readFileSync(DB_TEMPLATE_STAMP, 'utf8')) as { pglite: string };
    expect(stamp.pglite).toBe(installedPgliteVersion());
  });

  it('gives a new data directory a working database that keeps its rows across restarts', async () => {
    const dir = path.join(scratch, 'fresh');
    const warn = vi.spyOn(console, 'warn');
    const db = await openPglite(dir);
    // Unpacked from the template, not initialised from scratch (which says why it had to).
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    await migrate(db);
    await db.exec(
      `INSERT INTO users (id, email, password_hash) VALUES ('00000000-0000-4000-8000-000000000001', 'reader@example.com', 'x')`,
    );
    await db.close();
    const reopened = await openPglite(dir);
    const { rows } = await reopened.query<{ email: string }>('SELECT email FROM users');
    expect(rows).toEqual([{ email: 'reader@example.com' }]);
    await reopened.close();
    // Unpacked in place of the empty directory: no lock file of the template's maker, nothing left beside it.
    expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
    expect(readdirSync(scratch).filter((name) => name.includes('.unpacking-'))).toEqual([]);
  });

  it('initialises from scratch when the template is damaged, leaving no half-unpacked directory', async () => {
    const template = path.join(scratch, 'damaged.tar.gz');
    const bytes = readFileSync(DB_TEMPLATE_FILE);
    writeFileSync(template, bytes.subarray(0, Math.floor(bytes.length / 2)));
    writeFileSync(path.join(scratch, 'damaged.json'), JSON.stringify({ pglite: installedPgliteVersion() }));
    const dir = path.join(scratch, 'damaged-template');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const db = await openPglite(dir, { template });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/template could not be used/));
    warn.mockRestore();
    await migrate(db);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(rows).toEqual([{ n: 0 }]);
    await db.close();
    expect(readdirSync(scratch).filter((name) => name.includes('.unpacking-'))).toEqual([]);
  }, 120_000);

  it('initialises from scratch when the template was made with another PGlite version', async () => {
    const template = path.join(scratch, 'stale.tar.gz');
    writeFileSync(template, readFileSync(DB_TEMPLATE_FILE));
    writeFileSync(path.join(scratch, 'stale.json'), JSON.stringify({ pglite: '0.0.1' }));
    const dir = path.join(scratch, 'from-scratch');
    const db = await openPglite(dir, { template });
    await migrate(db);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(rows).toEqual([{ n: 0 }]);
    await db.close();
  }, 120_000);
});
