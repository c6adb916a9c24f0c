/**
 * Downloads: `npm run bench -- exports` (node --import tsx bench/exports.ts). The real server as
 * `npm start` runs it (compiled, embedded database, in-process workers, offline voice) converts a
 * book of BENCH_BOOK_CHARS characters (default 1,000,000: the 1 MB book, about 40 chapters), then
 * builds each download format in turn; the bench prints the seconds from asking for a format to
 * its file being ready, and the file's size. The M4B (the one format that re-encodes) is timed with
 * the ffmpeg on PATH when there is one and again with the static build of the npm package.
 * Printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../server/executables';
import { BENCH_STORAGE_QUOTA, startOnFreePort, untilServing } from './compiled-server';
import { SAMPLE_SENTENCES } from './sample-text';

const CHARS = Number(process.env.BENCH_BOOK_CHARS ?? 1_000_000);
const CHAPTER_CHARS = 25_000;
const FORMATS = ['mp3', 'zip', 'm4b', 'epub'] as const;

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

interface Client {
  call(method: string, path: string, body?: object): Promise<{ status: number; body: Record<string, unknown> }>;
  head(path: string): Promise<{ status: number; size: number }>;
}

function client(url: string, token: string): Client {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  return {
    async call(method, path, body) {
      const res = await fetch(`${url}${path}`, { method, headers, ...(body && { body: JSON.stringify(body) }) });
      const text = await res.text();
      return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
    },
    async head(path) {
      // A one-byte range: the status says ready, Content-Range the size, without downloading it.
      const res = await fetch(`${url}${path}`, { headers: { ...headers, range: 'bytes=0-0' } });
      await res.arrayBuffer();
      const size = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1] ?? 0);
      return { status: res.status, size };
    },
  };
}

async function timeFormat(api: Client, id: string, format: string): Promise<{ seconds: number; size: number }> {
  const started = performance.now();
  for (;;) {
    const res = await api.head(`/api/v1/audio/${id}/download?format=${format}`);
    if (res.status === 206 || res.status === 200)
      return { seconds: (performance.now() - started) / 1000, size: res.size };
    if (res.status !== 202) throw new Error(`${format} answered ${res.status}`);
    const list = await api.call('GET', `/api/v1/audio/${id}/exports`);
    const entry = (list.body.exports as { format: string; status: string; error_message: string | null }[]).find(
      (e) => e.format === format,
    );
    if (entry?.status === 'failed') throw new Error(`${format} failed: ${entry.error_message}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function withServer<T>(dir: string, env: Record<string, string>, fn: (url: string) => Promise<T>): Promise<T> {
  const { server, url } = await startOnFreePort({ DATA_DIR: dir, QUOTA_STORAGE_BYTES: BENCH_STORAGE_QUOTA, ...env });
  try {
    await untilServing(url);
    return await fn(url);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

async function main(): Promise<void> {
  const text = bookText(CHARS);
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-exports-'));
  const credentials = { email: 'bench@example.com', password: 'bench-password-exports' };
  const native = findExecutable('ffmpeg') !== null;
  try {
    const { id, token } = await withServer(dir, {}, async (url) => {
      const anonymous = client(url, '');
      await anonymous.call('POST', '/api/v1/auth/register', credentials);
      const token = String((await anonymous.call('POST', '/api/v1/auth/login', credentials)).body.access_token);
      const api = client(url, token);
      const started = performance.now();
      const created = await api.call('POST', '/api/v1/jobs', { title: 'Bench Book', content: text });
      if (created.status !== 201) throw new Error(`job creation answered ${created.status}`);
      const id = String(created.body.id);
      for (;;) {
        const job = await api.call('GET', `/api/v1/jobs/${id}`);
        if (job.body.status === 'COMPLETED') break;
        if (job.body.status === 'FAILED') throw new Error(`the book failed: ${String(job.body.error_message)}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
      const meta = await api.call('GET', `/api/v1/audio/${id}/metadata`);
      const hours = Number(meta.body.duration) / 3600;
      console.log(
        `book: ${text.length.toLocaleString('en')} characters, ${(meta.body.chapters as unknown[]).length} chapters, ` +
          `${hours.toFixed(1)} h of audio, converted in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      for (const format of FORMATS) {
        const { seconds, size } = await timeFormat(api, id, format);
        const label = format === 'm4b' ? `m4b (ffmpeg ${native ? 'on PATH' : 'of the npm package'})` : format;
        console.log(`  ${label.padEnd(30)} ${seconds.toFixed(1).padStart(7)} s  ${(size / 1e6).toFixed(1)} MB`);
      }
      return { id, token };
    });
    if (native) {
      await withServer(dir, { EXPORT_FFMPEG: 'bundled' }, async (url) => {
        const api = client(url, token);
        await api.call('DELETE', `/api/v1/audio/${id}/exports/m4b`);
        const { seconds, size } = await timeFormat(api, id, 'm4b');
        console.log(
          `  ${'m4b (ffmpeg of the npm package)'.padEnd(30)} ${seconds.toFixed(1).padStart(7)} s  ${(size / 1e6).toFixed(1)} MB`,
        );
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
