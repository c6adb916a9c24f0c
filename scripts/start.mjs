#!/usr/bin/env node
// `npm start`: build the SPA when dist/ is missing or older than its sources, compile the server
// likewise (dist-server/), then run it: it serves dist/ and the API on one port. `--build-only`
// stops after the builds (the browser tests build once before their files start side by side).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerIfStale, newestMtime, SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distIndex = path.join(root, 'dist', 'index.html');
// Written after a production build by this script: a dist/ without it may be a development build
// (React's dev runtime, three times larger), which must never be served.
const buildStamp = path.join(root, 'dist', '.production-build');

function spaIsStale() {
  if (!existsSync(distIndex) || !existsSync(buildStamp)) return true;
  if (readFileSync(buildStamp, 'utf8').trim() !== 'NODE_ENV=production') return true;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts'].map((p) => newestMtime(path.join(root, p)));
  return Math.max(...sources) > statSync(distIndex).mtimeMs;
}

if (process.env.SKIP_BUILD !== '1' && spaIsStale()) {
  console.log('Building the web app (dist/ is missing or out of date)...');
  const vite = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vite.cmd' : 'vite');
  // Always a production build, also when started from a test runner that sets NODE_ENV=test.
  const build = spawnSync(vite, ['build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) {
    console.error('The web app failed to build; fix the errors above and run npm start again.');
    process.exit(build.status ?? 1);
  }
  writeFileSync(buildStamp, 'NODE_ENV=production\n');
}

if (process.env.SKIP_BUILD !== '1' && (await buildServerIfStale())) console.log('Compiled the server (dist-server/).');
if (process.argv.includes('--build-only')) process.exit(0);

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
  cwd: root,
  env: { ...process.env, ...SERVER_ENV },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
// npm does not pass a SIGTERM sent to it on to this script (its shell dies, this process lives on
// under init): a parent gone is the same request to stop, handed to the server as SIGTERM.
const parent = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphanWatch);
  server.kill('SIGTERM');
}, 500);
orphanWatch.unref();
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
