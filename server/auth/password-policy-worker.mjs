// Rates new passwords in a thread of its own (plain ESM so it starts under node, tsx and vitest
// alike): zxcvbn's dictionaries cost about 60 MB with this thread, so they live here, and the thread
// ends after a quiet spell (server/auth/password-check.ts) instead of keeping them in the server.
// Messages in: { id, password, email }; out: { id, reason } or { id, error }.
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('password-policy-worker.mjs must run as a worker thread');
const port = parentPort;
const { moduleUrl } = workerData;
if (moduleUrl.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { weakPasswordReason } = await import(moduleUrl);
port.on('message', ({ id, password, email }) => {
  try {
    port.postMessage({ id, reason: weakPasswordReason(password, email) });
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
