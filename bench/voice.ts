/**
 * Voice assistant latency benchmark (offline engines, loopback):
 *   npm run bench -- voice
 * Prints the RTVI handshake time, the time from a typed question to the first bot audio frame,
 * and the time from the end of user speech to user-stopped-speaking (and to the first audio of
 * the reply). The assistant runs in a child process (the offline voice synthesizes synchronously
 * and would stall an in-process client) on a plain HTTP server with an in-memory library.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { speechLikePcm } from '../server/testing/synthetic-pcm';
import { memoryBookSource } from '../server/assistant/books';
import { HEARD_POSITION, rochesterBook, rochesterText } from '../server/testing/assistant-fixtures';
import { createVoiceAssistant, VOICE_WS_PATH } from '../server/assistant/service';
import { TestVoiceClient } from '../server/testing/voice-client';

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}, n=${xs.length})`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (process.argv.includes('--serve')) {
  await serve();
} else {
  await bench();
}

async function serve(): Promise<void> {
  const book = rochesterBook();
  const assistant = createVoiceAssistant({
    authenticate: async (token) => {
      if (token !== 'bench') throw new Error('bad token');
      return { id: 'bench-user' };
    },
    books: memoryBookSource([{ userId: 'bench-user', book, text: rochesterText(), position: HEARD_POSITION }]),
  });
  const server = createServer((_req, res) => res.writeHead(404).end());
  assistant.attach(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await assistant.sessions.start('bench-user', { mode: 'xray', jobId: book.id });

  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
  process.stdin.on('end', () => {
    assistant.close();
    server.close();
    process.exit(0);
  });
  process.stdin.resume();
}

async function bench(): Promise<void> {
const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
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
  console.log(`cold  typed question -> first bot audio: ${(first.at - t).toFixed(1)} ms (includes loading the offline voice)`);
  c.close();
  await c.closed;
}

const handshake: number[] = [];
const typed: number[] = [];
for (let i = 0; i < RUNS; i += 1) {
  const t0 = performance.now();
  const c = await TestVoiceClient.connect(url);
  const ready = await c.handshake(`r${i}`);
  handshake.push(ready.at - t0);
  const t1 = performance.now();
  c.sendMessage('send-text', { content: i % 2 === 0 ? 'Who is Mr. Rochester?' : 'Tell me about Helen Burns' });
  const first = await c.waitFor((f) => f.kind === 'audio', 10_000);
  typed.push(first.at - t1);
  c.close();
  await c.closed;
  await sleep(400); // let the server finish the previous answer's synthesis (it blocks its event loop)
}
console.log(`handshake (socket open + client-ready -> bot-ready): ${fmt(handshake)}`);
console.log(`typed question -> first bot audio frame (offline, warm): ${fmt(typed)}`);

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
