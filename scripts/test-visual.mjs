// `npm run test:visual`: builds the static Storybook, serves it on 127.0.0.1 and screenshots the
// stories listed in tests/visual/stories.json at phone and desktop size in both themes, comparing
// each with its baseline in tests/visual/baselines/ (scripts/visual/review.mjs states the
// tolerance). Differences fail, with before/after/diff images and an index.html written to
// test-results/visual/ (git-ignored; CI keeps it).
//
//   npm run test:visual                  check
//   npm run test:visual -- --update      accept what the stories look like now (rewrites baselines)
//   npm run test:visual -- --no-build    reuse storybook-static as it is (`npm test` builds it once)
//   npm run test:visual -- --only login  only the stories whose id contains "login"
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic, urlOf } from './static-server.mjs';
import { review, TOLERANCE } from './visual/review.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const update = args.includes('--update');
const skipBuild = args.includes('--no-build');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;

const { stories: chosen } = JSON.parse(readFileSync(join(root, 'tests/visual/stories.json'), 'utf8'));
const stories = only ? chosen.filter((id) => id.includes(only)) : chosen;
if (!stories.length) {
  console.error(`No reviewed story matches "${only}". Stories: ${chosen.join(', ')}`);
  process.exit(2);
}

function run(command, commandArgs) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}

if (!skipBuild) {
  const built = await run(join(root, 'node_modules', '.bin', 'storybook'), [
    'build',
    '-o',
    'storybook-static',
    '--quiet',
  ]);
  if (built !== 0) process.exit(built);
}

if (skipBuild && !existsSync(join(root, 'storybook-static', 'index.json'))) {
  console.error('storybook-static/ holds no built Storybook: run `npm run build-storybook` first, or drop --no-build.');
  process.exit(2);
}

const server = await serveStatic(join(root, 'storybook-static'));
const outDir = join(root, 'test-results', 'visual');
let result;
try {
  result = await review({
    baseUrl: urlOf(server),
    stories,
    baselineDir: join(root, 'tests', 'visual', 'baselines'),
    outDir,
    update,
    // --only reviews a few stories: the others' baselines are neither stale nor removed.
    checkStale: !only,
  });
} finally {
  server.close();
}

const { shots, failures, written, seconds } = result;
const tolerance = `pixel colour distance over ${TOLERANCE.threshold}, at most ${TOLERANCE.maxDiffRatio * 100} % of pixels`;
if (update) {
  console.log(`\n${shots} screenshots in ${seconds.toFixed(0)} s; ${written.length} baselines written (${tolerance}).`);
  if (written.length) console.log('Look at them (git diff tests/visual/baselines) and commit them with the change.');
  for (const f of failures) console.log(`  could not take ${f.name}: ${f.reason}`);
  process.exit(failures.length ? 1 : 0);
}
console.log(`\n${shots} screenshots in ${seconds.toFixed(0)} s (${tolerance}).`);
if (failures.length) {
  console.log(`${failures.length} differ from their baselines:`);
  for (const f of failures) console.log(`  ${f.name}: ${f.reason}`);
  console.log(`Before, after and diff images: ${relative(root, outDir)}/index.html`);
  console.log('If the change is meant, accept it with: npm run test:visual -- --update');
  process.exit(1);
}
console.log('Every screenshot matches its baseline.');
