import { mkdtemp } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import type { JobRecord } from '../jobs/types';
import { LocalFileStorage } from '../storage/local';
import {
  FAILURES_IN_A_ROW,
  MODEL_CONFIDENCE,
  castModelCheck,
  checkWithModel,
  type ModelCheckOptions,
} from './model-check';
import { chatModelClient } from '../assistant/model';
import { createCastService, type CastDeps } from './service';
import { NARRATOR, type Attribution, type SpokenSpan } from './types';

type ChatRequest = {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: unknown;
  authorization?: string | undefined;
};
/** What the fake model does with one request: the reply's content (after `delayMs`), or an HTTP error. */
type Reply = { content: string; delayMs?: number } | { status: number; delayMs?: number };

/** An OpenAI-compatible chat-completions server on a free port; `reply` decides each answer. */
function fakeChatModel() {
  const state = {
    requests: [] as ChatRequest[],
    inFlight: 0,
    mostInFlight: 0,
    reply: (_request: ChatRequest): Reply => ({ content: '{}' }),
  };
  const answer = (res: ServerResponse, reply: Reply) => {
    if ('status' in reply) return void res.writeHead(reply.status).end('{"error":{"message":"model down"}}');
    const message = { role: 'assistant', content: reply.content };
    const body = { id: 'c1', object: 'chat.completion', created: 0, model: 'fake', choices: [] as object[] };
    body.choices.push({ index: 0, message, finish_reason: 'stop' });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(parts).toString()) as ChatRequest;
      const request = { ...body, authorization: req.headers.authorization };
      state.requests.push(request);
      state.inFlight += 1;
      state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
      const reply = state.reply(request);
      const timer = setTimeout(() => answer(res, reply), reply.delayMs ?? 0);
      res.on('close', () => {
        clearTimeout(timer);
        state.inFlight -= 1;
      });
    });
  });
  return { server, state };
}

const TEXT = [
  'Ann and Bo sat by the fire. The wind rattled the shutters.',
  '"It will snow tonight," said Ann.',
  'Bo looked at the window. "Then we stay."',
  '"We always stay."',
].join('\n\n');
const at = (quote: string) => ({ charStart: TEXT.indexOf(quote), charEnd: TEXT.indexOf(quote) + quote.length });
const SURE: SpokenSpan = { ...at('"It will snow tonight,"'), speaker: 'ann', confidence: 0.95 };
const STAY: SpokenSpan = { ...at('"Then we stay."'), speaker: 'bo', confidence: 0.7 };
const ALWAYS: SpokenSpan = { ...at('"We always stay."'), speaker: 'bo', confidence: 0.3 };

const attribution = (spans: SpokenSpan[]): Attribution => ({
  characters: [
    { id: 'ann', name: 'Ann', aliases: ['Annie'], gender: 'female' },
    { id: 'bo', name: 'Bo', aliases: [], gender: 'male' },
  ],
  chapters: [spans],
});
/** `n` unsure spans over the same quote, from confidence 0.10 up by 0.01. */
const unsure = (n: number) =>
  attribution(Array.from({ length: n }, (_, i) => ({ ...ALWAYS, confidence: 0.1 + i / 100 })));
const userText = (request: ChatRequest) => request.messages.find((m) => m.role === 'user')?.content ?? '';

const fake = fakeChatModel();
let url: string;
const options = (over: Partial<ModelCheckOptions> = {}): ModelCheckOptions => ({
  model: 'llama3.1:8b',
  maxLines: 40,
  budgetMs: 60_000,
  callTimeoutMs: 2000,
  ...over,
});
const check = (given: Attribution, over: Partial<ModelCheckOptions> = {}) =>
  checkWithModel(chatModelClient({ url, timeoutMs: 5000 }), given, [{ text: TEXT }], options(over));

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
});
afterEach(() => {
  fake.state.requests.length = 0;
  fake.state.mostInFlight = 0;
  fake.state.reply = () => ({ content: '{}' });
});
afterAll(async () => {
  fake.server.closeAllConnections();
  await new Promise((resolve) => fake.server.close(resolve));
});

describe('asking a chat model about unsure lines', () => {
  it('gives an unsure line to the character the model names, and never asks about a sure one', async () => {
    fake.state.reply = () => ({ content: '{"speaker": "Ann"}' });
    const given = attribution([SURE, STAY, ALWAYS]);
    const report = await check(given);
    expect(report.attribution.chapters[0]).toEqual([SURE, STAY, { ...ALWAYS, speaker: 'ann', confidence: 0.8 }]);
    expect(report).toMatchObject({ asked: 1, moved: 1, failed: 0, stopped: null });
    expect(given.chapters[0]![2]).toEqual(ALWAYS);
    // One question: the paragraph before, the quote marked, the speakers, JSON asked for.
    expect(fake.state.requests).toHaveLength(1);
    const [request] = fake.state.requests;
    expect(request).toMatchObject({ model: 'llama3.1:8b', response_format: { type: 'json_object' } });
    expect(userText(request!)).toContain('Speakers: Ann, Bo, narrator');
    expect(userText(request!)).toContain('Bo looked at the window. "Then we stay."\n\n[["We always stay."]]');
    expect(userText(request!)).not.toContain('It will snow');
  });

  it('takes an alias, any case, JSON in a code fence, and "narrator"', async () => {
    const answers = ['```json\n{"speaker": "annie"}\n```', '{"speaker": "narrator"}'];
    fake.state.reply = () => ({ content: answers.shift() ?? '{}' });
    const report = await check(unsure(2), { concurrency: 1 });
    expect(report.attribution.chapters[0]!.map((s) => [s.speaker, s.confidence])).toEqual([
      ['ann', MODEL_CONFIDENCE],
      [NARRATOR, MODEL_CONFIDENCE],
    ]);
  });

  it('leaves the offline answer when the model fails or names no listed speaker', async () => {
    // Four failures, but never three in a row.
    const replies: Reply[] = [
      { status: 500 },
      { content: 'I think it is Ann.' },
      { content: '{"speaker": "Ann"}' },
      { content: '{"speaker": "Zed"}' },
      { content: '{"who": "Ann"}' },
    ];
    fake.state.reply = () => replies.shift() ?? { content: '{}' };
    const given = attribution([
      { ...ALWAYS, confidence: 0.1 },
      { ...ALWAYS, confidence: 0.2 },
      { ...ALWAYS, confidence: 0.3, speaker: 'ann' },
      { ...ALWAYS, confidence: 0.4 },
      { ...ALWAYS, confidence: 0.5, speaker: 'ann' },
    ]);
    const report = await check(given, { concurrency: 1 });
    expect(report.attribution.chapters[0]!.map((s) => [s.speaker, s.confidence])).toEqual([
      ['bo', 0.1],
      ['bo', 0.2],
      ['ann', MODEL_CONFIDENCE],
      ['bo', 0.4],
      ['ann', 0.5],
    ]);
    expect(report).toMatchObject({ asked: 5, moved: 0, failed: 4, stopped: null });
  });

  it(`stops asking after ${FAILURES_IN_A_ROW} failures in a row`, async () => {
    fake.state.reply = () => ({ status: 503 });
    const report = await check(unsure(10), { concurrency: 1 });
    expect(fake.state.requests).toHaveLength(FAILURES_IN_A_ROW);
    expect(report).toMatchObject({ asked: FAILURES_IN_A_ROW, failed: FAILURES_IN_A_ROW, stopped: 'failures' });
    expect(report.attribution).toEqual(unsure(10));
  });

  it('asks about the least sure lines first, at most maxLines', async () => {
    fake.state.reply = () => ({ content: '{"speaker": "Ann"}' });
    const given = attribution([
      { ...ALWAYS, confidence: 0.5 },
      { ...ALWAYS, confidence: 0.1 },
      { ...ALWAYS, confidence: 0.4 },
      { ...ALWAYS, confidence: 0.2 },
    ]);
    const report = await check(given, { maxLines: 2 });
    expect(fake.state.requests).toHaveLength(2);
    expect(report.attribution.chapters[0]!.map((s) => s.speaker)).toEqual(['bo', 'ann', 'bo', 'ann']);
    expect(await check(given, { maxLines: 0 })).toMatchObject({ asked: 0 });
    expect(fake.state.requests).toHaveLength(2);
  });

  it('asks two at a time', async () => {
    fake.state.reply = () => ({ content: '{"speaker": "Ann"}', delayMs: 50 });
    const report = await check(unsure(6));
    expect(report).toMatchObject({ asked: 6, moved: 6 });
    expect(fake.state.mostInFlight).toBe(2);
  });

  it('gives up on a question past its timeout and goes on with the next', async () => {
    const replies: Reply[] = [{ content: '{"speaker": "Ann"}', delayMs: 2000 }];
    fake.state.reply = () => replies.shift() ?? { content: '{"speaker": "Ann"}' };
    const started = Date.now();
    const report = await check(unsure(3), { concurrency: 1, callTimeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(report.attribution.chapters[0]!.map((s) => s.speaker)).toEqual(['bo', 'ann', 'ann']);
    expect(report).toMatchObject({ asked: 3, failed: 1, stopped: null, lastError: 'no answer within 200 ms' });
  });

  it('stops within the time budget and leaves the lines not answered', async () => {
    fake.state.reply = () => ({ content: '{"speaker": "Ann"}', delayMs: 150 });
    const started = Date.now();
    const report = await check(unsure(20), { budgetMs: 500 });
    expect(Date.now() - started).toBeLessThan(1100);
    expect(report.stopped).toBe('budget');
    // Two at a time, 150 ms each or more: at most three rounds answered in 500 ms, the fourth cut short.
    expect(report.moved).toBeGreaterThanOrEqual(2);
    expect(report.moved).toBeLessThanOrEqual(6);
    expect(fake.state.requests.length).toBeLessThanOrEqual(8);
    const speakers = report.attribution.chapters[0]!.map((s) => s.speaker);
    expect(speakers.filter((s) => s === 'bo')).toHaveLength(20 - report.moved);
  });

  it('cuts the questions still waiting short when the budget runs out', async () => {
    fake.state.reply = () => ({ content: '{"speaker": "Ann"}', delayMs: 3000 });
    const started = Date.now();
    const report = await check(unsure(4), { budgetMs: 300, callTimeoutMs: 5000 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(report).toMatchObject({ asked: 2, moved: 0, failed: 2, stopped: 'budget', lastError: 'out of time' });
    expect(report.attribution).toEqual(unsure(4));
  });
});

describe('CAST_MODEL_MAX_LINES and CAST_MODEL_BUDGET_SECONDS', () => {
  const env = async (vars: Record<string, string>) => ({
    DATA_DIR: await mkdtemp(path.join(tmpdir(), 'cast-config-')),
    JWT_SECRET: 'x'.repeat(32),
    ...vars,
  });

  it('ask at most 40 lines within 60 s by default, and take 0 lines (none asked) to 1000', async () => {
    expect(loadConfig(await env({}))).toMatchObject({ castModelMaxLines: 40, castModelBudgetSeconds: 60 });
    const set = loadConfig(await env({ CAST_MODEL_MAX_LINES: '0', CAST_MODEL_BUDGET_SECONDS: '5' }));
    expect(set).toMatchObject({ castModelMaxLines: 0, castModelBudgetSeconds: 5 });
    const maxLines = await env({ CAST_MODEL_MAX_LINES: '1001' });
    expect(() => loadConfig(maxLines)).toThrow(ConfigError);
    const budget = await env({ CAST_MODEL_BUDGET_SECONDS: '0' });
    expect(() => loadConfig(budget)).toThrow('CAST_MODEL_BUDGET_SECONDS must be an integer from 1 to 3600 (got "0")');
  });
});

describe('the cast service with a chat model', () => {
  const job = (): JobRecord =>
    ({
      id: '00000000-0000-4000-8000-000000000001',
      parentJobId: null,
      chapterOrder: null,
      config: { voice_config: { provider: 'offline', voice_id: 'en-us+f3', cast: true } },
    }) as JobRecord;
  const model = (modelUrl: string) => ({ url: modelUrl, model: 'llama3.1:8b', key: 'local-key', timeoutSeconds: 20 });
  const deps = async (checkWithModel: CastDeps['checkWithModel']): Promise<CastDeps> => ({
    storage: new LocalFileStorage(await mkdtemp(path.join(tmpdir(), 'cast-model-'))),
    catalog: { list: async () => ({ voices: [], sources: [] }) },
    repo: {} as CastDeps['repo'],
    reconverter: { restart: async () => [] },
    attribute: () => attribution([SURE, STAY, ALWAYS]),
    checkWithModel,
  });

  it('keeps what the model answered when one is configured', async () => {
    fake.state.reply = () => ({ content: '{"speaker": "Ann"}' });
    const checkWithModel = castModelCheck({
      assistantModel: model(url),
      castModelMaxLines: 40,
      castModelBudgetSeconds: 60,
    });
    expect(checkWithModel).toBeDefined();
    const cast = createCastService(await deps(checkWithModel));
    await cast.plan(job(), [TEXT]);
    expect((await cast.spansOf(job().id, 0))?.map((s) => [s.speaker, s.confidence])).toEqual([
      ['ann', 0.95],
      ['bo', 0.7],
      ['ann', MODEL_CONFIDENCE],
    ]);
    expect(fake.state.requests).toHaveLength(1);
    expect(fake.state.requests[0]?.authorization).toBe('Bearer local-key');
  });

  it('sends no request without a model (or with CAST_MODEL_MAX_LINES at 0): the offline answer stands', async () => {
    const none = { castModelMaxLines: 40, castModelBudgetSeconds: 60 };
    expect(castModelCheck({ ...none, assistantModel: undefined })).toBeUndefined();
    expect(castModelCheck({ ...none, assistantModel: model(url), castModelMaxLines: 0 })).toBeUndefined();
    const cast = createCastService(await deps(castModelCheck({ ...none, assistantModel: undefined })));
    await cast.plan(job(), [TEXT]);
    expect((await cast.spansOf(job().id, 0))?.map((s) => s.speaker)).toEqual(['ann', 'bo', 'bo']);
    expect(fake.state.requests).toHaveLength(0);
  });
});
