import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createElevenLabsEngine } from './elevenlabs';
import { createOpenAiEngine } from './openai';
import { isDemoMode, selectEngine } from './select';
import type { TtsEngine } from './types';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}
type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer };

// A fake provider on 127.0.0.1: records every request and answers from a queue (last one repeats).
const seen: Seen[] = [];
let replies: Reply[] = [];
let server: http.Server;
let base = '';

const PCM = Buffer.from(Int16Array.from([0, 1000, -1000, 32767, -32768, 5]).buffer);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* not JSON */
      }
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const r = (replies.length > 1 ? replies.shift() : replies[0]) ?? { status: 500 };
      res.writeHead(r.status, r.headers ?? {});
      res.end(r.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  replies = [];
});

const ok: Reply = { status: 200, headers: { 'content-type': 'audio/pcm' }, body: PCM };
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const fastRetry = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };

describe('OpenAI engine (real SDK, local HTTP)', () => {
  const engine = () =>
    createOpenAiEngine({ apiKey: 'sk-test', baseURL: `${base}/v1`, model: 'tts-1', retry: fastRetry });

  it('posts to /v1/audio/speech with bearer auth and reads 24 kHz PCM', async () => {
    replies = [ok];
    const s = await engine().synthesize('Hello there.', 'alloy');
    expect(s.sampleRate).toBe(24000);
    expect([...s.samples]).toEqual([0, 1000, -1000, 32767, -32768, 5]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/v1/audio/speech');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]!.body).toEqual({ model: 'tts-1', voice: 'alloy', input: 'Hello there.', response_format: 'pcm' });
  });

  it('retries a 429 (Retry-After: 0) and succeeds', async () => {
    replies = [json(429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '0' }), ok];
    const s = await engine().synthesize('Hi.', 'alloy');
    expect(s.samples.length).toBe(6);
    expect(seen).toHaveLength(2);
  });

  it('gives up on a persistent 503 after the configured retries', async () => {
    replies = [json(503, { error: { message: 'overloaded' } })];
    const err = await engine()
      .synthesize('Hi.', 'alloy')
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(4);
    expect(err).toMatchObject({ name: 'TtsError', retryable: true, code: 'server', status: 503, attempts: 4 });
    expect((err as Error).message).toMatch(/^OpenAI is unavailable \(503\): retried 3 times, giving up/);
  });

  it('says it tried once when the first attempt used the whole time budget (a server that hangs)', async () => {
    replies = [json(503, { error: { message: 'overloaded' } })];
    const hung = createOpenAiEngine({
      apiKey: 'sk-test',
      baseURL: `${base}/v1`,
      model: 'tts-1',
      retry: { ...fastRetry, baseDelayMs: 50, maxDelayMs: 50, totalMs: 10 },
    });
    const err = await hung.synthesize('Hi.', 'alloy').catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect((err as Error).message).toMatch(
      /^OpenAI is unavailable \(503\): tried once, and no time was left to try again/,
    );
    expect((err as Error).message).not.toMatch(/retried 0/);
  });

  it('gives up on a persistent 429 with a rate-limit message', async () => {
    replies = [json(429, { error: { message: 'slow down' } }, { 'retry-after': '0' })];
    await expect(engine().synthesize('Hi.', 'alloy')).rejects.toThrow(/^OpenAI rate limit: retried 3 times, giving up/);
    expect(seen).toHaveLength(4);
  });

  it('does not retry a 401', async () => {
    replies = [json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })];
    const err = await engine()
      .synthesize('Hi.', 'alloy')
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(err).toMatchObject({ retryable: false, code: 'auth', status: 401 });
    expect((err as Error).message).toBe('OpenAI rejected the request: 401 Incorrect API key provided');
  });

  it('rejects text over 4096 characters before any request', async () => {
    await expect(engine().synthesize('a'.repeat(4097), 'alloy')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(engine().synthesize(' ', 'alloy')).rejects.toMatchObject({ code: 'invalid_input' });
    expect(seen).toHaveLength(0);
  });

  it('reports an unreachable server as retryable after retries', async () => {
    const e = createOpenAiEngine({
      apiKey: 'k',
      baseURL: 'http://127.0.0.1:1/v1',
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    await expect(e.synthesize('Hi.', 'alloy')).rejects.toMatchObject({ code: 'network', retryable: true, attempts: 2 });
  });
});

describe('ElevenLabs engine (real SDK, local HTTP)', () => {
  const engine = (model?: string) =>
    createElevenLabsEngine({ apiKey: 'xi-test', baseUrl: base, retry: fastRetry, ...(model ? { model } : {}) });

  it('posts to /v1/text-to-speech/{adam id} with xi-api-key and pcm_24000', async () => {
    replies = [ok];
    const s = await engine().synthesize('Hello there.', 'adam');
    expect(s.sampleRate).toBe(24000);
    expect([...s.samples]).toEqual([0, 1000, -1000, 32767, -32768, 5]);
    expect(seen).toHaveLength(1);
    const url = new URL(seen[0]!.url, base);
    expect(url.pathname).toBe('/v1/text-to-speech/pNInz6obpgDQGcFmaJgB');
    expect(url.searchParams.get('output_format')).toBe('pcm_24000');
    expect(seen[0]!.headers['xi-api-key']).toBe('xi-test');
    expect(seen[0]!.body).toMatchObject({ text: 'Hello there.', model_id: 'eleven_multilingual_v2' });
  });

  it('retries a 429 (Retry-After: 0) and succeeds', async () => {
    replies = [
      json(429, { detail: { status: 'too_many_concurrent_requests', message: 'busy' } }, { 'retry-after': '0' }),
      ok,
    ];
    await engine().synthesize('Hi.', 'adam');
    expect(seen).toHaveLength(2);
  });

  it('gives up on a persistent 503 after the configured retries', async () => {
    replies = [json(503, { detail: 'down' })];
    const err = await engine()
      .synthesize('Hi.', 'adam')
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(4);
    expect(err).toMatchObject({ name: 'TtsError', retryable: true, code: 'server', status: 503 });
    expect((err as Error).message).toMatch(/^ElevenLabs is unavailable \(503\): retried 3 times, giving up/);
  });

  it('gives up on a persistent 429 with "ElevenLabs rate limit: retried N times, giving up"', async () => {
    replies = [json(429, { detail: { message: 'quota' } }, { 'retry-after': '0' })];
    await expect(engine().synthesize('Hi.', 'adam')).rejects.toThrow(
      /^ElevenLabs rate limit: retried 3 times, giving up/,
    );
  });

  it('does not retry a 401', async () => {
    replies = [json(401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } })];
    const err = await engine()
      .synthesize('Hi.', 'adam')
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(err).toMatchObject({ retryable: false, code: 'auth', status: 401 });
    expect((err as Error).message).toBe('ElevenLabs rejected the request: 401 Invalid API key');
  });

  it('applies per-model limits before any request', async () => {
    expect(engine().maxCharsPerRequest).toBe(10_000);
    expect(engine('eleven_flash_v2_5').maxCharsPerRequest).toBe(40_000);
    expect(engine('eleven_turbo_v2_5').maxCharsPerRequest).toBe(40_000);
    await expect(engine().synthesize('a'.repeat(10_001), 'adam')).rejects.toThrow(/limit is 10000/);
    replies = [ok];
    await engine('eleven_flash_v2_5').synthesize('a'.repeat(10_001), 'adam');
    await expect(engine('eleven_flash_v2_5').synthesize('a'.repeat(40_001), 'adam')).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(seen).toHaveLength(1);
  });

  it('cancels during backoff when the signal aborts', async () => {
    replies = [json(503, {})];
    const ac = new AbortController();
    const slow = createElevenLabsEngine({ apiKey: 'k', baseUrl: base, retry: { maxRetries: 5, baseDelayMs: 10_000 } });
    setTimeout(() => ac.abort(), 50);
    await expect(slow.synthesize('Hi.', 'adam', ac.signal)).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('selectEngine', () => {
  // The offline engine the process chose at start; only picked here, never asked to speak.
  const offline: TtsEngine = {
    name: 'espeak-ng',
    maxCharsPerRequest: 300,
    synthesize: () => Promise.reject(new Error('not spoken in this test')),
  };

  it('uses the cloud engine when its key is set and the offline stand-in otherwise', async () => {
    const s1 = selectEngine({ openaiApiKey: 'k', openaiBaseUrl: `${base}/v1`, offline }, 'openai');
    expect(s1).toMatchObject({ standIn: false, voiceId: 'alloy', provider: 'openai' });
    expect(s1.engine.name).toBe('openai');
    const s2 = selectEngine({ openaiApiKey: 'k', offline }, 'elevenlabs');
    expect(s2).toMatchObject({ standIn: true, voiceId: 'en-gb+m3', requestedVoiceId: 'adam' });
    expect(s2.engine).toBe(offline);
    const s3 = selectEngine({ offline }, 'openai');
    expect(s3).toMatchObject({ standIn: true, voiceId: 'en-us+f3', requestedVoiceId: 'alloy' });
    expect(s3.voiceId).not.toBe(s2.voiceId);
    const s4 = selectEngine({ elevenlabsApiKey: 'x', elevenlabsBaseUrl: base }, 'elevenlabs', 'rachel');
    expect(s4).toMatchObject({ standIn: false, voiceId: 'rachel' });
    expect(s4.engine.name).toBe('elevenlabs');
    expect(selectEngine({ openaiApiKey: '  ', offline }, 'openai').standIn).toBe(true);
  });

  it('says so when a stand-in is needed and the process has no offline voice', () => {
    expect(() => selectEngine({}, 'offline')).toThrow('This process has no offline voice to read with');
  });

  it('isDemoMode is true when any provider lacks a key', () => {
    expect(isDemoMode({})).toBe(true);
    expect(isDemoMode({ openaiApiKey: 'a' })).toBe(true);
    expect(isDemoMode({ elevenlabsApiKey: 'b' })).toBe(true);
    expect(isDemoMode({ openaiApiKey: 'a', elevenlabsApiKey: 'b' })).toBe(false);
  });
});
