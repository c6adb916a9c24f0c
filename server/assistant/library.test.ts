import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { appStorage, insertJob, signedInUser } from '../testing/library-fixtures';
import { createTestApp, type TestApp } from '../testing/app';
import { HEARD_POSITION, ROCHESTER_SENTENCES, seedRochesterBook } from '../testing/assistant-fixtures';
import { TestVoiceClient } from '../testing/voice-client';

// Library questions through the websocket of the real app (PGlite, the user's own jobs and playback progress).
let t: TestApp;
let base: string;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
let janeEyre: string;
let keeper: string;
let whale: string;
const open: TestVoiceClient[] = [];

async function progress(userId: string, jobId: string, seconds: number, playedAt: string) {
  await t.db.query(
    `INSERT INTO playback_progress (id, user_id, job_id, position_seconds, percentage_complete, last_played_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 0, $5, $5, $5)`,
    [randomUUID(), userId, jobId, seconds, playedAt],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  const storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann-library@example.com');
  bob = await signedInUser(t.app, 'bob-library@example.com');
  janeEyre = await seedRochesterBook(t.db, storage, ann.id);
  keeper = await insertJob(t.db, {
    userId: ann.id,
    title: 'The Keeper',
    duration: 600,
    createdAt: new Date('2030-01-02T00:00:00Z'),
  });
  await insertJob(t.db, { userId: ann.id, title: 'Unfinished Draft', status: 'PROCESSING' });
  whale = await insertJob(t.db, { userId: bob.id, title: 'Moby Dick', duration: 900 });
  await progress(ann.id, janeEyre, HEARD_POSITION, '2030-01-05T10:00:00Z');
  await progress(ann.id, keeper, 450, '2030-01-03T10:00:00Z');
  await progress(bob.id, whale, 300, '2030-01-09T10:00:00Z');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/voice-assistant/ws`;
}, 60_000);
afterAll(() => t.close());
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

async function session(user: { token: string }, payload: object): Promise<TestVoiceClient> {
  const headers = { authorization: `Bearer ${user.token}` };
  await t.app.inject({ method: 'POST', url: '/api/v1/voice-assistant/stop', headers });
  expect(
    (await t.app.inject({ method: 'POST', url: '/api/v1/voice-assistant/start', headers, payload })).statusCode,
  ).toBe(200);
  const c = await TestVoiceClient.connect(`${base}?token=${user.token}`);
  open.push(c);
  await c.handshake();
  return c;
}

async function ask(c: TestVoiceClient, question: string): Promise<string> {
  const from = c.frames.length;
  c.sendMessage('send-text', { content: question, options: { audio_response: false } });
  return String((await c.waitForMessage('bot-output', 5000, from)).data.text);
}

describe('library questions', () => {
  it("lists the user's finished books with how far they are in each, never another user's", async () => {
    const c = await session(ann, {});
    const answer = await ask(c, 'What books are in my library?');
    expect(answer).toBe('You have 2 books in your library: The Keeper (75% in) and Jane Eyre (54% in).');
    expect(answer).not.toContain('Moby Dick');
    expect(answer).not.toContain('Unfinished');
  }, 30_000);

  it('what was I listening to: the most recently played book first, with its position', async () => {
    const c = await session(ann, {});
    const answer = await ask(c, 'What was I listening to?');
    expect(answer).toBe(
      'You were last listening to Jane Eyre, at 0:13 of 0:24 — 54% in. Before that: The Keeper (75% in). Say "continue Jane Eyre" to pick it up.',
    );
  }, 30_000);

  it('how far am I in a book, by a loosely said title, in any mode', async () => {
    const c = await session(ann, { mode: 'xray', jobId: janeEyre });
    const answer = await ask(c, 'How far am I in the keeper?');
    expect(answer).toBe("You're at 7:30 of 10:00 in The Keeper, 75% of the way through.");
    const own = await ask(c, 'how far have I got in jane eyr');
    expect(own).toBe(
      `You're at 0:13 of 0:24 in Jane Eyre, 54% of the way through. The last thing you heard: "${ROCHESTER_SENTENCES[4]}"`,
    );
  }, 30_000);

  it('continue X opens the player there (a server message); another user’s book is not found', async () => {
    const c = await session(ann, {});
    const from = c.frames.length;
    const answer = await ask(c, 'Continue Jane Eyre');
    expect(answer).toBe(`Continuing Jane Eyre from 0:13. You last heard: "${ROCHESTER_SENTENCES[4]}"`);
    const messages = c.messages('server-message').filter((m) => c.frames.indexOf(m) >= from);
    // Beside the offline-answers notice (no chat model on this server), the book to open.
    expect(messages.map((m) => m.data).filter((d) => (d as { t: string }).t !== 'assistant-fallback')).toEqual([
      { t: 'open-book', d: { job_id: janeEyre, title: 'Jane Eyre', position_seconds: HEARD_POSITION } },
    ]);
    // "Resume" alone picks up the most recently played book.
    expect(await ask(c, 'resume')).toMatch(/^Continuing Jane Eyre from 0:13\./);
    const theirs = await ask(c, 'Continue Moby Dick');
    expect(theirs).toBe('I couldn\'t find a book called "Moby Dick" in your library.');
    const bobs = await session(bob, {});
    expect(await ask(bobs, 'What books are in my library?')).toBe(
      'You have 1 book in your library: Moby Dick (33% in).',
    );
    // "My last book" is the one played last, even in a session on another book (not a title search).
    const onKeeper = await session(ann, { mode: 'xray', jobId: keeper });
    expect(await ask(onKeeper, 'Continue my last book')).toMatch(/^Continuing Jane Eyre from 0:13\./);
    expect(await ask(onKeeper, 'pick up what I was listening to')).toMatch(/^Continuing Jane Eyre from 0:13\./);
  }, 30_000);

  it('book questions read the stored text and timing map, bounded by the saved position', async () => {
    const c = await session(ann, { mode: 'xray', jobId: janeEyre });
    const setting = await ask(c, 'Where does the story take place?');
    expect(setting).toMatch(
      /^From what you've heard, the story moves from Gateshead to Lowood school to Thornfield Hall\./,
    );
    expect(setting).toContain(
      `It begins around Gateshead, in chapter 1, “Gateshead”, at the very start: "${ROCHESTER_SENTENCES[0]}"`,
    );
    expect(await ask(c, 'Who is Mr. Rochester?')).toBe(
      "Mr. Rochester hasn't appeared in what you've heard so far — keep listening!",
    );
  }, 30_000);
});

describe('a book still converting', () => {
  it('"continue my last book" resumes the book played last while it converts, at its place', async () => {
    const lighthouse = await insertJob(t.db, {
      userId: ann.id,
      title: 'The Lighthouse',
      status: 'PROCESSING',
      jobType: 'book_processing',
    });
    await insertJob(t.db, {
      userId: ann.id,
      parentJobId: lighthouse,
      chapterOrder: 1,
      title: 'Arrival',
      duration: 120,
      outputFileKey: `jobs/${randomUUID()}/audio.mp3`,
    });
    await insertJob(t.db, {
      userId: ann.id,
      parentJobId: lighthouse,
      chapterOrder: 2,
      title: 'The Storm',
      status: 'PROCESSING',
    });
    await progress(ann.id, lighthouse, 65, '2030-02-01T10:00:00Z');
    const c = await session(ann, { mode: 'xray', jobId: janeEyre });
    const from = c.frames.length;
    expect(await ask(c, 'Continue my last book')).toBe(
      'Continuing The Lighthouse from 1:05. It is still converting: the rest plays as it is ready.',
    );
    const opened = c
      .messages('server-message')
      .filter((m) => c.frames.indexOf(m) >= from)
      .map((m) => m.data)
      .filter((d) => (d as { t: string }).t === 'open-book');
    expect(opened).toEqual([
      { t: 'open-book', d: { job_id: lighthouse, title: 'The Lighthouse', position_seconds: 65 } },
    ]);
    expect(await ask(c, 'What was I listening to?')).toMatch(
      /^You were last listening to The Lighthouse, at 1:05; it is still converting\. Before that: Jane Eyre \(54% in\)/,
    );
  }, 30_000);
});
