// @vitest-environment node
// The README's test table is the chain `npm test` runs (scripts/test-all.mjs), step for step, and
// CI runs no step twice: what it runs on Node 24 first is what `npm test` then skips.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureLines, steps } from '../../scripts/test-all.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The rows of the README's table of steps: their numbers and the script each runs. */
function readmeSteps(): { number: string; script: string }[] {
  const lines = read('README.md').split('\n');
  const header = lines.findIndex((line) => /^\| Step \| Script \|/.test(line));
  expect(header, 'the README has a table of steps').toBeGreaterThan(0);
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [, number = '', script = ''] = line.split('|').map((cell) => cell.trim());
    rows.push({ number, script: /`npm run ([\w:-]+)/.exec(script)?.[1] ?? script });
  }
  return rows;
}

describe('the test chain', () => {
  it('is the README’s table of steps, in its order', () => {
    const rows = readmeSteps();
    expect(rows.map((row) => row.script)).toEqual(steps.map((step) => step.script));
    expect(rows.map((row) => row.number)).toEqual(steps.map((_, i) => String(i + 1)));
  });

  it('builds Storybook once, for both the stories and the screenshots', () => {
    expect(steps.filter((step) => step.script === 'build-storybook')).toHaveLength(1);
    for (const script of ['test:stories', 'test:visual']) {
      const step = steps.find((s) => s.script === script);
      expect(step?.args).toContain('--no-build');
      expect(step?.needs).toBe('build-storybook');
      const build = steps.findIndex((s) => s.script === 'build-storybook');
      expect(build).toBeLessThan(steps.indexOf(step!));
    }
  });

  it('runs on CI what it runs on Node 24 once: `npm test` skips exactly those steps', () => {
    const ci = read('.ci/run');
    const onNode24 = /^node24_steps="([^"]+)"$/m.exec(ci)?.[1]?.split(' ') ?? [];
    expect(onNode24.length).toBeGreaterThan(0);
    expect(onNode24.filter((script) => !steps.some((step) => step.script === script))).toEqual([]);
    expect(ci).toMatch(/^PATH="\$node24_bin:\$PATH" node scripts\/test-all\.mjs \$node24_steps /m);
    expect(ci).toMatch(/^export TEST_SKIP_STEPS="\$node24_steps"$/m);
    expect(ci.indexOf('export TEST_SKIP_STEPS')).toBeLessThan(ci.search(/^npm test$/m));
  });

  it('names a failed test under the summary, from the lines its runner printed', () => {
    const vitest = [
      ' \x1b[32m✓\x1b[39m  e2e  tests/e2e/auth.e2e.test.ts (7 tests) 18143ms',
      '     \x1b[31m×\x1b[39m keeps its one place across a reload 15212ms',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      ' FAIL   e2e  tests/e2e/listening-loop.e2e.test.ts > keeps its one place across a reload',
      'TimeoutError: locator.waitFor: Timeout 15000ms exceeded.',
      '    at tests/e2e/listening-loop.e2e.test.ts:110:5',
      ' Test Files  1 failed | 9 passed (10)',
    ];
    expect(failureLines(vitest)).toEqual([
      '× keeps its one place across a reload 15212ms',
      'FAIL   e2e  tests/e2e/listening-loop.e2e.test.ts > keeps its one place across a reload',
      'TimeoutError: locator.waitFor: Timeout 15000ms exceeded.',
    ]);
    expect(failureLines(['✓ all good', 'Tests  37 passed (37)'])).toEqual([]);
    // TypeScript's and ESLint's findings too: a typecheck or a lint that failed says where.
    const tsc = "tests/unit/x.test.ts:7:10 - error TS2305: Module has no exported member 'y'.";
    const eslint = '  101:50  error  Unexpected control character(s) in regular expression  no-control-regex';
    expect(failureLines(['', tsc, 'Found 1 error', '/work/main/scripts/x.mjs', eslint])).toEqual([tsc, eslint.trim()]);
  });
});
