// @vitest-environment node
/**
 * One owner per table: production code under server/ may name a table in SQL only inside the
 * table's owner (server/db/migrations/index.ts TABLE_OWNERS), and each table has a repository of
 * its own (a file, or a folder for a table with several roles, like the jobs table). Tests and the
 * test kit may seed rows directly; the migrations declare the schema.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { migrations, TABLE_OWNERS } from '../../server/db/migrations/index';

const root = resolve(__dirname, '../..');

/** Where `source` names `table` in SQL (FROM, JOIN, INTO, UPDATE, TABLE), as 1-based line numbers. */
function sqlMentions(source: string, table: string): number[] {
  const pattern = new RegExp(
    `\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(?:ONLY\\s+|IF\\s+(?:NOT\\s+)?EXISTS\\s+)?${table}\\b(?!\\.)`,
    'g',
  );
  const lines: number[] = [];
  for (const match of source.matchAll(pattern)) lines.push(source.slice(0, match.index).split('\n').length);
  return lines;
}

function productionFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = relative(root, path).split('\\').join('/');
    if (statSync(path).isDirectory()) {
      if (['server/testing', 'server/gen', 'server/db/migrations'].includes(rel)) continue;
      found.push(...productionFiles(path));
    } else if (/\.(ts|mts|mjs)$/.test(name) && !/\.test\.ts$/.test(name) && !name.endsWith('.d.ts')) {
      found.push(rel);
    }
  }
  return found;
}

const owns = (owner: string, file: string) => file === owner || file.startsWith(`${owner}/`);

describe('table owners', () => {
  it('finds a table named in SQL, and only in SQL', () => {
    const source =
      "const a = 1;\nawait db.query('SELECT id FROM jobs WHERE id = $1');\n// jobs are listed\nUPDATE job_steps SET x = 1";
    expect(sqlMentions(source, 'jobs')).toEqual([2]);
    expect(sqlMentions(source, 'job_steps')).toEqual([4]);
    expect(sqlMentions('INSERT INTO users (id) VALUES ($1)', 'users')).toEqual([1]);
    expect(sqlMentions('SELECT * FROM pgboss.job', 'jobs')).toEqual([]);
  });

  it('gives every table of the schema exactly one existing owner', () => {
    const created = migrations.flatMap((m) => [...m.sql.matchAll(/CREATE TABLE (\w+)/g)].map((match) => match[1]!));
    expect(created.length).toBeGreaterThan(0);
    for (const table of created) expect(TABLE_OWNERS, `table ${table} has no owner`).toHaveProperty(table);
    for (const owner of Object.values(TABLE_OWNERS)) {
      expect(existsSync(join(root, owner)) || existsSync(join(root, `${owner}.ts`)), `${owner} does not exist`).toBe(
        true,
      );
    }
  });

  it('gives each table a repository of its own: no two tables share an owner, no owner holds another', () => {
    const owners = Object.values(TABLE_OWNERS);
    expect(new Set(owners).size, 'two tables share an owner').toBe(owners.length);
    const nested = owners.flatMap((outer) =>
      owners.filter((inner) => inner !== outer && owns(outer, inner)).map((inner) => `${inner} is inside ${outer}`),
    );
    expect(nested).toEqual([]);
  });

  it('finds each table in the SQL of its owner', () => {
    const files = productionFiles(join(root, 'server'));
    const unnamed = Object.entries(TABLE_OWNERS)
      .filter(([table, owner]) =>
        files
          .filter((file) => owns(owner, file) || file === `${owner}.ts`)
          .every((file) => sqlMentions(readFileSync(join(root, file), 'utf8'), table).length === 0),
      )
      .map(([table, owner]) => `${owner} never names ${table}`);
    expect(unnamed).toEqual([]);
  });

  it('keeps the SQL of each table inside its owner', () => {
    const files = productionFiles(join(root, 'server'));
    expect(files).toContain('server/jobs/runner.ts');
    const outside: string[] = [];
    for (const file of files) {
      const source = readFileSync(join(root, file), 'utf8');
      for (const [table, owner] of Object.entries(TABLE_OWNERS)) {
        if (owns(owner, file)) continue;
        for (const line of sqlMentions(source, table)) outside.push(`${file}:${line} names ${table} (owner: ${owner})`);
      }
    }
    expect(outside).toEqual([]);
  });
});
