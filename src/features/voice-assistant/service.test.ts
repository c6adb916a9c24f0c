import { QueryClient } from '@tanstack/react-query';
import { setupServer } from 'msw/node';
import { subscribe } from 'valtio';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetVoiceAssistantStatusQueryKey } from '../../api/gen/endpoints/voice-assistant';
import { getGetVoiceAssistantStatusMockHandler } from '../../api/gen/endpoints/voice-assistant/get-voice-assistant-status.msw';
import { getStartVoiceAssistantMockHandler } from '../../api/gen/endpoints/voice-assistant/start-voice-assistant.msw';
import type { VoiceAssistantStatus } from '../../api/gen/model';
import { configureApi } from '../../api/http';
import { errorBodyFixture } from '../../mocks/fixtures';
import { handlers } from '../../mocks/handlers';
import {
  VOICE_FUNCTIONS,
  VOICE_WS_URL,
  voiceStartHandler,
  voiceStatusFixture,
  voiceStatusHandler,
  voiceStopHandler,
} from '../../mocks/voice';
import {
  FakeAudioIO,
  fakeRecognition,
  FakeTransport,
  type FakeRecognizer,
  type FakeTransportOptions,
} from '../../testing/voice-fakes';
import { rtvi } from '../../voice-transport/rtvi';
import { connect, connectionUrlWith, disconnect, NOBODY_HEARS, sendText } from './connection';
import { configureVoiceAssistant } from './deps';
import { micProblemOf } from './problems';
import {
  ask,
  attachVoiceAssistant,
  checkStatus,
  resetVoiceAssistant,
  serviceStatus,
  setContext,
  start,
  stop,
  talk,
  watchStatus,
} from './service';
import { state, talkState } from './store';

const server = setupServer(...handlers);
let transport: FakeTransport;
let audio: FakeAudioIO;
/** The test's own data cache, handed to the feature as the app hands it its own. */
let cache: QueryClient;

function useFakes(
  options: FakeTransportOptions = {},
  token: string | null = 'tok-1',
  micError: Error | null = null,
  secure = true,
) {
  configureVoiceAssistant({
    createTransport: () => (transport = new FakeTransport({ answerDelayMs: 1, ...options })),
    createAudio: () => (audio = new FakeAudioIO(micError)),
    getToken: () => token,
    location: () => 'http://localhost/voice-assistant',
    isSecureContext: () => secure,
  });
}

function requestsTo(path: string): Request[] {
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    if (new URL(request.url).pathname === path) seen.push(request.clone());
  });
  return seen;
}

const statusKey = getGetVoiceAssistantStatusQueryKey();
/** The status answer the data cache holds (what every reader of the page is shown). */
const cachedStatus = () => cache.getQueryData<VoiceAssistantStatus>(statusKey);

/** The server last said the session runs (as a start or a status answer would have). */
const running = (overrides: Partial<VoiceAssistantStatus> = {}) => {
  resetVoiceAssistant();
  cache.setQueryData(statusKey, voiceStatusFixture({ status: 'running', ...overrides }));
};

/** A request the test answers when it says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const book = '9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost' });
});
beforeEach(() => {
  cache = new QueryClient();
  attachVoiceAssistant(cache);
  resetVoiceAssistant();
  useFakes();
});
afterEach(() => {
  server.resetHandlers();
  server.events.removeAllListeners();
  resetVoiceAssistant();
  configureVoiceAssistant(null);
  cache.clear();
});
afterAll(() => server.close());

describe('voice assistant: service', () => {
  it('starts unknown and disconnected, with no status answer yet', () => {
    expect(serviceStatus()).toBe('unknown');
    expect(state).toMatchObject({ clientStatus: 'disconnected', error: null });
    expect(cachedStatus()).toBeUndefined();
  });

  it("keeps the server's status answer in the query cache, never in the page's state", async () => {
    server.use(voiceStatusHandler({ status: 'running', mode: 'xray', job_id: book, speech_to_text: false }));
    await checkStatus();
    expect(serviceStatus()).toBe('running');
    expect(cachedStatus()).toEqual({
      status: 'running',
      websocket_url: VOICE_WS_URL,
      mcp_functions: VOICE_FUNCTIONS,
      mode: 'xray',
      job_id: book,
      speech_to_text: false,
    });
    // The valtio state holds client state only: nothing the server said about the session.
    for (const key of ['serviceStatus', 'websocketUrl', 'toolNames', 'sessionMode', 'hearing'])
      expect(state).not.toHaveProperty(key);
    expect(JSON.stringify(state)).not.toContain(VOICE_WS_URL);
    expect(JSON.stringify(state)).not.toContain(VOICE_FUNCTIONS[0]);
  });

  it('status errors prefer the server detail, else "Failed to check status: " and what to do', async () => {
    server.use(voiceStatusHandler({}, { status: 503, body: errorBodyFixture('Voice service unavailable') }));
    await checkStatus();
    expect(serviceStatus()).toBe('error');
    expect(state.error).toBe('Voice service unavailable');
    server.use(voiceStatusHandler({}, { status: 500 }));
    await checkStatus();
    expect(state.error).toBe('Failed to check status: the server could not do it just now. Try again in a moment.');
    // The next answer clears it.
    server.use(voiceStatusHandler({ status: 'stopped' }));
    await checkStatus();
    expect(serviceStatus()).toBe('stopped');
    expect(state.error).toBeNull();
  });

  it('start goes starting -> running with the mode and job id, its answer cached; failure gives "Failed to start service"', async () => {
    resetVoiceAssistant({ mode: 'xray', jobId: book });
    const seen = requestsTo('/api/v1/voice-assistant/start');
    const starting = start();
    expect(serviceStatus()).toBe('starting');
    await starting;
    expect(serviceStatus()).toBe('running');
    expect(cachedStatus()).toMatchObject({
      status: 'running',
      websocket_url: VOICE_WS_URL,
      mcp_functions: VOICE_FUNCTIONS,
      mode: 'xray',
      job_id: book,
    });
    expect(await seen[0]?.json()).toEqual({ mode: 'xray', jobId: book });
    server.use(voiceStartHandler({}, { status: 500 }));
    await start();
    expect(serviceStatus()).toBe('error');
    expect(state.error).toBe('Failed to start service: the server could not do it just now. Try again in a moment.');
  });

  it('a start owns the status until it answers: an older status answer neither shows, switches nor stays', async () => {
    const startAnswer = gate();
    const statusAnswer = gate();
    server.use(
      getStartVoiceAssistantMockHandler(async () => {
        await startAnswer.opened;
        return voiceStatusFixture({ status: 'running', mode: 'tutor', job_id: book });
      }),
      // The session running before the start: X-ray.
      voiceStatusHandler({ status: 'running', mode: 'xray', job_id: book }),
    );
    const starts = requestsTo('/api/v1/voice-assistant/start');
    const statuses = requestsTo('/api/v1/voice-assistant/status');
    resetVoiceAssistant({ mode: 'tutor', jobId: book });
    const starting = start();
    // A status answer lands while the start is out: still Starting, and no second start.
    await checkStatus();
    expect(serviceStatus()).toBe('starting');
    expect(starts).toHaveLength(1);
    // Another status request is out when the start answers: its older answer is dropped.
    server.use(
      getGetVoiceAssistantStatusMockHandler(async () => {
        await statusAnswer.opened;
        return voiceStatusFixture({ status: 'running', mode: 'xray', job_id: book });
      }),
    );
    const checking = checkStatus();
    await vi.waitFor(() => expect(statuses).toHaveLength(2));
    startAnswer.open();
    await starting;
    statusAnswer.open();
    await checking;
    expect(starts).toHaveLength(1);
    expect(serviceStatus()).toBe('running');
    expect(cachedStatus()).toMatchObject({ mode: 'tutor', job_id: book });
    expect(state.error).toBeNull();
  });

  it('stop caches the stopped answer (no websocket URL, no tools); failure gives "Failed to stop service"', async () => {
    running();
    await stop();
    expect(serviceStatus()).toBe('stopped');
    expect(cachedStatus()).toMatchObject({ status: 'stopped', websocket_url: null, mcp_functions: [] });
    running();
    server.use(voiceStopHandler({ status: 500 }));
    await stop();
    expect(serviceStatus()).toBe('error');
    expect(state.error).toBe('Failed to stop service: the server could not do it just now. Try again in a moment.');
  });

  it('switches a running session in another mode or book to the one the page asks for, and reconnects', async () => {
    // X-ray runs and the reader is connected; then they choose "Ask Tutor" on the same book.
    server.use(
      voiceStatusHandler({ status: 'running', mode: 'xray', job_id: book }),
      voiceStartHandler({ mode: 'tutor', job_id: book }),
    );
    resetVoiceAssistant({ mode: 'xray', jobId: book });
    await checkStatus();
    await connect();
    expect(state.clientStatus).toBe('connected');
    const firstTransport = transport;
    const starts = requestsTo('/api/v1/voice-assistant/start');

    setContext({ mode: 'tutor' });
    await vi.waitFor(() => expect(cachedStatus()?.mode).toBe('tutor'));
    await vi.waitFor(() => expect(state.clientStatus).toBe('connected'));
    expect(starts).toHaveLength(1);
    expect(await starts[0]!.json()).toEqual({ mode: 'tutor', jobId: book });
    expect(serviceStatus()).toBe('running');
    expect(transport).not.toBe(firstTransport);

    // The same mode and book: nothing to switch.
    server.use(voiceStatusHandler({ status: 'running', mode: 'tutor', job_id: book }));
    await checkStatus();
    expect(starts).toHaveLength(1);
  });

  it('leaves a running session alone when the page names no mode or book', async () => {
    server.use(voiceStatusHandler({ status: 'running', mode: 'xray', job_id: book }));
    const starts = requestsTo('/api/v1/voice-assistant/start');
    await checkStatus();
    expect(serviceStatus()).toBe('running');
    expect(starts).toHaveLength(0);
  });

  it('polls the status every 10 s while running, each answer refreshing the cache; stops polling once stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      server.use(voiceStatusHandler({ status: 'running' }));
      const seen = requestsTo('/api/v1/voice-assistant/status');
      const unwatch = watchStatus();
      await vi.waitFor(() => expect(serviceStatus()).toBe('running'));
      expect(seen).toHaveLength(1);
      // The server's answer changes: the next poll brings it into the cache.
      server.use(voiceStatusHandler({ status: 'running', mcp_functions: ['search_book'] }));
      vi.advanceTimersByTime(10_000);
      await vi.waitFor(() => expect(cachedStatus()?.mcp_functions).toEqual(['search_book']));
      expect(seen).toHaveLength(2);
      server.use(voiceStatusHandler({ status: 'stopped' }));
      vi.advanceTimersByTime(10_000);
      await vi.waitFor(() => expect(serviceStatus()).toBe('stopped'));
      // Stopped: no more polls.
      vi.advanceTimersByTime(30_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toHaveLength(3);
      unwatch();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('voice assistant: client', () => {
  it('connect does nothing without a websocket URL', async () => {
    const seen = requestsTo('/api/v1/voice-assistant/connect');
    await connect();
    expect(seen).toHaveLength(0);
    expect(state.clientStatus).toBe('disconnected');
  });

  it("connect without a stored token: 'No authentication token found'", async () => {
    useFakes({}, null);
    running();
    await connect();
    expect(state.error).toBe('No authentication token found');
    expect(state.clientStatus).toBe('disconnected');
  });

  it('connects to the URL the start answered (no second request), with token and position, mic on, camera off', async () => {
    const seen = requestsTo('/api/v1/voice-assistant/connect');
    running({ websocket_url: 'http://localhost:8080/api/v1/voice-assistant/ws?session=s1' });
    state.position = 125.5;
    const connecting = connect();
    expect(state.clientStatus).toBe('connecting');
    await connecting;
    expect(state).toMatchObject({
      clientStatus: 'connected',
      micEnabled: true,
      camEnabled: false,
      remoteParticipant: { id: 'bot', name: 'Bot' },
    });
    const url = new URL((transport.connectParams as { ws_url: string }).ws_url);
    expect(url.protocol).toBe('ws:');
    expect(Object.fromEntries(url.searchParams)).toEqual({ session: 's1', token: 'tok-1', position: '125.5' });
    expect(audio.micOn).toBe(true);
    audio.speak(new Int16Array(512));
    expect(transport.audio).toHaveLength(1);
    expect(seen).toHaveLength(0);
  });

  it("connect failures: 'Connection failed: {why}' and client status error", async () => {
    useFakes({ connect: { fail: 'Failed to connect to websocket: Voice assistant is not running' } });
    running();
    await connect();
    // The server's reason for closing is passed on; the socket library's own words never are.
    expect(state).toMatchObject({ clientStatus: 'error', error: 'Connection failed: Voice assistant is not running' });
    useFakes({ connect: { fail: 'websocket connection timed out' } });
    await connect();
    expect(state).toMatchObject({
      clientStatus: 'error',
      error: 'Connection failed: the voice assistant did not answer in time. Try again.',
    });
    useFakes({ connect: { fail: 'Failed to connect to websocket: websocket error' } });
    await connect();
    expect(state.error).toBe(
      'Connection failed: the voice assistant could not be reached. Check your connection, then try again.',
    );
  });

  it('disconnect during connecting ends quietly in disconnected', async () => {
    useFakes({ connect: 'never' });
    running();
    const connecting = connect();
    await vi.waitFor(() => expect(transport?.state).toBe('connecting'));
    await disconnect();
    await connecting;
    expect(state).toMatchObject({ clientStatus: 'disconnected', error: null });
  });

  it('sendText sends RTVI send-text and the transcript shows the question and the streamed answer', async () => {
    useFakes({ answer: (q) => `About "${q}": the old man's eye.` });
    running();
    await connect();
    expect(sendText('  Who is this character?  ')).toBe(true);
    expect(transport.sent.at(-1)).toMatchObject({
      label: 'rtvi-ai',
      type: 'send-text',
      data: { content: 'Who is this character?', options: { run_immediately: true, audio_response: true } },
    });
    await vi.waitFor(() => expect(state.transcript.at(-1)).toMatchObject({ speaker: 'bot', final: true }));
    expect(state.transcript.map(({ speaker, text, final }) => ({ speaker, text, final }))).toEqual([
      { speaker: 'user', text: 'Who is this character?', final: true },
      { speaker: 'bot', text: 'About "Who is this character?": the old man\'s eye.', final: true },
    ]);
  });

  it('voice turns: partial then final user transcription; interruption drops queued bot audio', async () => {
    running();
    await connect();
    transport.userSays('What just', false);
    transport.userSays('What just happened?', true);
    transport.botAudio({ pcm: new Int16Array(960), sampleRate: 24000, numChannels: 1 });
    expect(audio.played).toHaveLength(1);
    transport.interrupt();
    expect(audio.played).toHaveLength(0);
    expect(audio.stops).toBeGreaterThan(0);
    expect(state.transcript).toEqual([
      {
        id: expect.any(Number),
        speaker: 'user',
        text: 'What just happened?',
        final: true,
        at: expect.any(Number),
        mode: null,
      },
    ]);
  });

  it("a fatal transport error sets client status error with what to do (never the socket library's words); disconnect resets", async () => {
    running();
    await connect();
    transport.fail('websocket reconnect failed');
    expect(state).toMatchObject({
      clientStatus: 'error',
      error: 'Connection lost: the voice assistant could not be reached. Check your connection, then try again.',
      remoteParticipant: null,
    });
    expect(audio.closed).toBe(true);
    await connect();
    expect(state.clientStatus).toBe('connected');
    await disconnect();
    expect(state).toMatchObject({ clientStatus: 'disconnected', micEnabled: false });
    expect(sendText('hello?')).toBe(false);
  });

  it('builds connection URLs from relative and https answers', () => {
    expect(connectionUrlWith('/api/v1/voice-assistant/ws', 'https://app.example/voice-assistant', 't', null)).toBe(
      'wss://app.example/api/v1/voice-assistant/ws?token=t',
    );
  });
});

describe('voice assistant: the conversation page', () => {
  const talking = () => talkState(state);

  it('talk starts the session the page asks for, then connects with the microphone on', async () => {
    const starts = requestsTo('/api/v1/voice-assistant/start');
    setContext({ mode: 'xray', jobId: book, position: 42 });
    await talk();
    expect(await starts[0]!.json()).toEqual({ mode: 'xray', jobId: book });
    expect(serviceStatus()).toBe('running');
    expect(state).toMatchObject({ clientStatus: 'connected', micEnabled: true });
    expect(talking()).toBe('listening');
    expect(new URL((transport.connectParams as { ws_url: string }).ws_url).searchParams.get('position')).toBe('42');
  });

  it('a typed question with no conversation running starts one and is asked', async () => {
    useFakes({ answer: () => 'Elizabeth keeps the lighthouse.' });
    expect(await ask('Who is Elizabeth?')).toBe(true);
    expect(transport.sent.filter((m) => m.type === 'send-text')).toHaveLength(1);
    await vi.waitFor(() =>
      expect(state.transcript.at(-1)).toMatchObject({
        speaker: 'bot',
        text: 'Elizabeth keeps the lighthouse.',
        final: true,
      }),
    );
    expect(await ask('   ')).toBe(false);
  });

  it('goes listening -> thinking -> speaking -> listening around an answer', async () => {
    useFakes({ answerDelayMs: 5, speakMs: 400 });
    running();
    await connect();
    expect(talking()).toBe('listening');
    sendText('Where does the story take place?');
    expect(talking()).toBe('thinking');
    await vi.waitFor(() => expect(talking()).toBe('speaking'), { interval: 5 });
    await vi.waitFor(() => expect(talking()).toBe('listening'));
    // A spoken question: thinking from the end of the utterance.
    transport.serverSends(rtvi('user-started-speaking'));
    transport.serverSends(rtvi('user-stopped-speaking'));
    expect(talking()).toBe('thinking');
    transport.serverSends(rtvi('error-response', { error: 'The assistant could not answer' }));
    expect(talking()).toBe('listening');
  });

  it('assistant-fallback: the notice shows, the turn is kept and marked offline; a model answer clears it', async () => {
    let offline = true;
    useFakes({
      answer: (q) => `Answer to ${q}`,
      serverMessages: () =>
        offline
          ? [
              {
                t: 'assistant-fallback',
                d: { reason: 'timeout', message: 'The language model did not answer (timeout).' },
              },
            ]
          : [],
    });
    running();
    await connect();
    sendText('Who is Marlowe?');
    await vi.waitFor(() => expect(state.transcript.at(-1)).toMatchObject({ speaker: 'bot', final: true }));
    expect(state.fallback).toEqual({ reason: 'timeout', message: 'The language model did not answer (timeout).' });
    expect(state.transcript.map(({ speaker, text, offline: o }) => ({ speaker, text, offline: o }))).toEqual([
      { speaker: 'user', text: 'Who is Marlowe?', offline: undefined },
      { speaker: 'bot', text: 'Answer to Who is Marlowe?', offline: true },
    ]);
    offline = false;
    sendText('And Elizabeth?');
    await vi.waitFor(() => expect(state.transcript).toHaveLength(4));
    await vi.waitFor(() => expect(state.fallback).toBeNull());
    expect(state.transcript[3]!.offline).toBeUndefined();
  });

  it('open-book: the request is kept (numbered) and attached to the bot turn that answers', async () => {
    useFakes({
      answer: () => 'Continuing The Keeper of the Cape from 2:05.',
      serverMessages: () => [
        { t: 'open-book', d: { job_id: book, title: 'The Keeper of the Cape', position_seconds: 125 } },
      ],
    });
    running();
    await connect();
    sendText('continue the keeper');
    await vi.waitFor(() => expect(state.transcript.at(-1)).toMatchObject({ speaker: 'bot', final: true }));
    const request = { jobId: book, title: 'The Keeper of the Cape', positionSeconds: 125 };
    expect(state.openBook).toEqual({ ...request, seq: expect.any(Number) });
    expect(state.transcript.at(-1)!.openBook).toEqual(request);
    const first = state.openBook!.seq;
    sendText('continue it again');
    await vi.waitFor(() => expect(state.openBook!.seq).toBeGreaterThan(first));
    // A malformed request is ignored.
    transport.serverSends(rtvi('server-message', { t: 'open-book', d: { title: 'no id' } }));
    expect(state.openBook!.title).toBe('The Keeper of the Cape');
  });

  it('a typed answer whose audio cannot play shows its text at once and never says "Speaking"', async () => {
    configureVoiceAssistant({
      createTransport: () => (transport = new FakeTransport({ answerDelayMs: 1, speakMs: 50 })),
      createAudio: () => {
        audio = new FakeAudioIO();
        // The browser refused to start audio (autoplay): nothing plays.
        audio.blocked = true;
        return audio;
      },
    });
    running();
    await connect();
    const seen: string[] = [];
    const unwatch = subscribe(state, () => seen.push(talkState(state)));
    sendText('Who is Nell?');
    await vi.waitFor(() => expect(state.transcript[1]?.text).toBeTruthy());
    await vi.waitFor(() => expect(transport.sent.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 120));
    unwatch();
    expect(seen).not.toContain('speaking');
    expect(talkState(state)).toBe('listening');
  });

  it('a moving position reaches the live conversation once per whole second (set-position)', async () => {
    running();
    setContext({ mode: 'xray', jobId: book, position: 10.2 });
    await connect();
    const positions = () => transport.sent.filter((m) => m.type === 'client-message').map((m) => m.data);
    setContext({ position: 10.9 });
    expect(positions()).toEqual([]);
    setContext({ position: 11.1 });
    setContext({ position: 11.6 });
    setContext({ position: 14 });
    expect(positions()).toEqual([
      { t: 'set-position', d: { seconds: 11, job_id: book } },
      { t: 'set-position', d: { seconds: 14, job_id: book } },
    ]);
  });

  it('a microphone that cannot open leaves typing on, with the reason', async () => {
    const denied = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
    useFakes({}, 'tok-1', denied);
    running();
    await connect();
    expect(state).toMatchObject({ clientStatus: 'connected', micEnabled: false, error: null });
    expect(state.micProblem).toMatch(/permission was denied/);
    expect(talking()).toBe('typing');
    expect(sendText('Who is Elizabeth?')).toBe(true);

    expect(micProblemOf(Object.assign(new Error('none'), { name: 'NotFoundError' }), true)).toMatch(
      /no microphone was found/,
    );
    expect(micProblemOf(new TypeError("Cannot read properties of undefined (reading 'getUserMedia')"), false)).toMatch(
      /not served over HTTPS/,
    );
    // Any other failure is said in words, never with the browser's own text.
    const odd = micProblemOf(new Error('AbortError: Starting videoinput failed'), true);
    expect(odd).toBe('The microphone is off: the browser could not open it. Check its settings, then start again.');
  });

  it('without a speech service on the server, the browser hears the reader: what it heard is asked, as typed', async () => {
    const recognizers: FakeRecognizer[] = [];
    configureVoiceAssistant({ speechRecognition: () => fakeRecognition(recognizers) });
    useFakes({ answerDelayMs: 5, speakMs: 300, answer: () => 'Mara keeps the lighthouse.' });
    server.use(voiceStartHandler({ speech_to_text: false }));
    setContext({ mode: 'xray', jobId: book });
    await talk();
    // The browser listens; the microphone runs for its level meter, and none of its audio goes to
    // a server that cannot hear it.
    expect(recognizers).toHaveLength(1);
    expect(recognizers[0]!.started).toBe(true);
    expect(audio.micOn).toBe(true);
    audio.speak(new Int16Array(320).fill(1000));
    expect(transport.audio).toHaveLength(0);
    expect(transport.isMicEnabled).toBe(false);
    expect(talking()).toBe('listening');

    recognizers[0]!.say('Who keeps the lighthouse?');
    expect(transport.sent.filter((m) => m.type === 'send-text').map((m) => m.data)).toEqual([
      { content: 'Who keeps the lighthouse?', options: { run_immediately: true, audio_response: true } },
    ]);
    expect(state.transcript.at(-1)).toMatchObject({ speaker: 'user', text: 'Who keeps the lighthouse?' });
    expect(talking()).toBe('thinking');
    // While the assistant speaks, the browser does not listen (it would hear the assistant).
    await vi.waitFor(() => expect(talking()).toBe('speaking'), { interval: 5 });
    expect(recognizers[0]!.paused).toBe(true);
    await vi.waitFor(() => expect(talking()).toBe('listening'));
    expect(recognizers[0]!.paused).toBe(false);
    expect(state.transcript.at(-1)).toMatchObject({ speaker: 'bot', text: 'Mara keeps the lighthouse.' });

    await disconnect();
    expect(recognizers[0]!.stopped).toBe(true);
  });

  it('a browser that may not listen says why, and typing stays', async () => {
    const recognizers: FakeRecognizer[] = [];
    configureVoiceAssistant({ speechRecognition: () => fakeRecognition(recognizers) });
    server.use(voiceStartHandler({ speech_to_text: false }));
    await talk();
    recognizers[0]!.deny();
    expect(state.micEnabled).toBe(false);
    expect(audio.micOn).toBe(false);
    expect(state.micProblem).toMatch(/permission was denied/);
    expect(talking()).toBe('typing');
    expect(sendText('Who is Mara?')).toBe(true);
  });

  it('where neither the server nor the browser can hear, the conversation is typed, and the page says so', async () => {
    configureVoiceAssistant({ speechRecognition: () => null });
    server.use(voiceStartHandler({ speech_to_text: false }));
    await talk();
    expect(state).toMatchObject({ clientStatus: 'connected', micEnabled: false });
    expect(state.micProblem).toBe(NOBODY_HEARS);
    expect(audio.micOn).toBe(false);
    expect(talking()).toBe('typing');
    expect(sendText('Who is Mara?')).toBe(true);
  });

  it('a server with a speech service hears the microphone itself, whatever the browser offers', async () => {
    const recognizers: FakeRecognizer[] = [];
    configureVoiceAssistant({ speechRecognition: () => fakeRecognition(recognizers) });
    server.use(voiceStartHandler({ speech_to_text: true }));
    await talk();
    expect(recognizers).toHaveLength(0);
    expect(audio.micOn).toBe(true);
  });
});
