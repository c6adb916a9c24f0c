import type { AddressInfo } from 'node:net';
import { createTokenService } from '../auth/tokens';
import { speechLikePcm } from '../testing/synthetic-pcm';
import { appStorage, insertJob, signedInUser } from '../testing/library-fixtures';
import { createTestApp, type TestApp } from '../testing/app';
import { OFFLINE_SPEECH_REPLY } from './connection';
import { HEARD_POSITION, ROCHESTER_SENTENCES, seedRochesterBook } from '../testing/assistant-fixtures';
import { TestVoiceClient, type ServerFrame } from '../testing/voice-client';

let t: TestApp;
let base: string;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
let annBook: string;
let bobBook: string;
const open: TestVoiceClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann@example.com');
  bob = await signedInUser(t.app, 'bob@example.com');
  annBook = await seedRochesterBook(t.db, storage, ann.id, { positionSeconds: HEARD_POSITION });
  bobBook = await seedRochesterBook(t.db, storage, bob.id, { positionSeconds: HEARD_POSITION });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/voice-assistant/ws`;
}, 60_000);
afterAll(() => t.close());
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

const auth = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });
const call = (method: 'GET' | 'POST', path: string, user: { token: string }, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1/voice-assistant/${path}`,
    headers: auth(user),
    ...(payload !== undefined && { payload }),
  });

async function connect(user: { token: string } | null, query = ''): Promise<TestVoiceClient> {
  const client = await TestVoiceClient.connect(`${base}?${user === null ? '' : `token=${user.token}`}${query}`);
  open.push(client);
  return client;
}

async function ensureStarted(user: { token: string }, payload: object) {
  await call('POST', 'stop', user);
  const res = await call('POST', 'start', user, payload);
  expect(res.statusCode).toBe(200);
}

const texts = (c: TestVoiceClient, type: string) => c.messages(type).map((m) => m.data.text);
const audioFrames = (c: TestVoiceClient) =>
  c.frames.filter((f): f is Extract<ServerFrame, { kind: 'audio' }> => f.kind === 'audio');

describe('voice assistant routes (per user)', () => {
  it('start, status, connect and stop are per user, each with its own mode and book', async () => {
    const stopped = await call('GET', 'status', ann);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({
      status: 'stopped',
      websocket_url: null,
      mcp_functions: [],
      mode: null,
      job_id: null,
      // No speech service configured (no OPENAI_API_KEY): the browser listens, or the reader types.
      speech_to_text: false,
      // No chat model either: the page says what offline answers can do.
      chat_model: false,
    });

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/voice-assistant/start',
      headers: { ...auth(ann), host: 'lectio.example:8443' },
      payload: { mode: 'xray', jobId: annBook },
    });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({
      status: 'running',
      websocket_url: 'ws://lectio.example:8443/api/v1/voice-assistant/ws',
      mcp_functions: [
        'search_library',
        'search_book',
        'xray_lookup',
        'tutor_turn',
        'book_outline',
        'current_position',
        'recent_events',
      ],
      mode: 'xray',
      job_id: annBook,
      speech_to_text: false,
      chat_model: false,
    });
    // Bob's session is untouched by Ann's, and starts with his own mode and book.
    expect((await call('GET', 'status', bob)).json().status).toBe('stopped');
    expect((await call('POST', 'connect', bob)).statusCode).toBe(503);
    expect((await call('POST', 'start', bob, { mode: 'tutor', jobId: bobBook })).json()).toMatchObject({
      mode: 'tutor',
      job_id: bobBook,
    });
    expect((await call('GET', 'status', ann)).json()).toMatchObject({
      status: 'running',
      mode: 'xray',
      job_id: annBook,
    });

    const connected = await call('POST', 'connect', ann);
    expect(connected.statusCode).toBe(200);
    expect(connected.json()).toEqual({ connectionUrl: 'ws://localhost/api/v1/voice-assistant/ws' });

    const stop = await call('POST', 'stop', ann);
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toEqual({
      status: 'stopped',
      websocket_url: null,
      mcp_functions: [],
      mode: null,
      job_id: null,
      speech_to_text: false,
      chat_model: false,
    });
    expect((await call('GET', 'status', bob)).json()).toMatchObject({
      status: 'running',
      mode: 'tutor',
      job_id: bobBook,
    });
    await call('POST', 'stop', bob);
  });

  it('refuses a book that is not the user’s or not finished (404), stop or connect when stopped', async () => {
    const notTheirs = await call('POST', 'start', bob, { mode: 'xray', jobId: annBook });
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json()).toEqual({
      detail: 'Book not found',
      message: 'Book not found',
      request_id: expect.any(String),
    });
    const pending = await insertJob(t.db, { userId: bob.id, title: 'Unfinished', status: 'PROCESSING' });
    expect((await call('POST', 'start', bob, { jobId: pending })).statusCode).toBe(404);
    expect((await call('GET', 'status', bob)).json().status).toBe('stopped');

    expect((await call('POST', 'start', bob, {})).statusCode).toBe(200);
    // The same start again answers the running session.
    const twice = await call('POST', 'start', bob, {});
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toMatchObject({ status: 'running', mode: null, job_id: null });
    expect((await call('POST', 'stop', bob)).statusCode).toBe(200);

    const stopAgain = await call('POST', 'stop', bob);
    expect(stopAgain.statusCode).toBe(409);
    expect(stopAgain.json().detail).toBe('The voice assistant is not running');
    const connect503 = await call('POST', 'connect', bob);
    expect(connect503.statusCode).toBe(503);
    expect(connect503.json().detail).toBe('The voice assistant is not running. Start it first.');

    expect((await t.app.inject({ method: 'GET', url: '/api/v1/voice-assistant/status' })).statusCode).toBe(401);
  });
});

describe('voice assistant websocket', () => {
  it('closes with 4003 for a missing, invalid or expired token and 1008 when the session is not started', async () => {
    await call('POST', 'stop', bob);
    expect(await (await connect(null)).closed).toEqual({
      code: 4003,
      reason: 'Unauthorized: invalid or expired token',
    });
    const expired = await createTokenService({
      secret: t.config.jwtSecret,
      ttlSeconds: 60,
      now: () => new Date(Date.now() - 3_600_000),
    }).issue(ann.id);
    expect((await (await connect({ token: expired.token })).closed).code).toBe(4003);
    expect(await (await connect(bob)).closed).toEqual({ code: 1008, reason: 'Voice assistant is not running' });
  });

  it('handshakes (bot-ready with the same id) and answers bad input without dropping the connection', async () => {
    await ensureStarted(ann, { mode: 'xray', jobId: annBook });
    const c = await connect(ann);
    c.send(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
    const malformed = await c.waitForMessage('error');
    expect(malformed.data).toMatchObject({ fatal: false });
    expect(String(malformed.data.error)).toMatch(/^Malformed frame: /);
    c.send('not a frame');
    await c.waitFor((f) => f.kind === 'message' && f.type === 'error' && String(f.data.error).includes('text message'));

    c.sendMessage('client-ready', { version: '9.0.0', about: { library: 'x' } }, 'old');
    const incompatible = await c.waitForMessage('error-response');
    expect(incompatible.id).toBe('old');
    expect(String(incompatible.data.error)).toContain(
      'RTVI version 9.0.0 is not compatible with server protocol 2.1.0',
    );

    const ready = await c.handshake('abc123');
    expect(ready).toMatchObject({
      id: 'abc123',
      data: { version: '2.1.0', about: { library: 'lectio', mode: 'xray', job_id: annBook } },
    });

    c.sendMessage('frobnicate', {}, 'u1');
    expect(await c.waitFor((f) => f.kind === 'message' && f.type === 'error-response' && f.id === 'u1')).toMatchObject({
      data: { error: 'Unsupported type frobnicate' },
    });
    c.sendMessage('client-message', { t: 'set-position', d: { seconds: 16 } }, 'p1');
    expect(await c.waitFor((f) => f.kind === 'message' && f.id === 'p1')).toMatchObject({
      type: 'server-response',
      data: { t: 'set-position', d: { job_id: annBook, seconds: 16 } },
    });
    c.sendMessage('client-message', { t: 'nope' }, 'p2');
    expect(await c.waitFor((f) => f.kind === 'message' && f.id === 'p2')).toMatchObject({ type: 'error-response' });

    c.sendAudio(new Int16Array(441), 44100);
    const wrongRate = await c.waitFor(
      (f) => f.kind === 'message' && f.type === 'error' && String(f.data.error).startsWith('Audio'),
    );
    expect(wrongRate).toMatchObject({
      data: { error: 'Audio must be 16000 Hz mono 16-bit PCM (got 44100 Hz)', fatal: false },
    });

    c.sendMessage('disconnect-bot', {});
    expect((await c.closed).code).toBe(1000);
  });

  it('closes an oversized frame (> 1 MB) with 1009 and a reason', async () => {
    await ensureStarted(ann, { mode: 'xray', jobId: annBook });
    const c = await connect(ann);
    await c.handshake();
    c.sendAudio(new Int16Array(600_000));
    expect(await c.closed).toEqual({ code: 1009, reason: 'Frame too large: the limit is 1 MB' });
  });

  it('answers a typed X-ray question spoiler-free, with tool-call messages and paced 24 kHz audio', async () => {
    await ensureStarted(ann, { mode: 'xray', jobId: annBook });
    const c = await connect(ann);
    await c.handshake();
    c.sendMessage('send-text', { content: 'Who is Mr. Rochester?' });
    await c.waitFor((f) => f.kind === 'audio', 10_000);
    await c.waitForMessage('bot-tts-stopped', 15_000);

    const answer = "Mr. Rochester hasn't appeared in what you've heard so far — keep listening!";
    expect(texts(c, 'bot-llm-text')).toEqual([answer]);
    expect(c.messages('bot-output').map((m) => m.data)).toEqual([
      { text: answer, aggregated_by: 'sentence', will_be_spoken: true },
    ]);
    expect(texts(c, 'bot-tts-text')).toEqual([answer]);
    const order = c.frames
      .map((f) => (f.kind === 'message' ? f.type : f.kind))
      .filter((k, i, all) => k !== 'audio' || all[i - 1] !== 'audio');
    expect(order).toEqual([
      'bot-ready',
      'user-llm-text',
      'bot-llm-started',
      // No chat model on this server: the client is told the answer is offline (reason no-model).
      'server-message',
      'llm-function-call-started',
      'llm-function-call-in-progress',
      'llm-function-call-stopped',
      'bot-llm-text',
      'bot-llm-stopped',
      'bot-tts-started',
      'bot-started-speaking',
      'bot-tts-text',
      'bot-output',
      'audio',
      'bot-stopped-speaking',
      'bot-tts-stopped',
    ]);
    expect(c.messages('llm-function-call-in-progress')[0]!.data).toMatchObject({
      function_name: 'xray_lookup',
      arguments: { job_id: annBook, query: 'Mr. Rochester' },
    });

    const audio = audioFrames(c);
    expect(audio.length).toBeGreaterThan(20);
    for (const frame of audio)
      expect(frame).toMatchObject({ bytes: 1920, sampleRate: 24000, numChannels: 1, name: 'audio' });
    // Paced at real time, not sent in a burst: frame k is scheduled at t0 + 40k ms, so the frames
    // can arrive late on a busy machine but never ahead of real time. (How fast the first audio
    // comes and how closely the frames keep time are figures for `npm run bench -- voice`.)
    const span = audio[audio.length - 1]!.at - audio[0]!.at;
    expect(span / (audio.length - 1)).toBeGreaterThan(37);

    // A position sent by the open player moves the bound: now he has appeared.
    c.sendMessage('client-message', { t: 'set-position', d: { seconds: 16 } }, 'p');
    await c.waitFor((f) => f.kind === 'message' && f.id === 'p');
    const from = c.frames.length;
    c.sendMessage('send-text', { content: 'Who is Mr. Rochester?', options: { audio_response: false } });
    const revealed = await c.waitForMessage('bot-output', 5000, from);
    expect(String(revealed.data.text)).toContain(ROCHESTER_SENTENCES[5]);
    expect(String(revealed.data.text)).not.toContain('horse');
    expect(revealed.data.will_be_spoken).toBe(false);
  }, 30_000);

  it('detects speech, answers once per utterance offline, and stops the bot when the user barges in', async () => {
    await ensureStarted(ann, { mode: 'xray', jobId: annBook });
    const c = await connect(ann);
    await c.handshake();
    // Speech then silence, sent faster than real time in 32 ms chunks (512 samples).
    const speech = speechLikePcm(1, 16000, 7);
    const silence = new Int16Array(16000);
    for (let i = 0; i < speech.length; i += 512) c.sendAudio(speech.subarray(i, i + 512));
    for (let i = 0; i < silence.length; i += 512) c.sendAudio(silence.subarray(i, i + 512));
    await c.waitForMessage('user-started-speaking');
    await c.waitForMessage('user-stopped-speaking');
    await c.waitFor((f) => f.kind === 'audio', 10_000);
    expect(texts(c, 'bot-output')).toEqual([OFFLINE_SPEECH_REPLY.split('. ')[0] + '.']);

    // The user speaks over the bot: its audio stops at once.
    for (let i = 0; i < 8000; i += 512) c.sendAudio(speech.subarray(i, i + 512));
    const interrupted = await c.waitForMessage('bot-interrupted');
    await c.waitForMessage('bot-stopped-speaking');
    const cut = c.frames.indexOf(interrupted);
    await new Promise((r) => setTimeout(r, 150));
    expect(c.frames.slice(cut).filter((f) => f.kind === 'audio')).toEqual([]);
    // Only the frame kinds every client knows: barge-in travels as an RTVI message.
    expect(c.frames.filter((f) => f.kind !== 'message' && f.kind !== 'audio')).toEqual([]);
    expect(c.messages('user-started-speaking')).toHaveLength(2);
    expect(c.messages('user-stopped-speaking')).toHaveLength(1);
  }, 30_000);

  it('tutor mode opens with a spoiler-free question; stopping closes only that user’s sockets', async () => {
    await ensureStarted(ann, { mode: 'xray', jobId: annBook });
    await ensureStarted(bob, { mode: 'tutor', jobId: bobBook });
    const a = await connect(ann);
    const b = await connect(bob);
    await a.handshake();
    await b.handshake();
    const opening = await b.waitForMessage('bot-llm-text');
    expect(opening.data.text).toBe("How does Helen Burns shape Jane's view of suffering?");
    expect(a.messages('bot-llm-text')).toEqual([]);

    await call('POST', 'stop', bob);
    expect(await b.closed).toEqual({ code: 1000, reason: 'Voice assistant stopped' });
    a.sendMessage('client-message', { t: 'get-session' }, 's');
    expect(await a.waitFor((f) => f.kind === 'message' && f.id === 's')).toMatchObject({
      data: { d: { mode: 'xray', job_id: annBook } },
    });
  }, 20_000);

  it('switches the session when started with another mode: the old socket closes, the new one is in the new mode', async () => {
    await ensureStarted(ann, { mode: 'xray', jobId: annBook });
    const xray = await connect(ann);
    await xray.handshake();

    const switched = await call('POST', 'start', ann, { mode: 'tutor', jobId: annBook });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toMatchObject({ status: 'running', mode: 'tutor', job_id: annBook });
    expect(await xray.closed).toEqual({ code: 1000, reason: 'Voice assistant switched to another mode or book' });
    expect((await call('GET', 'status', ann)).json()).toMatchObject({ mode: 'tutor', job_id: annBook });

    const tutor = await connect(ann);
    await tutor.handshake();
    tutor.sendMessage('client-message', { t: 'get-session' }, 's');
    expect(await tutor.waitFor((f) => f.kind === 'message' && f.id === 's')).toMatchObject({
      data: { d: { mode: 'tutor', job_id: annBook } },
    });
    // The tutor opens with a question, not an X-ray answer.
    expect((await tutor.waitForMessage('bot-llm-text')).data.text).toMatch(/\?$/);
  }, 20_000);
});

describe('a server shutting down', () => {
  it('closes open voice sockets with 1012 (restarting), a code the client reconnects on', async () => {
    const s = await createTestApp();
    const carl = await signedInUser(s.app, 'carl@example.com');
    const carlBook = await seedRochesterBook(s.db, appStorage(s.config), carl.id, { positionSeconds: HEARD_POSITION });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(s.app.server.address() as AddressInfo).port}/api/v1/voice-assistant/ws`;
    expect(
      (
        await s.app.inject({
          method: 'POST',
          url: '/api/v1/voice-assistant/start',
          headers: auth(carl),
          payload: { mode: 'xray', jobId: carlBook },
        })
      ).statusCode,
    ).toBe(200);
    const c = await TestVoiceClient.connect(`${url}?token=${carl.token}`);
    await c.handshake();
    await s.close();
    expect(await c.closed).toEqual({ code: 1012, reason: 'Server restarting; reconnect' });
  }, 30_000);
});
