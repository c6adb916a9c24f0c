/**
 * MP3 encoding throughput: `npm run bench -- encode [minutes] [in-process|pool|both] [streams]`.
 * Encodes `minutes` (default 10) of synthetic speech-like 22.05 kHz mono PCM in-process, then the
 * same audio split into 4 concurrent streams on a 2-worker pool. Prints audio-seconds per
 * wall-second (× real time) and peak RSS (the process's max resident set, workers included).
 */
import { EncoderPool } from '../server/audio/encoder-pool';
import { createMp3Writer } from '../server/audio/mp3';
import { speechLikePcm } from '../server/testing/synthetic-pcm';

const SAMPLE_RATE = 22050;
const minutes = Number(process.argv[2] ?? 10);
const only = process.argv[3]; // optional: "in-process" or "pool"
let cpuMark = process.cpuUsage();
const WORKERS = 2;
const STREAMS = Number(process.argv[4] ?? 4);

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

async function encodeStream(pcm: Int16Array, pool?: EncoderPool): Promise<number> {
  let bytes = 0;
  const writer = createMp3Writer({
    sampleRate: SAMPLE_RATE,
    pool,
    sink: async (chunk) => {
      bytes += chunk.byteLength;
    },
  });
  // Feed ~1 s "sentences", as the synthesis pipeline would.
  const sentence = SAMPLE_RATE;
  for (let at = 0; at < pcm.length; at += sentence) await writer.write(pcm.subarray(at, at + sentence));
  await writer.finish();
  return bytes;
}

function startTimer(): number {
  cpuMark = process.cpuUsage();
  return performance.now();
}

/** Wall-clock speed, plus speed per CPU-second (all threads), which is what matters on a busy machine. */
function report(label: string, audioSeconds: number, wallSeconds: number, bytes: number): void {
  const cpu = process.cpuUsage(cpuMark);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(
    `${label.padEnd(28)} ${(audioSeconds / wallSeconds).toFixed(1).padStart(6)}× real time (wall)  ` +
      `${(audioSeconds / cpuSeconds).toFixed(1).padStart(6)}× per CPU-second  ` +
      `(${audioSeconds.toFixed(0)} s audio: ${wallSeconds.toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} s CPU, ` +
      `${(bytes / 1e6).toFixed(1)} MB MP3, peak RSS so far ${peakRssMb().toFixed(0)} MB)`,
  );
}

async function main(): Promise<void> {
  const audioSeconds = minutes * 60;
  const pcm = speechLikePcm(audioSeconds, SAMPLE_RATE, 1);
  console.log(
    `Encoding ${minutes} min of speech-like PCM at ${SAMPLE_RATE} Hz (48 kbps mono), Node ${process.version}, ` +
      `PCM ${(pcm.byteLength / 1e6).toFixed(0)} MB, RSS before ${peakRssMb().toFixed(0)} MB`,
  );

  if (only !== 'pool') {
    const t = startTimer();
    const inProcessBytes = await encodeStream(pcm);
    report('in-process (1 stream)', audioSeconds, (performance.now() - t) / 1000, inProcessBytes);
  }
  if (only === 'in-process') return;

  const pool = new EncoderPool(WORKERS);
  try {
    const part = Math.ceil(pcm.length / STREAMS / 1152) * 1152;
    const slices = Array.from({ length: STREAMS }, (_, i) =>
      pcm.subarray(i * part, Math.min(pcm.length, (i + 1) * part)),
    );
    const t = startTimer();
    const sizes = await Promise.all(slices.map((slice) => encodeStream(slice, pool)));
    report(
      `pool (${WORKERS} workers, ${STREAMS} streams)`,
      audioSeconds,
      (performance.now() - t) / 1000,
      sizes.reduce((a, b) => a + b, 0),
    );
  } finally {
    await pool.close();
  }
}

await main();
