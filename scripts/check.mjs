// `npm run check`: the quick loop while working, not a replacement for `npm test`. Two lanes side
// by side, then the tests that import what changed:
//   types        tsc on the SPA and the server, incremental (tsconfig.json's tsBuildInfoFile, in
//                node_modules/.cache/tsc/): only what changed since the last run is checked again
//   lint         ESLint on the whole tree with its cache (node_modules/.cache/eslint/), Prettier on
//                the files changed against HEAD, and the meta tests (docs, README, architecture
//                map, file sizes, import rules)
//   tests        the unit, server and app tests that import, directly or not, a file changed
//                against HEAD (`vitest --changed`: staged or not, untracked included); when more
//                than a few app tests are concerned, they are named and left to `npm test`
// The integration, Pact, Storybook and browser tests are `npm test`'s (or run them by name:
// `node scripts/test-all.mjs integration`). Extra arguments go to `vitest run --changed` as they
// are, e.g. `npm run check -- --project app`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const CACHE = 'node_modules/.cache';
const PROJECTS = ['unit', 'server', 'app'];

/** Files changed against HEAD, committed or not, untracked included; deleted ones left out. */
function changedFiles() {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  const files = [...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')];
  return [...new Set(files)].filter((file) => existsSync(join(root, file)));
}

/** Runs a command; its output is kept and printed when the lane ends, so lanes do not interleave. */
function run(label, command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0' } });
    const chunks = [];
    const stdout = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk) && stdout.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (status) => {
      const output = Buffer.concat(chunks).toString('utf8').trimEnd();
      const seconds = (Date.now() - started) / 1000;
      resolve({ label, ok: status === 0, seconds, output, stdout: Buffer.concat(stdout).toString('utf8') });
    });
  });
}

/** Runs the steps one after the other, every one even when an earlier one failed. */
async function lane(steps) {
  const results = [];
  for (const [label, command, args] of steps) {
    const result = await run(label, command, args);
    if (result.output) console.log(`\n--- ${label} ---\n${result.output}`);
    results.push(result);
  }
  return results;
}

/** More app test files than this are left to `npm test`: booting the app costs seconds per file. */
const MAX_APP_FILES = 6;

/**
 * The tests that import a changed file (`vitest --changed`; a change to package.json or the Vite
 * config makes that every test). The app tests run when a few of them are concerned; a change that
 * reaches many (a module every route imports) names them and leaves them to `npm test` or to
 * `npm run check -- --project app`. Arguments given to the check go to Vitest as they are.
 */
async function changedTests() {
  const vitestArgs = process.argv.slice(2);
  if (vitestArgs.length) {
    const tests = await run('tests of the changed files', bin('vitest'), [
      'run',
      '--changed',
      '--passWithNoTests',
      ...vitestArgs,
    ]);
    console.log(`\n--- ${tests.label} ---\n${tests.output}`);
    return [tests];
  }
  const projects = PROJECTS.flatMap((name) => ['--project', name]);
  const listed = await run('tests of the changed files', bin('vitest'), [
    'list',
    '--changed',
    '--filesOnly',
    '--json',
    '--passWithNoTests',
    ...projects,
  ]);
  if (!listed.ok) {
    console.log(`\n--- ${listed.label} ---\n${listed.output}`);
    return [listed];
  }
  const files = JSON.parse(listed.stdout || '[]').map((test) => ({
    file: relative(root, test.file),
    project: test.projectName,
  }));
  const app = files.filter((test) => test.project === 'app');
  const chosen = app.length > MAX_APP_FILES ? files.filter((test) => test.project !== 'app') : files;
  if (app.length > MAX_APP_FILES)
    console.log(
      `\n${app.length} app test files import what changed: \`npm test\` runs them (or \`npm run check -- --project app\`).`,
    );
  if (!chosen.length) return [];
  const tests = await run('tests of the changed files', bin('vitest'), [
    'run',
    ...[...new Set(chosen.map((test) => test.project))].flatMap((name) => ['--project', name]),
    ...new Set(chosen.map((test) => test.file)),
  ]);
  console.log(`\n--- ${tests.label} (${chosen.length} files) ---\n${tests.output}`);
  return [tests];
}

const changed = changedFiles();
console.log(
  `${changed.length} file(s) changed against HEAD${changed.length ? `: ${changed.slice(0, 8).join(', ')}${changed.length > 8 ? ', ...' : ''}` : ''}`,
);

const results = (
  await Promise.all([
    lane([
      ['typecheck (SPA)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
      ['typecheck (service worker)', bin('tsc'), ['-p', 'src/app/service-worker/tsconfig.json', '--noEmit']],
      ['typecheck (server)', bin('tsc'), ['-p', 'server/tsconfig.json', '--noEmit']],
    ]),
    lane([
      [
        'lint',
        bin('eslint'),
        ['.', '--max-warnings=0', '--cache', '--cache-strategy', 'content', '--cache-location', `${CACHE}/eslint/`],
      ],
      ...(changed.length
        ? [
            [
              'formatting of the changed files',
              bin('prettier'),
              [
                '--check',
                '--ignore-unknown',
                '--log-level=warn',
                '--cache',
                '--cache-location',
                `${CACHE}/prettier/changed.json`,
                ...changed,
              ],
            ],
          ]
        : []),
      ['meta tests', bin('vitest'), ['run', '--project', 'meta']],
    ]),
  ])
).flat();

if (changed.length) results.push(...(await changedTests()));
console.log('\n=== check ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.label}  (${r.seconds.toFixed(1)} s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
