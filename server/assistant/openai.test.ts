import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { speechLikePcm } from '../testing/synthetic-pcm';
import { memoryBookSource } from './books';
import {
  HEARD_POSITION,
  ROCHESTER_SENTENCES,
  HEARD_SENTENCES,
  rochesterBook,
  rochesterText,
} from '../testing/assistant-fixtures';
import { openAiEngines } from './openai';
import { serveVoiceAssistant, type ServedAssistant } from '../testing/voice-socket';
import { createVoiceAssistant, type VoiceAssistant } from './service';
import { TestVoiceClient } from '../testing/voice-client';

/** A fake OpenAI API at the HTTP level: chat completions (a tool call, then an answer), transcription, speech. */
function fakeOpenAi() {
  const requests: { path: string; body: Buffer; contentType: string }[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => resolve(Buffer.concat(parts)));
    });
  const server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const body = await read(req);
    requests.push({ path: req.url ?? '', body, contentType: String(req.headers['content-type'] ?? '') });
    const json = (value: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url === '/v1/audio/transcriptions') return json({ text: 'Who is Mr. Rochester?' });
    if (req.url === '/v1/audio/speech') {
      const pcm = new Int16Array(4800).map((_, i) => Math.round(8000 * Math.sin(i / 5)));
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(pcm.buffer));
    }
    if (req.url === '/v1/chat/completions') {
      const { messages } = JSON.parse(body.toString()) as { messages: { role: string; content: string }[] };
      const last = messages[messages.length - 1]!;
      const message =
        last.role === 'tool'
          ? {
              role: 'assistant',
              content: `Here is what I know. ${(JSON.parse(last.content) as { answer: string }).answer}`,
            }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: {
                    name: 'xray_lookup',
                    arguments: JSON.stringify({ job_id: bookId, query: 'Mr. Rochester' }),
                  },
                },
              ],
            };
      return json({
        id: 'c',
        object: 'chat.completion',
        created: 0,
        model: 'fake',
        choices: [{ index: 0, message, finish_reason: 'stop' }],
      });
    }
    res.writeHead(404).end();
  }
  return { server, requests };
}

const book = rochesterBook();
const bookId = book.id;
let fake: ReturnType<typeof fakeOpenAi>;
let served: ServedAssistant;
let assistant: VoiceAssistant;
let url: string;

beforeAll(async () => {
  fake = fakeOpenAi();
  await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
  const baseURL = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
  assistant = createVoiceAssistant({
    books: memoryBookSource([{ userId: 'ann', book, text: rochesterText(), position: HEARD_POSITION }]),
    engines: openAiEngines({ apiKey: 'sk-test', baseURL }),
  });
  served = await serveVoiceAssistant(assistant, 'ann');
  url = served.url;
});
afterAll(async () => {
  await served.close();
  fake.server.close();
});

describe('the OpenAI engines (fake API over HTTP)', () => {
  it('transcribes speech, calls a tool with the spoiler bound, answers and speaks through the API', async () => {
    await assistant.sessions.start('ann', { mode: 'xray', jobId: bookId });
    const c = await TestVoiceClient.connect(url);
    await c.handshake();
    const speech = speechLikePcm(1, 16000, 5);
    const silence = new Int16Array(16000);
    for (let i = 0; i < speech.length; i += 512) c.sendAudio(speech.subarray(i, i + 512));
    for (let i = 0; i < silence.length; i += 512) c.sendAudio(silence.subarray(i, i + 512));

    const transcription = await c.waitForMessage('user-transcription', 10_000);
    expect(transcription.data).toMatchObject({ text: 'Who is Mr. Rochester?', user_id: 'ann', final: true });
    const answer = await c.waitForMessage('bot-llm-text', 10_000);
    expect(answer.data.text).toBe(
      "Here is what I know. Mr. Rochester hasn't appeared in what you've heard so far — keep listening!",
    );
    expect(c.messages('llm-function-call-in-progress')[0]!.data).toMatchObject({
      function_name: 'xray_lookup',
      arguments: { job_id: bookId, query: 'Mr. Rochester' },
    });
    await c.waitFor((f) => f.kind === 'audio', 10_000);
    c.close();

    const transcribe = fake.requests.find((r) => r.path === '/v1/audio/transcriptions')!;
    expect(transcribe.contentType).toMatch(/^multipart\/form-data/);
    expect(transcribe.body.includes(Buffer.from('RIFF'))).toBe(true);
    const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body.toString());
    expect(chats).toHaveLength(2);
    expect(chats[0]).toContain('"tools"');
    expect(chats[0]).toContain(bookId);
    // The model never receives unheard text: the tool result is bounded.
    for (const sentence of ROCHESTER_SENTENCES.slice(HEARD_SENTENCES)) expect(chats[1]).not.toContain(sentence);
    expect(fake.requests.some((r) => r.path === '/v1/audio/speech')).toBe(true);
  }, 30_000);
});
