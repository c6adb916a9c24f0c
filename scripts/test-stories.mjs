// Builds the static Storybook, serves it on 127.0.0.1 (a free port), runs every story's play
// function and a11y check with @storybook/test-runner in the system Chromium, then stops the
// server and exits with the runner's code. `--no-build` serves storybook-static/ as it is (`npm
// test` builds it once, for this and the screenshots); other arguments go to test-storybook.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic, urlOf } from './static-server.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const staticDir = join(root, 'storybook-static');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(command, args) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}

const skipBuild = process.argv.includes('--no-build');
const extra = process.argv.slice(2).filter((arg) => arg !== '--no-build');

if (!skipBuild) {
  const built = await run(bin('storybook'), ['build', '-o', 'storybook-static', '--quiet']);
  if (built !== 0) process.exit(built);
}

if (skipBuild && !existsSync(join(staticDir, 'index.json'))) {
  console.error('storybook-static/ holds no built Storybook: run `npm run build-storybook` first, or drop --no-build.');
  process.exit(2);
}

const server = await serveStatic(staticDir);
const url = urlOf(server);
console.log(`Serving storybook-static at ${url}`);

// 60 s per story: the flow stories (src/app/Flow.stories.tsx) wait for real polling and playback.
const code = await run(bin('test-storybook'), [
  '--url',
  url,
  '--browsers',
  'chromium',
  '--maxWorkers=2',
  '--testTimeout=60000',
  ...extra,
]);
server.close();
process.exit(code);
