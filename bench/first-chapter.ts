/**
 * Listen while it converts: `npm run bench -- first-chapter` (node --import tsx bench/first-chapter.ts).
 * The real server as `npm start` runs it (compiled, its own process, embedded database, in-process
 * workers, offline voice) gets a text through the HTTP API; the bench prints the seconds from
 * creating the job to its first playable audio (GET /audio/{id}/metadata answers a chapter with
 * `playable_seconds`: chapter 1's opening, or a whole chapter, and its stream answers), and to
 * chapter 1 being playable whole, with the time each step before
 * synthesis took and the server's peak RSS up to then (with its children: the eSpeak-NG hosts).
 *
 * Cases, each on a server of its own: a 1 MB book in "Chapter N" chapters (target 3 s), a 10 MB
 * series with headings and a 10 MB plain text without any (target 10 s each). BENCH_BOOK_CHARS
 * runs one book of that size instead (BENCH_BOOK_HEADINGS=0: a plain text without headings). Printed, never asserted. The server's memory through a
 * whole conversion is bench/memory.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, BENCH_STORAGE_QUOTA, startOnFreePort, stopServer, untilServing } from './compiled-server';
import { peakRssMb, sampleTree } from './process-tree';
import { bookText } from './book-text';

/** The API's limit on a pasted text, in characters. */
const MAX_CONTENT_CHARS = 10_000_000;

interface Meta {
  status?: string;
  chapters?: { order: number; ready?: boolean; playable_seconds?: number }[];
  chapters_ready?: number;
}

interface Case {
  name: string;
  chars: number;
  headings: boolean;
  targetSeconds: number;
}

const CASES: Case[] =
  process.env.BENCH_BOOK_CHARS !== undefined
    ? [
        {
          name: 'book',
          chars: Math.min(MAX_CONTENT_CHARS, Number(process.env.BENCH_BOOK_CHARS)),
          headings: process.env.BENCH_BOOK_HEADINGS !== '0',
          targetSeconds: Number(process.env.BENCH_BOOK_CHARS) > 2_000_000 ? 10 : 3,
        },
      ]
    : [
        { name: '1 MB book, "Chapter N" headings', chars: 1_000_000, headings: true, targetSeconds: 3 },
        { name: '10 MB series, "Chapter N" headings', chars: MAX_CONTENT_CHARS, headings: true, targetSeconds: 10 },
        { name: '10 MB plain text, no headings', chars: MAX_CONTENT_CHARS, headings: false, targetSeconds: 10 },
      ];

async function runCase(c: Case): Promise<void> {
  const text = bookText(c.chars, c.headings);
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-first-chapter-'));
  // The books' audio is reserved up front: a 10 MB text needs some 7 GB of quota.
  const { server, url } = await startOnFreePort({ DATA_DIR: dir, QUOTA_STORAGE_BYTES: BENCH_STORAGE_QUOTA });

  try {
    await untilServing(url);
    const startPeak = peakRssMb(server.pid!);
    const { call, signUp } = apiClient(url);
    const token = await signUp('bench@example.com', 'bench-password-first-chapter');

    const tree = sampleTree(server.pid!);
    const started = performance.now();
    const created = await call('POST', '/api/v1/jobs', { title: 'Bench Book', content: text }, token);
    const createSeconds = (performance.now() - started) / 1000;
    if (created.status !== 201)
      throw new Error(`job creation answered ${created.status}: ${JSON.stringify(created.body)}`);
    const id = String(created.body.id);
    let firstReady: number | null = null;
    let openingSeconds: number | null = null;
    let chapterOne: number | null = null;
    let chapters = 0;
    for (let poll = 0; ; poll += 1) {
      const meta = await call('GET', `/api/v1/audio/${id}/metadata`, undefined, token);
      const elapsed = (performance.now() - started) / 1000;
      if (meta.status === 200) {
        const body = meta.body as Meta;
        chapters = body.chapters?.length ?? 0;
        const playable = body.chapters?.find((ch) => (ch.playable_seconds ?? 0) > 0);
        if (firstReady === null && ((body.chapters_ready ?? 0) > 0 || playable !== undefined)) {
          // Playable means its stream answers too.
          const stream = await call('GET', `/api/v1/audio/${id}/stream`, undefined, token);
          if (stream.status === 200) {
            firstReady = elapsed;
            if (playable !== undefined && !playable.ready) openingSeconds = playable.playable_seconds!;
          }
        }
        if (chapterOne === null && body.chapters?.find((ch) => ch.order === 1)?.ready) chapterOne = elapsed;
        if (firstReady !== null && chapterOne !== null) break;
      } else if (meta.status !== 409) {
        throw new Error(`metadata answered ${meta.status}: ${JSON.stringify(meta.body)}`);
      } else if (poll % 20 === 0) {
        // Now and then only: a long book's job answers all its chapters (a 10 MB text's are some
        // 230 KB), and asking for it four times a second would slow the server being measured.
        const job = await call('GET', `/api/v1/jobs/${id}`, undefined, token);
        if (job.body.status === 'FAILED' || job.body.status === 'CANCELLED')
          throw new Error(`the book ${String(job.body.status)}: ${String(job.body.error_message)}`);
      }
      if (elapsed > 1800) throw new Error('no chapter was playable after 30 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }
    const job = await call('GET', `/api/v1/jobs/${id}`, undefined, token);
    const steps = (job.body.steps as { step_name: string; duration: number | null }[]) ?? [];
    const treePeak = tree.peakMb();
    tree.stop();
    const met = firstReady! < c.targetSeconds ? 'MET' : 'NOT MET';
    console.log(`\n${c.name}: ${text.length.toLocaleString('en')} characters, ${chapters} chapters`);
    console.log(`  POST /jobs answered after     ${createSeconds.toFixed(1)} s`);
    for (const s of steps.filter((s) => ['acquire_content', 'analyze', 'split_chapters'].includes(s.step_name))) {
      const note =
        s.duration === null ? '(not run yet: it runs once the chapters are done)' : `${s.duration.toFixed(1)} s`;
      console.log(`  ${s.step_name.padEnd(29)} ${note}`);
    }
    const what =
      openingSeconds === null ? 'a whole chapter' : `chapter 1's opening, ${openingSeconds.toFixed(0)} s of speech`;
    console.log(
      `  first playable audio after    ${firstReady!.toFixed(1)} s: ${what} (target under ${c.targetSeconds} s: ${met})`,
    );
    console.log(`  chapter 1 playable whole after ${chapterOne!.toFixed(1)} s`);
    console.log(
      `  peak RSS until then: server ${peakRssMb(server.pid!).toFixed(0)} MB (${startPeak.toFixed(0)} MB when it ` +
        `started), server and its children together ${treePeak.toFixed(0)} MB`,
    );
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const c of CASES) await runCase(c);
