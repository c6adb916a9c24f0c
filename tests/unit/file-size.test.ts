// @vitest-environment node
/**
 * No hand-written source file in server/ or src/ is longer than MAX_LINES: a newcomer should never
 * have to read a whole long file to find one concept. A file that grows past it splits by role
 * (see how server/analysis/, server/ingest/fetch-page.ts, server/jobs/runner.ts and
 * server/jobs/repository/ are cut). Generated code
 * (gen/), tests, stories and the test kits (src/testing, server/testing) are not counted.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 500;

/**
 * Files over the limit whose split is under way on a branch of its own, not merged yet. Remove a
 * line when its split lands: the test fails as soon as a file listed here is back under the limit
 * (or gone), so the list cannot outlive the work.
 */
const BEING_SPLIT = new Set<string>([]);

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const NOT_COUNTED = [
  /(^|\/)gen\//,
  /\.test\.[cm]?[jt]sx?$/,
  /\.stories\.[jt]sx?$/,
  /^src\/testing\//,
  /^server\/testing\//,
];

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) found.push(...sourceFiles(rel));
    else if (SOURCE.test(name) && !NOT_COUNTED.some((pattern) => pattern.test(rel))) found.push(rel);
  }
  return found;
}

const lineCount = (file: string) => readFileSync(path.join(root, file), 'utf8').split('\n').length - 1;

describe('source files stay short', () => {
  const files = [...sourceFiles('server'), ...sourceFiles('src')];

  it('counts hand-written code only', () => {
    expect(files).toEqual(expect.arrayContaining(['server/jobs/runner.ts', 'src/main.tsx']));
    expect(files.filter((f) => NOT_COUNTED.some((pattern) => pattern.test(f)))).toEqual([]);
    expect(files.some((f) => f.includes('/gen/'))).toBe(false);
  });

  it(`has no hand-written file in server/ or src/ over ${MAX_LINES} lines`, () => {
    const long = files
      .filter((file) => !BEING_SPLIT.has(file))
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('lists as being split only files that are still over the limit', () => {
    const done = [...BEING_SPLIT].filter((file) => !files.includes(file) || lineCount(file) <= MAX_LINES);
    expect(done, 'these splits have landed: remove them from BEING_SPLIT').toEqual([]);
  });
});
