import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerThroughUi, type RunningApp, say, scriptSpeechRecognition, startApp } from './harness';

// The feature none of our peers has: pause a book, open X-ray, type "who is ...?", and read an
// answer drawn only from what was heard. A character first named later is "not revealed yet".
// Then the mode switch on the voice page: Tutor -> X-ray -> Tutor in one conversation, each answer
// from the mode chosen last (docs/voice-assistant.md#the-page). The server has no speech service
// (no OPENAI_API_KEY), so the browser's speech recognition hears the reader; its service is
// scripted (scriptSpeechRecognition), everything after it is the real app. Then eight questions,
// and the newest turn is in view.
let app: RunningApp;
let browser: Browser;
let page: Page;
/** The book the first test creates and listens to; the mode-switch test talks about it too. */
let bookId = '';

const early = [
  'Elizabeth Hart kept the lighthouse on the northern cape with her old dog.',
  'Elizabeth Hart wrote the weather in a blue logbook every evening.',
  'Each night Elizabeth climbed the spiral stairs and lit the great lamp for the ships.',
  'The wind was cold, and the sea was grey and restless below the cliff.',
];
const late = [
  'Weeks later a stranger called Captain Marlowe rowed ashore in a storm.',
  'Captain Marlowe carried a map of the cape and a secret about the lamp.',
  'Captain Marlowe asked Elizabeth to put out the light for one night only.',
  'She refused, and the ships passed safely, and the captain rowed away at dawn.',
  'Nobody in the village ever learned what the captain had wanted.',
  'The logbook kept the story, written in a careful hand beside the weather.',
];

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  page = await browser.newPage();
  await scriptSpeechRecognition(page);
  await registerThroughUi(page, app.url, `xray.${Date.now()}@example.com`, 'correct-horse-battery');
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('X-ray in the real app', () => {
  it('answers from what the listener has heard, and keeps later characters hidden', async () => {
    await page.goto(`${app.url}/upload`);
    await page.getByLabel('Title', { exact: true }).fill('The Keeper of the Cape');
    await page.getByLabel('Story Text').fill([...early, ...late].join(' '));
    await page.getByRole('button', { name: 'Create Audiobook' }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    bookId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByRole('button', { name: 'Play Audiobook' }).waitFor({ timeout: 120_000 });
    await expect(page.getByRole('link', { name: 'X-ray Lookup' }).isVisible()).resolves.toBe(true);

    // Listen to the first sentences only, then pause (which saves the position).
    // Play Audiobook plays: the book page opens with the book already playing.
    await page.getByRole('button', { name: 'Play Audiobook' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.getByRole('button', { name: 'Forward 10 seconds' }).click();
    const saving = page.waitForResponse(
      (res) => res.url().includes('/api/v1/progress/') && res.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Pause' }).click();
    await saving;

    await page.getByRole('link', { name: 'Ask about this book' }).click();
    await page.waitForURL(/\/voice-assistant\?.*mode=xray/);
    await expect(page.getByRole('radio', { name: 'X-ray' }).isChecked()).resolves.toBe(true);
    await page.getByText(/You are at .* — X-ray answers only from what you have heard\./).waitFor();
    await page.getByRole('button', { name: 'Start talking' }).click();
    await page.getByRole('button', { name: 'End conversation' }).waitFor({ timeout: 30_000 });
    // The microphone really runs (the fake device hears a quiet room's faint noise): its level meter moves.
    // A function, not a string: the page's Content-Security-Policy forbids eval.
    const levelMoves = (label: string) =>
      page.waitForFunction(
        (name) => Number(document.querySelector<HTMLMeterElement>(`meter[aria-label="${name}"]`)?.value ?? 0) > 0,
        label,
        { timeout: 30_000 },
      );
    await levelMoves('Your microphone level');

    const aboutElizabeth = await ask('Who is Elizabeth Hart?');
    // ...and is heard: the bot's audio plays through the page's audio output and its meter moves.
    await levelMoves('Assistant audio level');
    expect(aboutElizabeth).toMatch(/Elizabeth/);
    expect(aboutElizabeth).toMatch(/lighthouse|logbook|lamp/);
    expect(aboutElizabeth).not.toMatch(/Marlowe|stranger|map/);

    // Spoken, not typed: the browser hears it (the page says so), and the assistant answers it.
    await page.getByText('Your browser’s speech service hears you', { exact: false }).waitFor();
    await say(page, 'Who is Captain Marlowe?');
    const aboutMarlowe = await answerTo('Who is Captain Marlowe?');
    expect(aboutMarlowe).toMatch(/hasn't appeared|not revealed/i);
    expect(aboutMarlowe).not.toMatch(/storm|secret|map of the cape/);
  });

  it('switches Tutor -> X-ray -> Tutor while talking, and each mode answers as itself', async () => {
    expect(bookId).not.toBe('');
    await page.goto(`${app.url}/voice-assistant?mode=tutor&jobId=${bookId}`);
    await expect(page.getByRole('radio', { name: 'Tutor' }).isChecked()).resolves.toBe(true);
    await page.getByText(/the tutor asks only about what you have heard/).waitFor();
    await page.getByRole('button', { name: 'Start talking' }).click();
    await page.getByRole('button', { name: 'End conversation' }).waitFor({ timeout: 30_000 });

    // To X-ray: the running Tutor session is replaced (never a stale mode) and the page reconnects.
    await switchMode('X-ray', 'xray');
    const xray = await ask('Who is Elizabeth Hart?');
    expect(xray).toMatch(/Elizabeth/);
    expect(xray).toMatch(/lighthouse|logbook|lamp/);
    expect(xray).not.toMatch(/Marlowe|stranger|storm|map/);
    // An X-ray answer reports what was heard (where a name first appears); it does not quiz the reader.
    expect(xray).toMatch(/first appears/);
    expect(xray.trim().endsWith('?')).toBe(false);

    // Back to Tutor: a Socratic question, not the reader's words repeated back.
    await switchMode('Tutor', 'tutor');
    const reader = 'I think she feels responsible for the ships.';
    const tutor = await ask(reader);
    expect(tutor).toMatch(/\?/);
    expect(tutor).not.toContain(reader);
    // ...and not an X-ray lookup left over from the previous session.
    expect(tutor).not.toMatch(/first appears|Mentioned \d+ times/);
    expect(tutor).not.toMatch(/Marlowe|stranger|storm|map/);
  });

  it('after eight questions the newest turn is in view', async () => {
    expect(bookId).not.toBe('');
    await page.goto(`${app.url}/voice-assistant?mode=xray&jobId=${bookId}`);
    // A fresh conversation (the earlier tests' turns are kept for this book).
    await page.getByRole('button', { name: 'Clear conversation' }).click();
    await page.getByRole('button', { name: 'Clear conversation' }).waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('button', { name: 'Start talking' }).click();
    await page.getByRole('button', { name: 'End conversation' }).waitFor({ timeout: 30_000 });
    const questions = [
      'Who is Elizabeth Hart?',
      'Where does the story take place?',
      'What just happened?',
      'What is the logbook?',
      'Who is Captain Marlowe?',
      'How does it end?',
      'What is the lamp?',
      'Where is Elizabeth?',
    ];
    for (const question of questions) await ask(question);
    // The conversation is longer than its box, and the last answer (with its evidence) is in it.
    await page.waitForFunction(
      (selector) => {
        const list = document.querySelector<HTMLElement>('ol[aria-labelledby="va-transcript"]');
        const last = [...document.querySelectorAll(selector)].at(-1);
        if (!list || !last || last.hasAttribute('aria-busy')) return false;
        const box = list.getBoundingClientRect();
        const turn = last.getBoundingClientRect();
        return list.scrollHeight > list.clientHeight && turn.top >= box.top - 1 && turn.bottom <= box.bottom + 1;
      },
      turnSelector,
      { timeout: 30_000 },
    );
    const turns = page.locator(turnSelector);
    await expect(turns.count()).resolves.toBe(16);
    await expect(turns.last().locator('.text').textContent()).resolves.toMatch(/Elizabeth/);
    await expect(page.getByRole('button', { name: 'Jump to latest' }).count()).resolves.toBe(0);
  });
});

/** The transcript's turns (each names its speaker in a <strong>). */
const turnSelector = '[aria-labelledby="va-transcript"] ol li:has(strong)';

/**
 * Types a question, sends it, and returns the text of the finished answer: the turn right after
 * the reader's question (the newest turn saying it). Kept turns that load late go before it, and
 * an opening the tutor said while connecting goes before the question, so neither is taken for it.
 */
async function ask(question: string): Promise<string> {
  await page.getByLabel('Type a question').fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
  return answerTo(question);
}

/** The finished answer to `question` (typed or spoken): the turn right after the reader's. */
async function answerTo(question: string): Promise<string> {
  const answer = await page.waitForFunction(
    ({ selector, text }) => {
      const turns = [...document.querySelectorAll(selector)];
      const asked = turns.findLastIndex(
        (turn) =>
          turn.querySelector('strong')?.textContent === 'You' && turn.querySelector('.text')?.textContent === text,
      );
      const next = asked < 0 ? undefined : turns[asked + 1];
      if (next === undefined || next.hasAttribute('aria-busy')) return false;
      return next.querySelector('.text')?.textContent ?? '';
    },
    { selector: turnSelector, text: question },
    { timeout: 30_000 },
  );
  return String(await answer.jsonValue());
}

/**
 * Chooses a mode on the segmented control and waits until the new session is connected (and, for
 * the tutor, has said its opening question, so the next answer is the one to the next question).
 */
async function switchMode(name: 'Tutor' | 'X-ray', mode: 'tutor' | 'xray'): Promise<void> {
  const tutorTurns = page.locator(turnSelector).filter({ has: page.locator('strong', { hasText: /^Tutor$/ }) });
  const tutorBefore = await tutorTurns.count();
  const started = page.waitForResponse(
    (res) => res.url().endsWith('/api/v1/voice-assistant/start') && res.request().postDataJSON()?.mode === mode,
    { timeout: 30_000 },
  );
  await page.getByRole('radio', { name }).check();
  expect((await started).status()).toBe(200);
  await page.waitForURL(new RegExp(`mode=${mode}`));
  // Shown only while connected, in the session the server started last.
  await page.getByText(`Talking in ${name} mode`).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'End conversation' }).waitFor({ timeout: 30_000 });
  if (mode === 'tutor') await tutorTurns.nth(tutorBefore).waitFor({ timeout: 30_000 });
}
