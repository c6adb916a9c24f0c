import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { createOfflineBrain } from './brain';
import { memoryBookSource } from './books';
import { FALLBACK_MESSAGE, NO_MODEL_NOTICE, withModel, withoutModel } from './model';
import { serveVoiceAssistant, type ServedAssistant } from '../testing/voice-socket';
import { createVoiceAssistant, type AssistantEngines } from './service';
import { CHAPTER_1, POSITION, SPOILERS, UNHEARD, lighthouse } from '../testing/keeper-book';
import { rochesterBook, rochesterText } from '../testing/assistant-fixtures';
import { TestVoiceClient } from '../testing/voice-client';

interface ChatRequest {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
  authorization: string | undefined;
}

type Script = (request: ChatRequest, res: ServerResponse) => void;

/** A local OpenAI-compatible chat-completions server that answers each request with the next scripted step. */
function fakeModelServer() {
  const requests: ChatRequest[] = [];
  const script: Script[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(parts).toString()) as Omit<ChatRequest, 'authorization'>;
      const request = { ...body, authorization: req.headers.authorization };
      requests.push(request);
      const step = script.shift();
      if (step === undefined)
        return void res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"no scripted step"}}');
      step(request, res);
    });
  });
  return { server, requests, script };
}

const completion = (message: object) => (_req: ChatRequest, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      id: 'c1',
      object: 'chat.completion',
      created: 0,
      model: 'fake',
      choices: [{ index: 0, message, finish_reason: 'stop' }],
    }),
  );
const toolCall = (name: string, args: object) =>
  completion({
    role: 'assistant',
    content: null,
    tool_calls: [{ id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
const say = (content: string) => completion({ role: 'assistant', content });

const { book, text } = lighthouse();
const other = rochesterBook();
let fake: ReturnType<typeof fakeModelServer>;
let baseURL: string;
const running: ServedAssistant[] = [];
const clients: TestVoiceClient[] = [];

beforeAll(async () => {
  fake = fakeModelServer();
  await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const served of running.splice(0)) {
    await served.close();
  }
  fake.script.length = 0;
  fake.requests.length = 0;
});
afterAll(() => new Promise((r) => fake.server.close(r)));

/** The assistant with the model option over a text-only voice, a session in `mode` on the lighthouse book. */
async function connect(
  mode: 'xray' | 'tutor' | null,
  options: { timeoutMs?: number; coolDownMs?: number; noModel?: boolean } = {},
): Promise<TestVoiceClient> {
  const offline: AssistantEngines = {
    synthesize: async () => new Int16Array(0),
    speechToText: null,
    chatModel: false,
    brain: ({ session, callTool }) => createOfflineBrain({ mode: session.mode, jobId: session.jobId, callTool }),
  };
  const assistant = createVoiceAssistant({
    books: memoryBookSource([
      { userId: 'ann', book, text, position: POSITION },
      { userId: 'bob', book: other, text: rochesterText(), position: 100 },
    ]),
    engines: options.noModel
      ? withoutModel(offline)
      : withModel(offline, {
          url: baseURL,
          model: 'llama3.1:8b',
          key: 'local-key',
          timeoutMs: options.timeoutMs ?? 5000,
          coolDownMs: options.coolDownMs ?? 0,
        }),
  });
  const served = await serveVoiceAssistant(assistant, 'ann');
  running.push(served);
  await assistant.sessions.start('ann', { ...(mode !== null && { mode, jobId: book.id }) });
  const c = await TestVoiceClient.connect(served.url);
  clients.push(c);
  await c.handshake();
  return c;
}

async function ask(c: TestVoiceClient, question: string, timeoutMs = 5000): Promise<{ answer: string; from: number }> {
  const from = c.frames.length;
  c.sendMessage('send-text', { content: question, options: { audio_response: false } });
  const answer = String((await c.waitForMessage('bot-output', timeoutMs, from)).data.text);
  return { answer, from };
}

const after = (c: TestVoiceClient, type: string, from: number) =>
  c.messages(type).filter((m) => c.frames.indexOf(m) >= from);

describe('the assistant with a chat model (ASSISTANT_MODEL_URL)', () => {
  it('answers from the model, which calls the same position-bounded tools', async () => {
    const c = await connect('xray');
    fake.script.push(
      toolCall('xray_lookup', { job_id: book.id, kind: 'setting' }),
      say('It is set on Gull Island, off the coast of Cornwall, in the winter of 1893.'),
    );
    const { answer, from } = await ask(c, 'Where does the story take place?');
    expect(answer).toBe('It is set on Gull Island, off the coast of Cornwall, in the winter of 1893.');

    const [first, second] = fake.requests;
    expect(first!.model).toBe('llama3.1:8b');
    expect(first!.authorization).toBe('Bearer local-key');
    expect(first!.tools?.map((t) => t.function.name)).toEqual([
      'search_library',
      'search_book',
      'xray_lookup',
      'tutor_turn',
      'book_outline',
      'current_position',
      'recent_events',
    ]);
    expect(first!.messages[0]!.content).toContain(`job_id ${book.id}`);
    expect(first!.messages.at(-1)).toEqual({ role: 'user', content: 'Where does the story take place?' });
    // The model saw the tool's answer: heard places and their passage, nothing past the position.
    const tool = second!.messages.at(-1)!;
    expect(tool.role).toBe('tool');
    expect(tool.content).toContain(CHAPTER_1[0]);
    for (const word of SPOILERS) expect(tool.content).not.toContain(word);
    // The client saw the tool call.
    expect(after(c, 'llm-function-call-started', from).map((m) => m.data.function_name)).toEqual(['xray_lookup']);
    expect(after(c, 'server-message', from).filter((m) => m.data.t === 'assistant-fallback')).toEqual([]);
  });

  it("a model that asks for text past the position or for another user's book gets nothing", async () => {
    const c = await connect('xray');
    fake.script.push(
      toolCall('search_book', { job_id: book.id, query: 'Elias Thorne map Lundy gold' }),
      toolCall('xray_lookup', { job_id: other.id, query: 'Jane' }),
      say('I cannot tell you that yet.'),
    );
    expect((await ask(c, 'Tell me everything about Thorne.')).answer).toBe('I cannot tell you that yet.');
    const toolMessages = fake.requests.flatMap((r) =>
      r.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? ''),
    );
    // The tool repeats the model's own query, and finds nothing of the text past the position.
    expect(JSON.parse(toolMessages[0]!)).toEqual({
      answer: `I couldn't find "Elias Thorne map Lundy gold" in what you've heard of The Keeper so far.`,
      data: { matches: [] },
    });
    for (const sentence of UNHEARD) expect(toolMessages.join(' ')).not.toContain(sentence);
    for (const word of ['stranger', 'washed ashore', 'red ink', 'smuggled', 'fortune'])
      expect(toolMessages.join(' ')).not.toContain(word);
    expect(JSON.parse(toolMessages.at(-1)!)).toEqual({ error: 'Book not found' });
  });

  it('when the model fails, the offline brain answers and the client is told; the model is tried again later', async () => {
    const c = await connect('xray');
    fake.script.push((_req, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model crashed"}}'),
    );
    const { answer, from } = await ask(c, 'Who is Tobias?');
    expect(answer).toContain(`Tobias first appears in chapter 1, about 28 seconds in: "${CHAPTER_1[2]}"`);
    const [notice] = after(c, 'server-message', from);
    expect(notice!.data.t).toBe(FALLBACK_MESSAGE);
    expect(notice!.data.d).toEqual({
      reason: expect.stringContaining('500'),
      message: expect.stringMatching(
        /^The language model did not answer \(.*500.*\); this answer comes from the offline assistant\.$/,
      ),
    });
    // The next turn goes to the model again (no cool-down here) with the offline turn in its context.
    fake.script.push(say('Tobias is her brother.'));
    expect((await ask(c, 'And who is he to Mara?')).answer).toBe('Tobias is her brother.');
    const messages = fake.requests.at(-1)!.messages.map((m) => `${m.role}: ${m.content ?? ''}`);
    expect(messages.slice(1)).toEqual(['user: Who is Tobias?', `assistant: ${answer}`, 'user: And who is he to Mara?']);
  });

  it('a model that does not answer in time is cut off, and is left alone for the cool-down', async () => {
    const c = await connect(null, { timeoutMs: 300, coolDownMs: 60_000 });
    fake.script.push((_req, res) => setTimeout(() => (res.destroyed ? undefined : say('too late')(_req, res)), 3000));
    const started = performance.now();
    const { answer, from } = await ask(c, 'What books are in my library?');
    expect(performance.now() - started).toBeLessThan(2500);
    // 65 s of 112 s heard.
    expect(answer).toBe('You have 1 book in your library: The Keeper (58% in).');
    expect(after(c, 'server-message', from)[0]!.data.d).toMatchObject({
      reason: 'The language model did not answer within 300 ms',
    });
    const requests = fake.requests.length;
    const second = await ask(c, 'What was I listening to?');
    expect(second.answer).toMatch(/^You were last listening to The Keeper/);
    expect(fake.requests.length).toBe(requests);
    expect(after(c, 'server-message', second.from)[0]!.data.d).toEqual({
      reason: 'The language model did not answer within 300 ms',
      message: 'The language model is unavailable; the offline assistant is answering for now.',
    });
  });
});

describe('the assistant without a chat model (no ASSISTANT_MODEL_URL)', () => {
  it('answers offline and tells the client, with each answer, what offline answers can do and how a model is connected', async () => {
    const c = await connect('xray', { noModel: true });
    const asked = fake.requests.length;
    const { answer, from } = await ask(c, 'Where does the story take place?');
    expect(answer).toContain('Gull Island');
    expect(fake.requests).toHaveLength(asked);
    const notices = after(c, 'server-message', from).filter((m) => m.data.t === FALLBACK_MESSAGE);
    expect(notices.map((m) => m.data.d)).toEqual([NO_MODEL_NOTICE]);
    expect(NO_MODEL_NOTICE.message).toMatch(/who someone is, where the story takes place, what just happened/u);
    expect(NO_MODEL_NOTICE.message).toContain('ASSISTANT_MODEL_URL');
    const next = await ask(c, 'Who is Tobias?');
    expect(after(c, 'server-message', next.from).filter((m) => m.data.t === FALLBACK_MESSAGE)).toHaveLength(1);
  });
});

describe('ASSISTANT_MODEL_* configuration', () => {
  const base = () => ({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lectio-model-config-')),
    JWT_SECRET: 'x'.repeat(32),
  });
  const refused = (vars: Record<string, string>) => {
    try {
      loadConfig({ ...base(), ...vars });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected loadConfig to throw');
  };

  it('is off by default, reads URL, model, key and timeout, and refuses half a setting or a bad URL', () => {
    expect(loadConfig(base()).assistantModel).toBeUndefined();
    expect(
      loadConfig({ ...base(), ASSISTANT_MODEL_URL: 'http://localhost:11434/v1', ASSISTANT_MODEL: 'llama3.1:8b' })
        .assistantModel,
    ).toEqual({
      url: 'http://localhost:11434/v1',
      model: 'llama3.1:8b',
      timeoutSeconds: 20,
    });
    expect(
      loadConfig({
        ...base(),
        ASSISTANT_MODEL_URL: 'https://api.openai.com/v1',
        ASSISTANT_MODEL: 'gpt-4o-mini',
        ASSISTANT_MODEL_KEY: 'sk-test',
        ASSISTANT_MODEL_TIMEOUT_SECONDS: '8',
      }).assistantModel,
    ).toEqual({ url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', key: 'sk-test', timeoutSeconds: 8 });
    expect(refused({ ASSISTANT_MODEL_URL: 'http://localhost:11434/v1' })).toBe(
      'ASSISTANT_MODEL_URL is set but ASSISTANT_MODEL is not: name the model to use (e.g. llama3.1:8b)',
    );
    expect(refused({ ASSISTANT_MODEL: 'llama3.1:8b' })).toBe(
      'ASSISTANT_MODEL is set but ASSISTANT_MODEL_URL is not: set both to use a chat model, or neither for offline answers',
    );
    expect(refused({ ASSISTANT_MODEL_URL: 'localhost:11434', ASSISTANT_MODEL: 'x' })).toBe(
      'ASSISTANT_MODEL_URL must be an http:// or https:// URL',
    );
    expect(
      refused({
        ASSISTANT_MODEL_URL: 'http://localhost:1/v1',
        ASSISTANT_MODEL: 'x',
        ASSISTANT_MODEL_TIMEOUT_SECONDS: '0',
      }),
    ).toBe('ASSISTANT_MODEL_TIMEOUT_SECONDS must be an integer from 1 to 300 (got "0")');
  });
});
