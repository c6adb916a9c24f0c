/**
 * Conversion pipeline bench: `npm run bench` (node --import tsx server/jobs/bench-pipeline.ts).
 * Prints offline synthesis + MP3 encoding speed for a 50,000-character text (BENCH_CHARS to
 * change it) in one thread and with the encoder worker pool, the time from job creation to
 * COMPLETED through the API, and the peak RSS.
 */
import os from 'node:os';
import { EncoderPool } from '../audio/encoder-pool';
import { createMp3Writer } from '../audio/mp3';
import { createTestApp } from '../testing';
import { splitIntoChunks } from '../voices/chunking';
import { getOfflineEngine } from '../voices/espeak';
import { createJob, signIn, waitForJob } from './test-helpers';

const CHARS = Number(process.env.BENCH_CHARS ?? 50_000);

function benchText(chars: number): string {
  const sentences = [
    'The old lighthouse stood at the edge of the cliff, watching the grey sea roll in.',
    'Every evening the keeper climbed the spiral stairs and lit the great lamp.',
    'Ships far out on the water saw the beam and turned away from the rocks.',
    'In winter the wind howled around the tower and salt crusted the windows.',
    'He wrote in his logbook each night, noting the weather and the passing vessels.',
  ];
  let out = '';
  for (let i = 0; out.length < chars; i += 1) out += `${sentences[i % sentences.length]} `;
  return out.slice(0, chars).replace(/\s+\S*$/, '.');
}

async function synthEncode(text: string, pool: EncoderPool | undefined): Promise<{ audio: number; wall: number }> {
  const engine = getOfflineEngine();
  const started = performance.now();
  let writer: ReturnType<typeof createMp3Writer> | null = null;
  let bytes = 0;
  for (const chunk of splitIntoChunks(text, engine.maxCharsPerRequest)) {
    for (const s of chunk.sentences) {
      const speech = await engine.synthesize(text.slice(s.start, s.end), 'en-us');
      writer ??= createMp3Writer({ sampleRate: speech.sampleRate, pool, sink: async (c) => void (bytes += c.byteLength) });
      await writer.write(speech.samples);
    }
  }
  const result = await writer!.finish();
  return { audio: result.durationSeconds, wall: (performance.now() - started) / 1000 };
}

const fmt = (n: number, d = 1) => n.toFixed(d);

async function main(): Promise<void> {
  const text = benchText(CHARS);
  console.log(`Pipeline bench: ${text.length} characters, ${os.availableParallelism()} CPUs, Node ${process.version}, eSpeak backend ${getOfflineEngine().backend}`);
  await getOfflineEngine().synthesize('Warm up.', 'en-us');

  const one = await synthEncode(text, undefined);
  console.log(`one thread (ENCODER_THREADS=0): ${fmt(one.audio)} s of audio in ${fmt(one.wall)} s = ${fmt(one.audio / one.wall)}x real time`);

  const threads = os.availableParallelism();
  const pool = new EncoderPool(threads);
  const pooled = await synthEncode(text, pool);
  await pool.close();
  console.log(`encoder pool (${threads} threads): ${fmt(pooled.audio)} s of audio in ${fmt(pooled.wall)} s = ${fmt(pooled.audio / pooled.wall)}x real time`);

  const t = await createTestApp({ env: { ENCODER_THREADS: String(threads) } });
  try {
    const headers = await signIn(t, 'bench@example.com');
    const started = performance.now();
    const res = await createJob(t, headers, { title: 'Bench', content: text, job_type: 'text_to_audio' });
    const job = await waitForJob(t, headers, (res.json() as { id: string }).id, undefined, 30 * 60_000);
    const wall = (performance.now() - started) / 1000;
    console.log(`job via the API: ${job.status} in ${fmt(wall)} s (${fmt(job.result_data.duration_seconds ?? 0)} s of audio, ${job.result_data.file_size_bytes} bytes)`);
  } finally {
    await t.close();
  }
  console.log(`peak RSS: ${fmt(process.resourceUsage().maxRSS / 1024, 0)} MB`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
