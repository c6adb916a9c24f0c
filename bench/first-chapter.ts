/**
 * Listen while it converts: `npm run bench -- first-chapter` (node --import tsx bench/first-chapter.ts).
 * The real server as `npm start` runs it (compiled, its own process, embedded database, in-process
 * workers, offline voice) gets a book of BENCH_BOOK_CHARS characters (default 1,000,000: about
 * 40 chapters) through the HTTP API; the bench prints the seconds from creating the job to its
 * first playable chapter (GET /audio/{id}/metadata answers a chapter `ready`, and its stream
 * answers), and to chapter 1 being playable, with the time each step before synthesis took.
 * Target: under 10 s offline. Printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tests/support/ports';
import { startCompiledServer, untilServing } from './compiled-server';
import { SAMPLE_SENTENCES } from './sample-text';

const CHARS = Number(process.env.BENCH_BOOK_CHARS ?? 1_000_000);
const CHAPTER_CHARS = 25_000;
const TARGET_SECONDS = 10;

/** A book of CHARS characters in chapters of about CHAPTER_CHARS, each under a "Chapter N" heading. */
function bookText(chars: number): string {
  const chapters: string[] = [];
  let total = 0;
  for (let n = 1; total < chars; n += 1) {
    let body = '';
    for (let i = n; body.length < Math.min(CHAPTER_CHARS, chars - total); i += 1) {
      body += `${SAMPLE_SENTENCES[i % SAMPLE_SENTENCES.length]} `;
      if (i % 6 === 0) body += '\n\n';
    }
    const chapter = `Chapter ${n}\n\n${body.trim()}`;
    chapters.push(chapter);
    total += chapter.length + 2;
  }
  return chapters.join('\n\n');
}

interface Meta {
  status?: string;
  chapters?: { order: number; ready?: boolean }[];
  chapters_ready?: number;
}

async function main(): Promise<void> {
  const text = bookText(CHARS);
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-first-chapter-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startCompiledServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir });
  try {
    await untilServing(url);
    const call = async (method: string, path: string, body?: object, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        ...(body && { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const credentials = { email: 'bench@example.com', password: 'bench-password-first-chapter' };
    await call('POST', '/api/v1/auth/register', credentials);
    const token = String((await call('POST', '/api/v1/auth/login', credentials)).body.access_token);

    const started = performance.now();
    const created = await call('POST', '/api/v1/jobs', { title: 'Bench Book', content: text }, token);
    if (created.status !== 201)
      throw new Error(`job creation answered ${created.status}: ${JSON.stringify(created.body)}`);
    const id = String(created.body.id);
    let firstReady: number | null = null;
    let chapterOne: number | null = null;
    let chapters = 0;
    for (;;) {
      const meta = await call('GET', `/api/v1/audio/${id}/metadata`, undefined, token);
      const elapsed = (performance.now() - started) / 1000;
      if (meta.status === 200) {
        const body = meta.body as Meta;
        chapters = body.chapters?.length ?? 0;
        if (firstReady === null && (body.chapters_ready ?? 0) > 0) {
          // Playable means its stream answers too.
          const stream = await call('GET', `/api/v1/audio/${id}/stream`, undefined, token);
          if (stream.status === 200) firstReady = elapsed;
        }
        if (chapterOne === null && body.chapters?.find((c) => c.order === 1)?.ready) chapterOne = elapsed;
        if (firstReady !== null && chapterOne !== null) break;
      } else if (meta.status !== 409) {
        throw new Error(`metadata answered ${meta.status}: ${JSON.stringify(meta.body)}`);
      } else {
        const job = await call('GET', `/api/v1/jobs/${id}`, undefined, token);
        if (job.body.status === 'FAILED' || job.body.status === 'CANCELLED')
          throw new Error(`the book ${String(job.body.status)}: ${String(job.body.error_message)}`);
      }
      if (elapsed > 1800) throw new Error('no chapter was playable after 30 minutes');
      await new Promise((r) => setTimeout(r, 200));
    }
    const job = await call('GET', `/api/v1/jobs/${id}`, undefined, token);
    const steps = (job.body.steps as { step_name: string; duration: number | null }[]) ?? [];
    console.log(`book: ${text.length.toLocaleString('en')} characters, ${chapters} chapters`);
    for (const s of steps.filter((s) => ['acquire_content', 'analyze', 'split_chapters'].includes(s.step_name))) {
      console.log(`  ${s.step_name.padEnd(16)} ${(s.duration ?? 0).toFixed(1)} s`);
    }
    console.log(
      `first playable chapter after  ${firstReady!.toFixed(1)} s (target under ${TARGET_SECONDS} s: ${firstReady! < TARGET_SECONDS ? 'MET' : 'NOT MET'})`,
    );
    console.log(`chapter 1 playable after      ${chapterOne!.toFixed(1)} s`);
  } finally {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
