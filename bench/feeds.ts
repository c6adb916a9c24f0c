/**
 * Podcast feed bench: `npm run bench -- feeds` (node --import tsx bench/feeds.ts).
 *
 * A finished book of 200 chapters (with its drawn cover) has a private feed; podcast apps fetch
 * it 1, 5 and 20 at a time while this process asks the server's GET /healthz every 10 ms. It prints
 * the longest /healthz answer during each round (how long the server's event loop was held;
 * target: under 100 ms with 20 fetches at once) and the feed fetches' median and slowest times:
 * first on a server that has never built the feed (the cold round builds each chapter's tag once,
 * yielding between them), then with the feed kept. The server is the compiled one `npm start`
 * runs, in its own process (APP_ENV=production, WORKERS=none), on an embedded database seeded
 * before it starts. Figures are printed, never asserted. BENCH_FEED_CHAPTERS sets the chapters.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPasswordHasher } from '../server/auth/passwords';
import { migrate } from '../server/db/migrate';
import { openPglite } from '../server/db/pglite';
import { LocalFileStorage } from '../server/storage/local';
import { seedCompletedBook } from '../server/testing/library-fixtures';
import { apiClient, startOnFreePort, stopServer, untilServing } from './compiled-server';

const CHAPTERS = Number(process.env.BENCH_FEED_CHAPTERS ?? 200);
const ROUNDS_WARM = 5;
const EMAIL = 'feeds.bench@example.com';
const PASSWORD = 'bench password for the feeds';

async function seed(dataDir: string): Promise<void> {
  const db = await openPglite(join(dataDir, 'db'));
  try {
    await migrate(db);
    const userId = randomUUID();
    const hash = await createPasswordHasher().hash(PASSWORD);
    await db.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)', [userId, EMAIL, hash]);
    const storage = new LocalFileStorage(join(dataDir, 'files'));
    await seedCompletedBook(db, storage, {
      userId,
      title: 'The Long Bench',
      chapters: CHAPTERS,
      secondsPerChapter: 2,
    });
  } finally {
    await db.close();
  }
}

/** Asks /healthz every 10 ms until `done` settles; answers the slowest answer's milliseconds. */
async function longestHealthz(base: string, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => (finished = true));
  let longest = 0;
  while (!finished) {
    const started = performance.now();
    await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
    longest = Math.max(longest, performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
  return longest;
}

async function round(base: string, feedPath: string, clients: number) {
  const times: number[] = [];
  const fetches = Promise.all(
    Array.from({ length: clients }, async () => {
      const started = performance.now();
      const res = await fetch(`${base}${feedPath}`);
      const body = await res.text();
      if (res.status !== 200 || !body.includes('<enclosure')) throw new Error(`feed answered ${res.status}`);
      times.push(performance.now() - started);
    }),
  );
  const stall = await longestHealthz(base, fetches);
  await fetches;
  times.sort((a, b) => a - b);
  return { stall, median: times[Math.floor(times.length / 2)] ?? 0, max: times.at(-1) ?? 0 };
}

const ms = (n: number) => `${n.toFixed(0).padStart(5)} ms`;

const dataDir = mkdtempSync(join(tmpdir(), 'lectio-bench-feeds-'));
try {
  await seed(dataDir);
  const { server, url: base } = await startOnFreePort({ APP_ENV: 'production', WORKERS: 'none', DATA_DIR: dataDir });
  try {
    await untilServing(base);
    const token = await apiClient(base).signIn(EMAIL, PASSWORD);
    const created = await fetch(`${base}/api/v1/feeds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    const feedPath = new URL(((await created.json()) as { url: string }).url).pathname;

    console.log(`A book of ${CHAPTERS} chapters in a library feed; server: dist-server (APP_ENV=production)`);
    const cold = await round(base, feedPath, 20);
    console.log(
      `  20 at once, never built: longest /healthz ${ms(cold.stall)}   feed median ${ms(cold.median)}, slowest ${ms(cold.max)}`,
    );
    for (const clients of [1, 5, 20]) {
      let worst = { stall: 0, median: 0, max: 0 };
      for (let i = 0; i < ROUNDS_WARM; i += 1) {
        const r = await round(base, feedPath, clients);
        worst = {
          stall: Math.max(worst.stall, r.stall),
          median: Math.max(worst.median, r.median),
          max: Math.max(worst.max, r.max),
        };
      }
      console.log(
        `  ${String(clients).padStart(2)} at once, kept (worst of ${ROUNDS_WARM}): longest /healthz ${ms(worst.stall)}   feed median ${ms(worst.median)}, slowest ${ms(worst.max)}`,
      );
    }
    console.log('  => target: the longest /healthz under 100 ms with 20 fetches at once');
  } finally {
    await stopServer(server);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
