// Every test file gets a temporary directory of its own, removed once the file's tests are done.
// os.tmpdir() reads TMPDIR on each call, so every temporary directory made during the file (by the
// tests, by the code under test, by the servers and tools they start, which inherit the
// environment) lands inside it, and a test run leaves nothing behind in the system's /tmp, even
// when a test fails half-way or forgets its own clean-up.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const previous = process.env.TMPDIR;
const dir = mkdtempSync(path.join(tmpdir(), 'lectio-vitest-'));
// Traversable by other users (not listable): the PostgreSQL tests run the server as `postgres`
// in a directory of their own below this one.
chmodSync(dir, 0o711);
process.env.TMPDIR = dir;

// Registered first, so it runs after the file's own afterAll hooks have closed what they opened.
afterAll(() => {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});
