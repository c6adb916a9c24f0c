import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalFileStorage } from '../storage/local';

export async function tempStorage(): Promise<{ root: string; storage: LocalFileStorage; cleanup: () => Promise<void> }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'lectio-audio-'));
  return { root, storage: new LocalFileStorage(root), cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Feeds PCM to `write` in uneven, sentence-like pieces. */
export async function writeInPieces(pcm: Int16Array, write: (s: Int16Array) => Promise<void>, seed = 7): Promise<void> {
  let at = 0;
  let k = seed;
  while (at < pcm.length) {
    k = (k * 1103515245 + 12345) % 2147483648;
    const size = 500 + (k % 30000);
    await write(pcm.slice(at, Math.min(pcm.length, at + size)));
    at += size;
  }
}

/** Every file under `dir` (relative, "/"-separated), temp files included. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string): Promise<void> {
    for (const entry of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else out.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  }
  await walk(dir);
  return out.sort();
}
