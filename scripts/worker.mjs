#!/usr/bin/env node
// `npm run worker`: a conversion worker without the HTTP API, run like `npm start` runs the API:
// the server compiled to dist-server/ (rebuilt first when a source is newer; SKIP_BUILD=1 skips
// the check), with the same Node flags. Signals are passed on, so SIGTERM drains the worker.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerIfStale, SERVER_ENV, SERVER_NODE_FLAGS, SERVER_OUT } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.env.SKIP_BUILD !== '1' && (await buildServerIfStale())) console.log('Compiled the server (dist-server/).');

const worker = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(SERVER_OUT, 'worker.mjs')], {
  cwd: root,
  env: { ...process.env, ...SERVER_ENV },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => worker.kill(signal));
}
worker.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
