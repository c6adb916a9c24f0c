/**
 * Runs for hours unattended: `npm run bench -- soak` (node --import tsx bench/soak.ts).
 *
 * 1. Hostile files: while a prober asks GET /healthz every 10 ms, the compiled server (as `npm
 *    start` runs it) is sent an EPUB whose eight chapters each declare 2,000 bytes and hold
 *    BENCH_SOAK_LIE_MB (default 128) MB, a 2,000-page PDF, a 9 MB HTML page and an EPUB of 3 million
 *    characters. Printed: each answer, and the longest time /healthz went unanswered (target
 *    under 200 ms).
 * 2. Soak: BENCH_SOAK_BYTES (default 20,000,000) characters of text converted through the same
 *    server in jobs of 200,000 characters, four queued at a time, each deleted once finished (so
 *    the disk stays flat). Every minute: zombies, processes, open files and resident memory of the
 *    server (targets: flat after warm-up, zombies at most 2) and the longest /healthz stall.
 * Printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { census } from '../server/testing/processes';
import { longPage, makeLongEpub, makeLyingEpub, multipartFile, SAMPLE_CHAPTERS } from '../server/testing/books';
import { makePdf } from '../server/testing/pdf';
import { apiClient, BENCH_STORAGE_QUOTA, startOnFreePort, untilServing } from './compiled-server';
import { sampleText } from './sample-text';

const TOTAL_CHARS = Number(process.env.BENCH_SOAK_BYTES ?? 20_000_000);
const JOB_CHARS = 200_000;
const IN_FLIGHT = 4;
const LIE_MB = Number(process.env.BENCH_SOAK_LIE_MB ?? 128);
const MINUTE_MS = 60_000;

/** Probes /healthz back to back (10 ms apart); remembers the longest wait for an answer. */
function healthProber(url: string) {
  let longest = 0;
  let stopped = false;
  const run = (async () => {
    while (!stopped) {
      const sent = performance.now();
      await fetch(`${url}/healthz`).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
      longest = Math.max(longest, performance.now() - sent);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    /** The longest stall since the last call, in ms. */
    take(): number {
      const value = longest;
      longest = 0;
      return value;
    },
    async stop() {
      stopped = true;
      await run;
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-soak-'));
  const { server, url } = await startOnFreePort({
    DATA_DIR: dir,
    QUOTA_STORAGE_BYTES: BENCH_STORAGE_QUOTA,
    QUOTA_UPLOADS_PER_HOUR: '1000',
  });
  const pid = server.pid!;
  try {
    await untilServing(url);
    const { call, signUp } = apiClient(url);
    const token = await signUp('soak@example.com', 'bench-password-soak-test');

    // 1. Hostile files beside the prober.
    console.log('Hostile files (the prober asks /healthz every 10 ms):');
    const hostile: [string, () => Uint8Array][] = [
      [
        `lying.epub (8 chapters declaring 2,000 bytes, holding ${LIE_MB} MB each)`,
        () => makeLyingEpub(LIE_MB * 1024 * 1024, 2000, 8),
      ],
      [
        'pages.pdf (2,000 pages)',
        () =>
          makePdf({
            title: 'Pages',
            chapters: Array.from({ length: 400 }, (_v, i) => ({
              title: `Part ${i + 1}`,
              paragraphs: SAMPLE_CHAPTERS.flatMap((c) => c.paragraphs).concat(sampleText(1500)),
            })),
          }),
      ],
      ['page.html (9 MB)', () => Buffer.from(longPage(9_000_000))],
      ['long.epub (3 million characters)', () => makeLongEpub(3_000_000)],
    ];
    for (const [name, make] of hostile) {
      const bytes = make();
      const file = name.split(' ')[0]!;
      const body = multipartFile(file, bytes);
      const prober = healthProber(url);
      const started = performance.now();
      // A connection closed under the upload is a finding to print, not a reason to stop the bench.
      const outcome = await fetch(`${url}/api/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...body.headers },
        body: body.payload,
      }).then(
        async (res) => {
          const answer = (await res.json()) as { detail?: string };
          return `${res.status}${answer.detail ? ` "${answer.detail}"` : ''}`;
        },
        (error: unknown) => `no answer (${String((error as Error).cause ?? error)})`,
      );
      const seconds = (performance.now() - started) / 1000;
      await prober.stop();
      console.log(
        `  ${name}, ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB: ${outcome} in ${seconds.toFixed(1)} s; longest /healthz stall ${prober.take().toFixed(0)} ms (target under 200 ms)`,
      );
    }

    // 2. Soak.
    console.log(
      `\nSoak: ${TOTAL_CHARS.toLocaleString('en-US')} characters in jobs of ${JOB_CHARS.toLocaleString('en-US')}:`,
    );
    console.log('  minute  converted  zombies  processes  open files  RSS MB  longest /healthz stall');
    const prober = healthProber(url);
    const began = Date.now();
    let submitted = 0;
    let converted = 0;
    let failed = 0;
    const running = new Set<string>();
    let nextReport = began + MINUTE_MS;
    const report = () => {
      const c = census(pid);
      const minute = Math.round((Date.now() - began) / MINUTE_MS);
      console.log(
        `  ${String(minute).padStart(6)}  ${(converted / 1e6).toFixed(1).padStart(7)} MB  ${String(c.zombies).padStart(7)}  ${String(c.processes).padStart(9)}  ${String(c.openFiles).padStart(10)}  ${(c.rssBytes / 1024 / 1024).toFixed(0).padStart(6)}  ${prober.take().toFixed(0)} ms`,
      );
    };
    while (converted + failed * JOB_CHARS < TOTAL_CHARS) {
      while (running.size < IN_FLIGHT && submitted < TOTAL_CHARS) {
        const text = sampleText(JOB_CHARS);
        const created = await call(
          'POST',
          '/api/v1/jobs',
          { title: `Soak ${submitted / JOB_CHARS + 1}`, content: text },
          token,
        );
        if (created.status !== 201)
          throw new Error(`job creation answered ${created.status}: ${JSON.stringify(created.body)}`);
        running.add(String(created.body.id));
        submitted += JOB_CHARS;
      }
      for (const id of [...running]) {
        const job = await call('GET', `/api/v1/jobs/${id}`, undefined, token);
        const status = String(job.body.status);
        if (status === 'PENDING' || status === 'PROCESSING') continue;
        running.delete(id);
        if (status === 'COMPLETED') converted += JOB_CHARS;
        else {
          failed += 1;
          console.log(`  a job ended ${status}: ${String(job.body.error_message)}`);
        }
        await call('DELETE', `/api/v1/jobs/${id}?delete=true`, undefined, token);
      }
      if (Date.now() >= nextReport) {
        report();
        nextReport += MINUTE_MS;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    report();
    await prober.stop();
    console.log(
      `  done: ${(converted / 1e6).toFixed(1)} MB converted, ${failed} jobs failed, in ${((Date.now() - began) / 60_000).toFixed(1)} minutes`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
