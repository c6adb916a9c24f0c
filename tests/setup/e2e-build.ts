// The browser tests' global setup: builds the web app and the server once, as `npm start` would,
// before the test files start their apps (each start then finds both built, and no test's
// timeout is spent on a build).
import { spawnSync } from 'node:child_process';

export default function buildOnce(): void {
  const built = spawnSync(process.execPath, ['scripts/start.mjs', '--build-only'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`Building the app for the browser tests failed (status ${built.status})`);
}
