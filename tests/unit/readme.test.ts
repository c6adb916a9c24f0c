// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withConfigTable } from '../../scripts/readme-config';

describe('README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('documents every environment variable the server reads (run scripts/readme-config.ts to update)', () => {
    expect(readme).toBe(withConfigTable(readme));
  });

  it('gives the two commands, and CI runs the test one', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/^npm test$/m);
  });

  it('names only scripts package.json has, and `npm run typecheck` covers the SPA and the server', () => {
    const scripts: Record<string, string> = JSON.parse(readFileSync('package.json', 'utf8')).scripts;
    const named = [...readme.matchAll(/`npm run ([\w:-]+)/g)].map((match) => match[1] ?? '');
    expect(named).toEqual(expect.arrayContaining(['lint', 'typecheck', 'check:deps', 'test:unit']));
    expect(named.filter((name) => !(name in scripts))).toEqual([]);
    const expand = (name: string): string =>
      (scripts[name] ?? '').replace(/npm run -s ([\w:-]+)/g, (_, inner: string) => expand(inner));
    expect(expand('typecheck')).toMatch(/tsc -p tsconfig\.json/);
    expect(expand('typecheck')).toMatch(/tsc -p server\/tsconfig\.json/);
  });
});
