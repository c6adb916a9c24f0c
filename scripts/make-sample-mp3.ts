// Writes public/fixtures/sample.mp3: the small, real MP3 that stories stream (a quiet 60 s tone,
// 16 kHz mono at 8 kbps, about 60 KB), made with the server's own MP3 writer; and
// public/fixtures/sample-opening.mp3, its first 12 s alone: a converting book's first chapter's
// opening (docs/listening.md), the same audio as the start of the whole file.
// Run once: node --import tsx scripts/make-sample-mp3.ts
import { writeFile } from 'node:fs/promises';
import { createMp3Writer } from '../server/audio/mp3';

const sampleRate = 16000;

/** The first `seconds` of the sample's tone, encoded; writes it to `name` in public/fixtures. */
async function writeTone(name: string, seconds: number): Promise<void> {
  const chunks: Uint8Array[] = [];
  const writer = createMp3Writer({ sampleRate, kbps: 8, sink: async (chunk) => void chunks.push(chunk) });
  const pcm = new Int16Array(sampleRate * seconds);
  for (let i = 0; i < pcm.length; i += 1) {
    const t = i / sampleRate;
    // A 440 Hz tone that changes pitch every 20 s, so each story "chapter" sounds different.
    const freq = 440 * (1 + Math.floor(t / 20) * 0.25);
    pcm[i] = Math.round(3000 * Math.sin(2 * Math.PI * freq * t));
  }
  await writer.write(pcm);
  const result = await writer.finish();
  const bytes = Buffer.concat(chunks);
  await writeFile(new URL(`../public/fixtures/${name}`, import.meta.url), bytes);
  console.log(`${name}: ${result.durationSeconds.toFixed(2)} s, ${bytes.length} bytes`);
}

await writeTone('sample.mp3', 60);
await writeTone('sample-opening.mp3', 12);
