import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, SHORT_TEXT, signIn } from '../testing/jobs';
import { startFakeVoiceServer, type FakeVoiceServer } from '../testing/voice-server';
import { SAMPLE_SENTENCE } from './samples';

// The real app with TTS_SERVER_URL pointing at a small server of Kokoro-FastAPI's protocol.
let fake: FakeVoiceServer;
let t: TestApp;
let headers: { authorization: string };

interface VoiceList {
  voices: { provider: string; id: string; name: string; language: string; sample_url: string; default: boolean }[];
  sources: { provider: string; name: string; status: string; detail?: string }[];
}

/** Polls `check` until it answers something (the state it waits for). */
async function eventually<T>(check: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('The state was not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const get = (url: string, h: Record<string, string> = headers) => t.app.inject({ method: 'GET', url, headers: h });

beforeAll(async () => {
  fake = await startFakeVoiceServer({ voices: ['af_heart', 'bm_george', 'custom-voice'], captions: true });
  t = await createTestApp({
    env: { TTS_SERVER_URL: fake.url, TTS_SERVER_NAME: 'Kokoro', ENCODER_THREADS: '0' },
    conversion: { voiceServer: { retry: { maxRetries: 0 }, refreshMs: 50, listTimeoutMs: 2000 } },
  });
  headers = await signIn(t, 'voices@example.com');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('GET /voices', () => {
  it('lists the voice server first, then the offline voice, each voice with its sample, one default', async () => {
    const res = await get('/api/v1/voices');
    expect(res.statusCode).toBe(200);
    const list = res.json() as VoiceList;
    expect(list.sources).toEqual([
      { provider: 'openai_compatible', name: 'Kokoro', status: 'ready' },
      { provider: 'offline', name: 'Offline voice', status: 'ready' },
    ]);
    const server = list.voices.filter((v) => v.provider === 'openai_compatible');
    expect(server.map((v) => [v.id, v.name, v.language])).toEqual([
      ['af_heart', 'Heart', 'en-US'],
      ['bm_george', 'George', 'en-GB'],
      ['custom-voice', 'custom-voice', 'und'],
    ]);
    expect(server[0]!.sample_url).toBe('/api/v1/voices/openai_compatible/af_heart/sample');
    expect(list.voices.filter((v) => v.default).map((v) => `${v.provider}/${v.id}`)).toEqual([
      'openai_compatible/af_heart',
    ]);
    const offline = list.voices.filter((v) => v.provider === 'offline').map((v) => v.id);
    expect(offline).toContain('en-us+f3');
    expect(offline).toContain('en-gb+m3');
    // No key: the cloud voices are not offered as choices.
    expect(list.voices.some((v) => v.provider === 'openai' || v.provider === 'elevenlabs')).toBe(false);
    expect((await get('/api/v1/voices', {})).statusCode).toBe(401);
  });

  it('follows the server: a voice added there is listed once the list is asked again', async () => {
    fake.setVoices(['af_heart', 'bm_george', 'custom-voice', 'af_nova']);
    await new Promise((r) => setTimeout(r, 80));
    const list = (await get('/api/v1/voices')).json() as VoiceList;
    expect(list.voices.map((v) => v.id)).toContain('af_nova');
  });
});

describe('the environment and readiness', () => {
  it('is out of demo mode while the voice server answers, and says whether it is reachable', async () => {
    const env = (await get('/api/v1/environment', {})).json() as {
      features: { demo_mode: boolean };
      voice_server?: { name: string; reachable: boolean };
    };
    expect(env.features.demo_mode).toBe(false);
    expect(env.voice_server).toEqual({ name: 'Kokoro', reachable: true });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { voice_server: 'ok' } });
  });

  it('reports the server down (without making Lectio unready), and the voice list says so', async () => {
    await fake.down();
    try {
      await new Promise((r) => setTimeout(r, 80));
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready', checks: { voice_server: 'unavailable', database: 'ok' } });
      const list = (await get('/api/v1/voices')).json() as VoiceList;
      expect(list.sources[0]).toEqual({
        provider: 'openai_compatible',
        name: 'Kokoro',
        status: 'unreachable',
        detail: 'Kokoro is not reachable right now',
      });
      expect(list.voices.some((v) => v.provider === 'openai_compatible')).toBe(false);
      expect(list.voices.find((v) => v.default)).toMatchObject({ provider: 'offline', id: 'en-us+f3' });
      // The environment answers at once with what it knew and asks again behind it: soon it knows.
      const env = await eventually(async () => {
        const answer = (await get('/api/v1/environment', {})).json() as {
          features: { demo_mode: boolean };
          voice_server: { reachable: boolean };
        };
        return answer.voice_server.reachable ? null : answer;
      });
      expect(env.features.demo_mode).toBe(true);
    } finally {
      await fake.up();
      await eventually(
        async () => ((await get('/api/v1/voices')).json() as VoiceList).sources[0]!.status === 'ready' || null,
      );
    }
  });
});

describe('voice samples', () => {
  it('are an MP3 of the fixed sentence, made once and then served from storage', async () => {
    const before = fake.spoken().length;
    const first = await get('/api/v1/voices/openai_compatible/bm_george/sample');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mpeg');
    expect(first.headers['cache-control']).toBe('private, max-age=86400');
    expect(first.rawPayload.length).toBeGreaterThan(1000);
    const again = await get('/api/v1/voices/openai_compatible/bm_george/sample');
    expect(again.statusCode).toBe(200);
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
    expect(fake.spoken().slice(before)).toEqual([SAMPLE_SENTENCE]);
    // Another user gets the same file, without another request to the server.
    const other = await signIn(t, 'other-listener@example.com');
    expect((await get('/api/v1/voices/openai_compatible/bm_george/sample', other)).statusCode).toBe(200);
    expect(fake.spoken().slice(before)).toHaveLength(1);
  });

  it('exist for the offline voices too; a voice that is not listed answers 404', async () => {
    const offline = await get('/api/v1/voices/offline/en-gb%2Bm3/sample');
    expect(offline.statusCode).toBe(200);
    expect(offline.headers['content-type']).toBe('audio/mpeg');
    const unknown = await get('/api/v1/voices/openai_compatible/nobody/sample');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ detail: 'There is no voice "nobody" of openai_compatible to sample' });
    expect((await get('/api/v1/voices/openai/alloy/sample')).statusCode).toBe(404);
    expect((await get('/api/v1/voices/klingon/alloy/sample')).statusCode).toBe(422);
  });
});

describe('creating a job with a voice', () => {
  it('refuses a voice the server does not have with 422, and one of the offline voice it does not list', async () => {
    const unknown = await createJob(t, headers, {
      title: 'Nobody reads',
      content: SHORT_TEXT,
      voice_config: { provider: 'openai_compatible', voice_id: 'xx_nobody' },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toMatch(/^Kokoro has no voice "xx_nobody" \(it has af_heart, bm_george/);
    const offline = await createJob(t, headers, {
      title: 'Nobody reads',
      content: SHORT_TEXT,
      voice_config: { provider: 'offline', voice_id: 'en-xx+q9' },
    });
    expect(offline.statusCode).toBe(422);
    expect(offline.json().detail).toMatch(/^The offline voice has no variant "en-xx\+q9"/);
  });
});
