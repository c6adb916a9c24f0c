/**
 * One conversation per reader and book, kept on the server: across a switch from X-ray to Tutor
 * and back, across a reload (a new connection), cleared on request; only the reader's own; the
 * recap offered once the book has rested RECAP_AFTER_MINUTES.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, signedInUser } from '../testing/library-fixtures';
import { HEARD_POSITION, seedRochesterBook } from '../testing/assistant-fixtures';
import { TestVoiceClient } from '../testing/voice-client';

let t: TestApp;
let base: string;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
let annBook: string;
const open: TestVoiceClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann@example.com');
  bob = await signedInUser(t.app, 'bob@example.com');
  annBook = await seedRochesterBook(t.db, storage, ann.id, { positionSeconds: HEARD_POSITION });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/voice-assistant/ws`;
}, 60_000);
afterAll(() => t.close());
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

const request = (method: 'GET' | 'POST' | 'DELETE', path: string, user: { token: string }, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1/voice-assistant/${path}`,
    headers: { authorization: `Bearer ${user.token}` },
    ...(payload !== undefined && { payload }),
  });

/** Starts the mode (switching the session), connects as a reload would, and waits for the opening. */
async function talkIn(mode: 'xray' | 'tutor'): Promise<TestVoiceClient> {
  expect((await request('POST', 'start', ann, { mode, jobId: annBook })).statusCode).toBe(200);
  const c = await TestVoiceClient.connect(`${base}?token=${ann.token}`);
  open.push(c);
  await c.handshake();
  return c;
}

async function ask(c: TestVoiceClient, content: string): Promise<string> {
  const from = c.frames.length;
  c.sendMessage('send-text', { content, options: { audio_response: false } });
  const answer = await c.waitForMessage('bot-llm-text', 10_000, from);
  return String(answer.data.text);
}

/** The kept turns, once `count` of them are there (they are written just after each answer). */
async function turns(count: number) {
  let body: { turns: { mode: string; speaker: string; text: string; evidence: unknown }[]; recap: unknown } = {
    turns: [],
    recap: null,
  };
  await vi.waitFor(async () => {
    const res = await request('GET', `conversations/${annBook}`, ann);
    expect(res.statusCode).toBe(200);
    body = res.json();
    expect(body.turns.length).toBeGreaterThanOrEqual(count);
  });
  return body;
}

describe('the kept conversation', () => {
  it('keeps every turn with its mode across X-ray -> Tutor -> reload, and the tutor never asks a question twice', async () => {
    const xray = await talkIn('xray');
    const who = await ask(xray, 'Who is Helen Burns?');
    expect(who).toContain('Helen Burns');

    const tutor = await talkIn('tutor');
    const opening = await tutor.waitForMessage('bot-llm-text', 10_000);
    const firstQuestion = String(opening.data.text);
    await ask(tutor, 'I think Helen teaches Jane to endure what she cannot change, with patience and faith.');
    await turns(5);
    tutor.close();

    // A reload: a new connection to the same session.
    const again = await TestVoiceClient.connect(`${base}?token=${ann.token}`);
    open.push(again);
    await again.handshake();
    const resumed = String((await again.waitForMessage('bot-llm-text', 10_000)).data.text);
    expect(resumed).toMatch(/^Let's pick up where we were\./u);

    // Back to X-ray, then Tutor again: the tutor carries on, it does not open with its first question.
    await talkIn('xray');
    const back = await talkIn('tutor');
    const reopened = String((await back.waitForMessage('bot-llm-text', 10_000)).data.text);
    expect(reopened).toMatch(/^Let's pick up where we were\./u);
    expect(reopened).not.toBe(firstQuestion);

    const kept = await turns(7);
    expect(kept.turns.slice(0, 3).map((turn) => [turn.mode, turn.speaker])).toEqual([
      ['xray', 'reader'],
      ['xray', 'assistant'],
      ['tutor', 'assistant'],
    ]);
    expect(kept.turns[0]!.text).toBe('Who is Helen Burns?');
    expect(kept.turns[1]).toMatchObject({ text: who, evidence: { where: expect.stringMatching(/^in chapter 2/u) } });
    expect(kept.turns[2]!.text).toBe(firstQuestion);
    expect(kept.turns.some((turn) => turn.mode === 'tutor' && turn.speaker === 'reader')).toBe(true);
  });

  it('is cleared on request, is the reader’s own, and refuses what is not a book id', async () => {
    const c = await talkIn('xray');
    await ask(c, 'Where does the story take place?');
    await turns(2);
    expect((await request('GET', `conversations/${annBook}`, bob)).statusCode).toBe(404);
    expect((await request('DELETE', `conversations/${annBook}`, bob)).statusCode).toBe(404);
    expect((await request('GET', 'conversations/not-a-uuid', ann)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await request('GET', 'conversations/not-a-uuid', ann)).statusCode).toBeLessThan(500);

    expect((await request('DELETE', `conversations/${annBook}`, ann)).statusCode).toBe(204);
    const cleared = await request('GET', `conversations/${annBook}`, ann);
    expect(cleared.json()).toMatchObject({ job_id: annBook, turns: [] });
  });

  it('offers "Previously…" once the book has rested RECAP_AFTER_MINUTES since it was last played, never before', async () => {
    expect((await request('GET', `conversations/${annBook}`, ann)).json().recap).toBeNull();
    await t.db.query(`UPDATE playback_progress SET last_played_at = now() - interval '45 minutes' WHERE job_id = $1`, [
      annBook,
    ]);
    const { recap } = (await request('GET', `conversations/${annBook}`, ann)).json();
    expect(recap.rested_minutes).toBeGreaterThanOrEqual(45);
    expect(recap.text).toMatch(/^Previously in Jane Eyre:/u);
    expect(recap.text).toContain('Thornfield Hall');
    expect(recap.text).not.toContain('Rochester');
  });
});
