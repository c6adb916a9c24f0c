import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerThroughUi, type RunningApp, startApp } from './harness';

// The feature none of our peers has: pause a book, open X-ray, type "who is ...?", and read an
// answer drawn only from what was heard. A character first named later is "not revealed yet".
let app: RunningApp;
let browser: Browser;
let page: Page;

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
  await registerThroughUi(page, app.url, `xray.${Date.now()}@example.com`, 'correct-horse-battery');
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('X-ray in the real app', () => {
  it('answers from what the listener has heard, and keeps later characters hidden', async () => {
    await page.goto(`${app.url}/upload`);
    await page.getByLabel('Job Title').fill('The Keeper of the Cape');
    await page.getByLabel('Story Text').fill([...early, ...late].join(' '));
    await page.getByRole('button', { name: 'Create Audiobook' }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    await page.getByRole('link', { name: 'Play Audiobook' }).waitFor({ timeout: 120_000 });
    await expect(page.getByRole('link', { name: 'X-ray Lookup' }).isVisible()).resolves.toBe(true);

    // Listen to the first sentences only, then pause (which saves the position).
    await page.getByRole('link', { name: 'Play Audiobook' }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.getByRole('button', { name: 'Forward 10s' }).click();
    const saving = page.waitForResponse((res) => res.url().includes('/api/v1/progress/') && res.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Pause' }).click();
    await saving;

    await page.getByRole('link', { name: 'X-ray Lookup' }).click();
    await page.waitForURL(/\/voice-assistant\?.*mode=xray/);
    await page.getByRole('heading', { name: 'Voice Assistant - X-ray Lookup' }).waitFor();
    await page.getByRole('button', { name: 'Start Voice Assistant' }).click();
    await page.getByRole('button', { name: 'Connect & Start Voice Chat' }).click();
    await page.getByRole('button', { name: 'Disconnect Voice Chat' }).waitFor({ timeout: 30_000 });
    // The microphone really runs (Chromium's fake device plays a tone): its level meter moves.
    // A function, not a string: the page's Content-Security-Policy forbids eval.
    const levelMoves = (label: string) =>
      page.waitForFunction(
        (name) => Number(document.querySelector<HTMLMeterElement>(`meter[aria-label="${name}"]`)?.value ?? 0) > 0,
        label,
        { timeout: 15_000 },
      );
    await levelMoves('Your microphone level');

    const ask = async (question: string) => {
      // Turns are the list items that name their speaker (the empty transcript has a hint instead).
      const turns = page.locator('[aria-labelledby="va-transcript"] li:has(strong)');
      const before = await turns.count();
      await page.getByLabel('Type a question').fill(question);
      await page.getByRole('button', { name: 'Send' }).click();
      // The question and the bot's answer both join the transcript.
      await page.waitForFunction(
        (n) => document.querySelectorAll('[aria-labelledby="va-transcript"] li strong').length >= n + 2,
        before,
        { timeout: 30_000 },
      );
      return (await turns.last().textContent()) ?? '';
    };

    const aboutElizabeth = await ask('Who is Elizabeth Hart?');
    // ...and is heard: the bot's audio plays through the page's audio output and its meter moves.
    await levelMoves('Bot audio level');
    expect(aboutElizabeth).toMatch(/Elizabeth/);
    expect(aboutElizabeth).toMatch(/lighthouse|logbook|lamp/);
    expect(aboutElizabeth).not.toMatch(/Marlowe|stranger|map/);

    const aboutMarlowe = await ask('Who is Captain Marlowe?');
    expect(aboutMarlowe).toMatch(/hasn't appeared|not revealed/i);
    expect(aboutMarlowe).not.toMatch(/storm|secret|map of the cape/);
  });
});
