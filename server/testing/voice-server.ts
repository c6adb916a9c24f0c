/**
 * A small speech server of the OpenAI protocol as Kokoro-FastAPI speaks it, for tests and the
 * bench: `GET /v1/audio/voices`, `POST /v1/audio/speech` (WAV) and, when `captions` is on,
 * `POST /dev/captioned_speech` (base64 WAV and word timestamps). It records every request it
 * receives, can refuse a request or go down on cue, and takes time to "synthesise" (a fixed
 * real-time factor, at most `capacity` requests at once) so concurrency can be measured.
 *
 * Its audio is its own: each word is a tone of `toneHz` (or its voice's `toneHzByVoice`) lasting
 * `wordSeconds`, with a short silence after it, so a test can tell the server's audio from any
 * other voice's (and its voices apart) and knows how long every sentence lasts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeWav } from '../tts/wav';

export interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

export interface FakeVoiceServerOptions {
  /** Voice ids it lists; null answers 404 on the voice list (a server that does not list its voices). */
  voices?: string[] | null;
  /** Answer the list as plain strings (Kokoro before 0.3) instead of {id, name} objects. */
  legacyList?: boolean;
  /** Offer /dev/captioned_speech. */
  captions?: boolean;
  wordSeconds?: number;
  toneHz?: number;
  /** A tone per voice id (others read at `toneHz`), so a test can hear which voice read a stretch of a file. */
  toneHzByVoice?: Record<string, number>;
  sampleRate?: number;
  /** Seconds of audio made per second of work (default: as fast as it can). */
  realTimeFactor?: number;
  /** Requests synthesised at once; the others wait (default: no limit). */
  capacity?: number;
}

export interface FakeVoiceServer {
  /** The API base, as TTS_SERVER_URL names it: http://127.0.0.1:<port>/v1 */
  readonly url: string;
  readonly received: Received[];
  /** The inputs of every speech request it answered with audio (either route), in the order answered. */
  spoken(): string[];
  /** Seconds of audio the server makes for `text`. */
  secondsFor(text: string): number;
  /** The most speech requests it has worked on at the same time. */
  peakConcurrency(): number;
  setVoices(voices: string[] | null): void;
  /** The next `count` speech requests answer `status` (429, 500, ...). */
  failNext(count: number, status: number): void;
  /** When a speech request's input matches, the server goes down before answering it. */
  goDownWhen(match: (input: string) => boolean): void;
  /** Stops listening: connections are refused until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’.-][\p{L}\p{N}\p{M}]+)*/gu;
const TOKEN = /[\p{L}\p{N}\p{M}]+(?:['’.-][\p{L}\p{N}\p{M}]+)*|[^\s\p{L}\p{N}\p{M}]/gu;
const GAP_SECONDS = 0.05;

export async function startFakeVoiceServer(options: FakeVoiceServerOptions = {}): Promise<FakeVoiceServer> {
  let voices = options.voices === undefined ? ['af_heart', 'af_bella', 'bm_george', 'am_adam'] : options.voices;
  const sampleRate = options.sampleRate ?? 24_000;
  const wordSeconds = options.wordSeconds ?? 0.2;
  const toneHz = options.toneHz ?? 330;
  const received: Received[] = [];
  const answered: string[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let downWhen: ((input: string) => boolean) | null = null;
  let busy = 0;
  let inFlight = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const secondsFor = (text: string) => [...text.matchAll(WORD)].length * (wordSeconds + GAP_SECONDS);

  /** The server's speech for `text`, and where each of its tokens is said. */
  function speak(
    text: string,
    voice: string,
  ): { wav: Uint8Array; tokens: { word: string; start_time: number; end_time: number }[] } {
    const tokens: { word: string; start_time: number; end_time: number }[] = [];
    const words = [...text.matchAll(TOKEN)].map((m) => m[0]);
    let t = 0;
    for (const token of words) {
      if (!/[\p{L}\p{N}]/u.test(token)) {
        tokens.push({ word: token, start_time: t, end_time: t });
        continue;
      }
      tokens.push({ word: token, start_time: t, end_time: t + wordSeconds });
      t += wordSeconds + GAP_SECONDS;
    }
    const samples = new Int16Array(Math.round(t * sampleRate));
    const perWord = Math.round((wordSeconds + GAP_SECONDS) * sampleRate);
    const tone = Math.round(wordSeconds * sampleRate);
    const hz = options.toneHzByVoice?.[voice] ?? toneHz;
    for (let i = 0; i < samples.length; i++) {
      if (i % perWord < tone) samples[i] = Math.round(12_000 * Math.sin((2 * Math.PI * hz * i) / sampleRate));
    }
    return { wav: encodeWav({ samples, sampleRate }), tokens };
  }

  async function work(seconds: number): Promise<void> {
    if (options.capacity !== undefined && busy >= options.capacity) {
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    busy += 1;
    try {
      if (options.realTimeFactor !== undefined) {
        await new Promise((r) => setTimeout(r, (seconds / options.realTimeFactor!) * 1000));
      }
    } finally {
      busy -= 1;
      waiting.shift()?.();
    }
  }

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    let body: Record<string, unknown> | null;
    try {
      body = raw === '' ? null : (JSON.parse(raw) as Record<string, unknown>);
    } catch {
      body = null;
    }
    received.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    if (req.method === 'GET' && path === '/v1/audio/voices') {
      if (voices === null) return json(res, 404, { detail: 'Not Found' });
      return json(res, 200, { voices: options.legacyList ? voices : voices.map((id) => ({ id, name: id })) });
    }
    const speech = req.method === 'POST' && path === '/v1/audio/speech';
    const captioned = req.method === 'POST' && path === '/dev/captioned_speech' && options.captions === true;
    if (!speech && !captioned) return json(res, 404, { detail: 'Not Found' });
    const input = typeof body?.input === 'string' ? body.input : '';
    if (downWhen?.(input)) {
      downWhen = null;
      req.socket.destroy();
      await stop();
      return;
    }
    if (failures.count > 0) {
      failures = { ...failures, count: failures.count - 1 };
      return json(res, failures.status, {
        detail: { error: 'processing_error', message: 'The model is busy', type: 'server_error' },
      });
    }
    const voice = typeof body?.voice === 'string' ? body.voice : '';
    if (voices !== null && !voices.includes(voice)) {
      return json(res, 400, {
        detail: {
          error: 'validation_error',
          message: `Voice '${voice}' not found. Available voices: ${voices.join(', ')}`,
          type: 'invalid_request_error',
        },
      });
    }
    if (input.trim() === '') return json(res, 400, { detail: { message: 'Empty input' } });
    const { wav, tokens } = speak(input, voice);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    try {
      await work(secondsFor(input));
    } finally {
      inFlight -= 1;
    }
    answered.push(input);
    if (speech) {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.end(Buffer.from(wav));
      return;
    }
    json(res, 200, { audio: Buffer.from(wav).toString('base64'), audio_format: 'audio/wav', timestamps: tokens });
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      handle(req, res, raw).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { detail: String(error) });
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  let port = 0;
  async function listen(): Promise<void> {
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }
  async function stop(): Promise<void> {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  }
  await listen();

  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    spoken: () => [...answered],
    secondsFor,
    peakConcurrency: () => peak,
    setVoices(next) {
      voices = next;
    },
    failNext(count, status) {
      failures = { count, status };
    },
    goDownWhen(match) {
      downWhen = match;
    },
    down: stop,
    up: listen,
    close: stop,
  };
}
