import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingTools, TOOLS } from '../../scripts/test-tools.mjs';

const root = path.resolve(import.meta.dirname, '../..');

describe('the Debian tools of the tests', () => {
  it('installs on a fresh machine (npm test) every package CI installs (.ci/run), and no other', () => {
    const ci = readFileSync(path.join(root, '.ci/run'), 'utf8');
    const fromCi = [...ci.matchAll(/^\s*apt_install ([a-z0-9 -]+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/));
    expect(new Set(TOOLS.flatMap((tool) => (tool.debian ? [tool.debian] : [])))).toEqual(new Set(fromCi));
    // What no apt package brings, CI fetches with the same script npm test uses.
    for (const tool of TOOLS.filter((t) => !t.debian)) expect(tool.fetch, tool.name).toBeTypeOf('function');
    expect(ci).toMatch(/^npm run setup:espeak-ng$/m);
  });

  it('finds the download readers missing when nothing is on PATH, and only for the steps that need them', () => {
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const missing = missingTools(['test:unit']).map((tool) => tool.debian);
      expect(missing).toEqual(expect.arrayContaining(['ffmpeg', 'epubcheck', 'unzip', 'lame', 'espeak-ng']));
      expect(missingTools(['lint'])).toEqual([]);
    } finally {
      process.env.PATH = saved;
    }
  });
});
