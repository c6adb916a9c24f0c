// @vitest-environment node
/**
 * docs/architecture.md is the map a newcomer reads first: its "Where behaviour lives" table must
 * name only paths that exist, and what it says of the route files must hold.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

/** The rows of the table under the heading `title`: each row's cells. */
function tableRows(markdown: string, title: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${title}`);
  if (start < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('|') || /^\|[\s|:-]+\|$/.test(line)) continue;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows.slice(1); // the header
}

const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|md|ya?ml|json|proto)$/;

/**
 * The paths a cell names, from the repository's root: code spans holding a `/` (a file, a folder
 * ending in `/`, or a glob with `*`), and bare file names (`runner.ts`), which are read in the
 * folder of the path named just before them in the cell (`server/jobs/` (`runner.ts`, ...)).
 */
function pathsIn(cell: string): string[] {
  const found: string[] = [];
  let folder: string | null = null;
  for (const [, span = ''] of cell.matchAll(/`([^`]+)`/g)) {
    if (span.includes('/') && !span.includes(' ')) {
      found.push(span);
      folder = span.endsWith('/') ? span : path.posix.dirname(span) + '/';
    } else if (SOURCE_FILE.test(span) && !span.includes(' ')) {
      found.push(folder === null ? span : folder + span);
    }
  }
  return found;
}

/** Whether a named path (a file, a folder, or a glob) matches tracked files. */
function exists(named: string): boolean {
  if (named.includes('*')) {
    const pattern = new RegExp(
      '^' +
        named
          .split(/(\*\*\/|\*)/)
          .map((part) =>
            part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('') +
        '$',
    );
    return tracked.some((file) => pattern.test(file));
  }
  const folder = named.endsWith('/') ? named : `${named}/`;
  return tracked.some((file) => file === named || file.startsWith(folder));
}

describe('docs/architecture.md', () => {
  const markdown = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const rows = tableRows(markdown, 'Where behaviour lives');

  it('reads the paths of a cell, bare file names in the folder named before them', () => {
    expect(
      pathsIn('`server/jobs/` (`runner.ts`, `steps.ts`; its own README), `Db`, `src/screens/*/*.stories.tsx`'),
    ).toEqual(['server/jobs/', 'server/jobs/runner.ts', 'server/jobs/steps.ts', 'src/screens/*/*.stories.tsx']);
    expect(pathsIn('`server/auth/password-policy.ts` (run by `password-check.ts`)')).toEqual([
      'server/auth/password-policy.ts',
      'server/auth/password-check.ts',
    ]);
    expect(exists('src/api/gen/**/*.msw.ts')).toBe(true);
    expect(exists('server/jobs/no-such-file.ts')).toBe(false);
    expect(exists('server/no-such-folder/')).toBe(false);
  });

  it('has a "Where behaviour lives" table whose every row names where', () => {
    expect(rows.length).toBeGreaterThan(30);
    const nowhere = rows.filter((cells) => pathsIn(cells[1] ?? '').length === 0).map((cells) => cells[0]);
    expect(nowhere).toEqual([]);
  });

  it('names only paths that exist in "Where behaviour lives"', () => {
    const missing = rows.flatMap(([behaviour = '', where = '']) =>
      pathsIn(where)
        .filter((named) => !exists(named))
        .map((named) => `${behaviour}: ${named}`),
    );
    expect(missing).toEqual([]);
  });

  it("gives each of the contract's tags a route file of its name, as the naming rules say", () => {
    const contract = readFileSync(path.join(root, 'contracts/openapi.yaml'), 'utf8');
    const tags = [...contract.matchAll(/^ {2}- name: ([\w-]+)$/gm)].map((m) => m[1]!);
    expect(tags).toEqual(expect.arrayContaining(['jobs', 'audio', 'voice-assistant']));
    expect(tags.filter((tag) => !tracked.includes(`server/routes/${tag}.ts`))).toEqual([]);
  });
});
