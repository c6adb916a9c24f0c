/**
 * A voice server's throughput as the conversion drives it: `npm run bench -- voice-server`
 * Starts the test suite's speech server of Kokoro-FastAPI's protocol (each request takes its
 * audio's length / BENCH_SERVER_SPEED seconds, at most BENCH_SERVER_CAPACITY requests at once,
 * like a CPU server with that many cores), then converts a ~6,000-character text through the
 * synthesize step's engine room (one sentence per request, pieces asked for ahead, MP3 encoded
 * as speech arrives) with TTS_SERVER_CONCURRENCY 1, 2 and 4, and prints seconds of audio per
 * second of wall time for each, with and without word timings (captions).
 *
 * BENCH_TTS_SERVER_URL=http://localhost:8880/v1 measures a real server instead (Kokoro-FastAPI's
 * CPU image, say), reading with BENCH_TTS_SERVER_VOICE (default af_heart): what it prints is then
 * that server's speed on its machine, the figure to size TTS_SERVER_CONCURRENCY by.
 */
import { EncoderPool } from '../server/audio/encoder-pool';
import { tempStorage } from '../server/testing/audio';
import { startFakeVoiceServer } from '../server/testing/voice-server';
import { createSpeaker } from '../server/jobs/speech';
import { synthesizeToMp3 } from '../server/jobs/synthesis';
import { splitIntoChunks } from '../server/tts/chunking';
import { createVoiceServer } from '../server/tts/voice-server';
import { sampleText } from './sample-text';

const SPEED = Number(process.env.BENCH_SERVER_SPEED ?? 20);
const CAPACITY = Number(process.env.BENCH_SERVER_CAPACITY ?? 4);
const text = sampleText(Number(process.env.BENCH_CHARS ?? 6000));
// MP3 encoding as the server does it for a voice server's speech: LAME WebAssembly, one thread.
const pool = new EncoderPool(1);

const REAL_URL = process.env.BENCH_TTS_SERVER_URL;
const VOICE = process.env.BENCH_TTS_SERVER_VOICE ?? 'af_heart';

async function run(concurrency: number, captions: boolean): Promise<{ audio: number; wall: number; requests: number }> {
  const fake = REAL_URL ? null : await startFakeVoiceServer({ captions, realTimeFactor: SPEED, capacity: CAPACITY });
  const { storage, cleanup } = await tempStorage();
  try {
    const url = REAL_URL ?? fake!.url;
    const server = createVoiceServer({ url, model: 'kokoro', name: 'bench', concurrency, voices: [] });
    const { engine } = server;
    const pieces = splitIntoChunks(text, engine.maxCharsPerRequest).flatMap((c) =>
      c.sentences.map((s) => ({ ...s, sentences: [s] })),
    );
    await engine.synthesize('Warm up.', VOICE);
    const started = performance.now();
    const result = await synthesizeToMp3({
      text,
      pieces,
      speak: createSpeaker(engine, VOICE, null),
      lookahead: concurrency,
      storage,
      pool,
      key: 'bench/voice-server.mp3',
      segments: 1,
      signal: new AbortController().signal,
      report: async () => undefined,
    });
    return { audio: result.durationSeconds, wall: (performance.now() - started) / 1000, requests: pieces.length };
  } finally {
    await fake?.close();
    await cleanup();
  }
}

console.log(
  `encoder: ${pool.describe()}; ${REAL_URL ? `server ${REAL_URL}, voice ${VOICE}` : `test server: ${SPEED}x real time per request, ${CAPACITY} at once`}; text ${text.length} characters, one sentence per request`,
);
// A real server decides for itself whether it gives word timings: it is measured once, as it is.
for (const captions of REAL_URL ? [true] : [false, true]) {
  for (const concurrency of [1, 2, 4]) {
    const { audio, wall, requests } = await run(concurrency, captions);
    console.log(
      `${REAL_URL ? 'server' : captions ? 'with word timings' : 'plain speech     '} concurrency ${concurrency}: ${audio.toFixed(1)} s of audio ` +
        `in ${wall.toFixed(2)} s (${requests} requests) = ${(audio / wall).toFixed(1)} s of audio per second`,
    );
  }
}
await pool.close();
