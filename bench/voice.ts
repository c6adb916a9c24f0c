/**
 * Voice assistant latency benchmark (offline engines, loopback):
 *   npm run bench -- voice
 * Prints the RTVI handshake time, the time from a typed question to the first bot audio frame,
 * and the time from the end of user speech to user-stopped-speaking (and to the first audio of
 * the reply), as p50 and p95 over typed questions of every kind. The assistant runs in a child
 * process on a plain HTTP server with an in-memory library, once on each of the offline voice's
 * speech paths: native (eSpeak-NG kept running in C hosts; where they can be built) and portable
 * (eSpeak-NG WebAssembly in a worker thread, the voice on a machine without them). Then the voice
 * page in Chromium: Send to the answer's text on screen (bench/voice-page.ts).
 */
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { HeardIndex } from '../server/assistant/heard-index';
import { fileURLToPath } from 'node:url';
import { speechLikePcm } from '../server/testing/synthetic-pcm';
import { memoryBookSource } from '../server/assistant/books';
import { HEARD_POSITION, rochesterBook, rochesterText } from '../server/testing/assistant-fixtures';
import { createVoiceAssistant, offlineEngines } from '../server/assistant/service';
import { VOICE_WS_PATH } from '../server/routes/voice-socket';
import { serveVoiceAssistant } from '../server/testing/voice-socket';
import { createEspeakEngine } from '../server/tts/espeak';
import { espeakHostBinary } from '../server/tts/espeak-host-build';
import { chooseSpeechPath, type SpeechPathName } from '../server/tts/speech-paths';
import { TestVoiceClient } from '../server/testing/voice-client';
import { benchVoicePage } from './voice-page';

const RUNS = 40;
/** The p-th percentile (nearest rank). */
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const fmt = (xs: number[]) =>
  `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}, n=${xs.length})`;
/** Typed questions of every kind the offline brain answers (X-ray, setting, library, not yet heard). */
const QUESTIONS = [
  'Who is Helen Burns?',
  'Where does the story take place?',
  'What books are in my library?',
  'Who is Mr. Rochester?',
  'What happened at Lowood?',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (process.argv.includes('--serve')) {
  await serve(process.argv.includes('--portable') ? 'portable' : 'native');
} else {
  // Both speech paths: native where its host can be built here, and portable.
  if ((await espeakHostBinary()).binary !== null) await bench('native');
  await bench('portable');
  await benchIndex();
  await benchVoicePage();
}

/** Indexing a long book (about 1 MB, 10,000 sentences) heard to 80 %: time, and the longest event-loop stall. */
async function benchIndex(): Promise<void> {
  const vocabulary =
    'keeper climbed stairs lamp island storm brother bread night ship harbour wind rain letter mother village church tide rope stone'.split(
      ' ',
    );
  const timing: { start: number; end: number; char_start: number; char_end: number }[] = [];
  let text = '';
  for (let i = 0; i < 10_000; i += 1) {
    const words = Array.from(
      { length: 8 + (i % 15) },
      (_, j) => `${vocabulary[(i * 7 + j * 3) % vocabulary.length]}${i % 97}`,
    );
    const sentence = `The ${words.join(' ')}.`;
    if (i > 0) text += ' ';
    timing.push({ start: i * 5, end: i * 5 + 5, char_start: text.length, char_end: text.length + sentence.length });
    text += sentence;
  }
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const t0 = performance.now();
  const index = await HeardIndex.build({ text, timing }, []);
  const heard = index.heardCount(40_000);
  await index.prepare(heard);
  const built = performance.now() - t0;
  const t1 = performance.now();
  await index.find('keeper3 lamp3 harbour', heard);
  const searched = performance.now() - t1;
  delay.disable();
  console.log(
    `--- index of a ${(text.length / 1e6).toFixed(1)} MB book heard to ${heard} sentences: built in ${built.toFixed(0)} ms (at connect, in the background), ` +
      `a search ${searched.toFixed(1)} ms, longest event-loop stall ${(delay.max / 1e6).toFixed(0)} ms`,
  );
}

async function serve(pathName: SpeechPathName): Promise<void> {
  const book = rochesterBook();
  const engines = offlineEngines(createEspeakEngine({ path: await chooseSpeechPath(pathName) }));
  const assistant = createVoiceAssistant({
    engines,
    books: memoryBookSource([{ userId: 'bench-user', book, text: rochesterText(), position: HEARD_POSITION }]),
  });
  const served = await serveVoiceAssistant(assistant, 'bench', 'bench-user');
  await assistant.sessions.start('bench-user', { mode: 'xray', jobId: book.id });

  process.stdout.write(`PORT ${served.port}\n`);
  process.stdin.on('end', () => {
    void served.close().then(() => process.exit(0));
  });
  process.stdin.resume();
}

async function bench(pathName: SpeechPathName): Promise<void> {
  console.log(
    `--- offline voice: ${pathName === 'portable' ? 'eSpeak WebAssembly (worker thread), the portable path' : 'eSpeak-NG kept running in C hosts, the native path'}`,
  );
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', `--${pathName}`],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', () => reject(new Error('the server process exited')));
  });
  const url = `ws://127.0.0.1:${port}${VOICE_WS_PATH}?token=bench`;

  // Cold: the first answer of the process pays for loading the eSpeak WASM voice.
  {
    const c = await TestVoiceClient.connect(url);
    await c.handshake();
    const t = performance.now();
    c.sendMessage('send-text', { content: 'Who is Helen Burns?' });
    const first = await c.waitFor((f) => f.kind === 'audio', 30_000);
    console.log(
      `cold  typed question -> first bot audio: ${(first.at - t).toFixed(1)} ms (includes loading the offline voice)`,
    );
    c.close();
    await c.closed;
  }

  const handshake: number[] = [];
  const typed: number[] = [];
  const text: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    const c = await TestVoiceClient.connect(url);
    const ready = await c.handshake(`r${i}`);
    handshake.push(ready.at - t0);
    const t1 = performance.now();
    c.sendMessage('send-text', { content: QUESTIONS[i % QUESTIONS.length] });
    const words = await c.waitForMessage('bot-llm-text', 10_000);
    text.push(words.at - t1);
    const first = await c.waitFor((f) => f.kind === 'audio', 10_000);
    typed.push(first.at - t1);
    c.close();
    await c.closed;
    await sleep(100);
  }
  console.log(`handshake (socket open + client-ready -> bot-ready): ${fmt(handshake)}`);
  console.log(`typed question -> first answer text (bot-llm-text) on the socket: ${fmt(text)}`);
  console.log(`typed question -> first bot audio frame (offline, warm; target p95 < 1000 ms): ${fmt(typed)}`);

  // Speech then silence, streamed at real time in 20 ms chunks as a microphone would.
  const stopped: number[] = [];
  const reply: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const c = await TestVoiceClient.connect(url);
    await c.handshake();
    const speech = speechLikePcm(1.5, 16000, i + 1);
    const chunk = 320;
    const start = performance.now();
    let sent = 0;
    let speechEnd = 0;
    const total = speech.length + 16000 * 2;
    while (sent < total) {
      await sleep(Math.max(0, start + (sent / 16000) * 1000 - performance.now()));
      const pcm = sent < speech.length ? speech.subarray(sent, sent + chunk) : new Int16Array(chunk);
      c.sendAudio(pcm);
      sent += chunk;
      if (sent >= speech.length && speechEnd === 0) speechEnd = performance.now();
      if (c.messages('user-stopped-speaking').length > 0 && c.frames.some((f) => f.kind === 'audio')) break;
    }
    const stop = await c.waitForMessage('user-stopped-speaking', 5000);
    const audio = await c.waitFor((f) => f.kind === 'audio', 5000);
    stopped.push(stop.at - speechEnd);
    reply.push(audio.at - speechEnd);
    c.close();
    await c.closed;
  }
  console.log(`end of user speech -> user-stopped-speaking: ${fmt(stopped)} (VAD stop threshold 600 ms)`);
  console.log(`end of user speech -> first audio of the offline reply: ${fmt(reply)}`);

  child.stdin.end();
}
