import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeVoiceServer, type FakeVoiceServer } from '../testing/voice-server';
import { isTtsError } from './types';
import { createVoiceServer, type VoiceServerOptions } from './voice-server';

const fastRetry = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 };
let fake: FakeVoiceServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function client(server: FakeVoiceServer, options: Partial<VoiceServerOptions> = {}) {
  return createVoiceServer({
    url: server.url,
    model: 'kokoro',
    name: 'Kokoro',
    concurrency: 2,
    voices: [],
    retry: fastRetry,
    ...options,
  });
}

describe('the voice list', () => {
  it('is what GET /audio/voices answers, in either shape Kokoro-FastAPI has used', async () => {
    fake = await startFakeVoiceServer({ voices: ['af_heart', 'bm_george'] });
    expect(await client(fake).voices()).toMatchObject({ reachable: true, voices: ['af_heart', 'bm_george'] });
    await fake.close();
    fake = await startFakeVoiceServer({ voices: ['af_sky'], legacyList: true });
    expect(await client(fake).voices()).toMatchObject({ reachable: true, voices: ['af_sky'] });
    expect(fake.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/audio/voices']);
  });

  it('comes from TTS_SERVER_VOICES when the server does not list its voices', async () => {
    fake = await startFakeVoiceServer({ voices: null });
    const server = client(fake, { voices: ['narrator', 'guide'] });
    expect(await server.voices()).toMatchObject({ reachable: true, voices: ['narrator', 'guide'] });
    const bare = await client(fake).voices();
    expect(bare).toMatchObject({ reachable: true, voices: [] });
    expect(bare.detail).toMatch(/Kokoro does not list its voices \(set TTS_SERVER_VOICES\)/);
  });

  it('is asked again once stale, so a voice added to the server appears', async () => {
    fake = await startFakeVoiceServer({ voices: ['af_heart'] });
    // The clock moves only when the test says so: a busy machine cannot make the list stale early.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const server = client(fake, { refreshMs: 30 });
      expect((await server.voices()).voices).toEqual(['af_heart']);
      fake.setVoices(['af_heart', 'af_nova']);
      vi.setSystemTime(Date.now() + 29);
      // Trusted while fresh.
      expect((await server.voices()).voices).toEqual(['af_heart']);
      vi.setSystemTime(Date.now() + 2);
      expect((await server.voices()).voices).toEqual(['af_heart', 'af_nova']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the server is not reachable while it is down, and reachable again once it is up', async () => {
    fake = await startFakeVoiceServer();
    const server = client(fake, { refreshMs: 60 });
    await fake.down();
    const down = await server.voices();
    expect(down).toMatchObject({ reachable: false, voices: [], detail: 'Kokoro is not reachable right now' });
    await fake.up();
    expect(await server.voices({ fresh: true })).toMatchObject({ reachable: true });
  });
});

describe('speech', () => {
  it('posts the model, voice and text for WAV to /audio/speech, with the key, and reads its audio', async () => {
    fake = await startFakeVoiceServer({ captions: false });
    const text = 'The keeper lit the lamp.';
    const speech = await client(fake, { key: 'local-key' }).engine.synthesize(text, 'af_heart');
    expect(speech.sampleRate).toBe(24_000);
    expect(speech.samples.length / speech.sampleRate).toBeCloseTo(fake.secondsFor(text), 3);
    expect(speech.words).toBeUndefined();
    const posted = fake.received.filter((r) => r.method === 'POST');
    // The captions route is asked first; the server has none, so speech comes from /audio/speech.
    expect(posted.map((r) => r.path)).toEqual(['/dev/captioned_speech', '/v1/audio/speech']);
    expect(posted[1]!.body).toEqual({
      model: 'kokoro',
      input: text,
      voice: 'af_heart',
      response_format: 'wav',
      stream: false,
    });
    expect(posted[1]!.authorization).toBe('Bearer local-key');
  });

  it('asks a server without captions only once per client', async () => {
    fake = await startFakeVoiceServer({ captions: false });
    const server = client(fake);
    await server.engine.synthesize('One.', 'af_heart');
    await server.engine.synthesize('Two.', 'af_heart');
    expect(fake.received.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/dev/captioned_speech',
      '/v1/audio/speech',
      '/v1/audio/speech',
    ]);
  });

  it('gives each word of the text its time when the server captions its speech', async () => {
    fake = await startFakeVoiceServer({ captions: true, wordSeconds: 0.2 });
    const text = 'Hello, dear reader.';
    const speech = await client(fake).engine.synthesize(text, 'af_heart');
    expect(speech.words?.map((w) => text.slice(w.charStart, w.charEnd))).toEqual(['Hello', 'dear', 'reader']);
    expect(speech.words?.map((w) => [w.start, w.end])).toEqual([
      [0, 0.2],
      [0.25, 0.45],
      [0.5, 0.7],
    ]);
    expect(fake.received.find((r) => r.path === '/dev/captioned_speech')?.body).toMatchObject({
      input: text,
      voice: 'af_heart',
      return_timestamps: true,
    });
  });

  it('tries a 429 and a 5xx again with backoff', async () => {
    fake = await startFakeVoiceServer({ captions: true });
    fake.failNext(2, 429);
    await client(fake).engine.synthesize('Busy now.', 'af_heart');
    fake.failNext(1, 503);
    await client(fake).engine.synthesize('Busy again.', 'af_heart');
    // Every attempt reached the server; each sentence was answered once, after its failures.
    const attempts = fake.received.filter((r) => r.path === '/dev/captioned_speech').map((r) => r.body?.input);
    expect(attempts).toEqual(['Busy now.', 'Busy now.', 'Busy now.', 'Busy again.', 'Busy again.']);
    expect(fake.spoken()).toEqual(['Busy now.', 'Busy again.']);
  });

  it('fails with the server named, retryable, when it keeps failing or is down', async () => {
    fake = await startFakeVoiceServer({ captions: true });
    fake.failNext(10, 500);
    const failed = await client(fake)
      .engine.synthesize('Never.', 'af_heart')
      .catch((e: unknown) => e);
    expect(isTtsError(failed) && failed.retryable).toBe(true);
    expect((failed as Error).message).toMatch(/^Kokoro is unavailable \(500\): retried 2 times, giving up/);
    await fake.down();
    const refused = await client(fake)
      .engine.synthesize('Never.', 'af_heart')
      .catch((e: unknown) => e);
    expect(isTtsError(refused) && refused.retryable).toBe(true);
    expect((refused as Error).message).toMatch(/^Kokoro could not be reached \(ECONNREFUSED\)/);
  });

  it('passes on the server refusing a voice, not retried', async () => {
    fake = await startFakeVoiceServer({ captions: false });
    const refused = await client(fake)
      .engine.synthesize('Hello.', 'xx_nobody')
      .catch((e: unknown) => e);
    expect(isTtsError(refused) && !refused.retryable).toBe(true);
    expect((refused as Error).message).toMatch(/Kokoro rejected the request: 400 Voice 'xx_nobody' not found/);
  });

  it('sends at most TTS_SERVER_CONCURRENCY requests at once', async () => {
    fake = await startFakeVoiceServer({ captions: true, realTimeFactor: 20 });
    const server = client(fake, { concurrency: 2 });
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => server.engine.synthesize(`Sentence ${i} of the test.`, 'af_heart')),
    );
    expect(fake.spoken()).toHaveLength(6);
    expect(fake.peakConcurrency()).toBe(2);
  });
});
