import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerThroughUi, type RunningApp, startApp, waitForJobStatus } from './harness';
import { OUTAGE_MESSAGE } from '../../src/features/player/connection';

// The listener's loop without seams, in the real app at 1280 x 800 and on a 390 x 844 phone: a
// book still converting is played from its job page as THE BOOK (its title, its one place), shows
// once in Continue listening and the library, keeps its place across a reload and on its page,
// offers "Back to …" after a jump, every Play button plays, and the server going away and coming
// back loses nothing.
let app: RunningApp;
let browser: Browser;
let desktop: BrowserContext;
let page: Page;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const TITLE = 'The Lamp Keeper';

/** Enough chapters that the book is still converting while its first ones play. */
const book = Array.from(
  { length: 30 },
  (_, i) =>
    `Chapter ${i + 1}\n\nThe keeper climbed the stairs at dusk and lit the great lamp for night ${i + 1}. ` +
    'He wrote the hour in the logbook, trimmed the wick, and watched the ships pass slowly along the dark coast. ' +
    'When the wind rose he closed the shutters and listened to the sea against the rocks below.',
).join('\n\n');

const audioTime = (on: Page) => on.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);
/** The audio plays: its time moves on by itself. */
async function isPlaying(on: Page): Promise<void> {
  const before = await audioTime(on);
  await on.waitForFunction((t) => (document.querySelector('audio')?.currentTime ?? 0) > t + 0.5, before, {
    timeout: 15_000,
  });
}

/** "1:05" -> 65. */
const seconds = (clock: string) => clock.split(':').reduce((total, part) => total * 60 + Number(part), 0);
/** Where the listener is in THE BOOK (the full player's elapsed time; a converting book plays chapter files). */
const bookTime = async (on: Page) =>
  seconds((await on.getByRole('timer', { name: 'Elapsed time' }).textContent()) ?? '');

let bookId = '';

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  desktop = await browser.newContext({ viewport: DESKTOP });
  page = await desktop.newPage();
  await registerThroughUi(page, app.url, `loop.${Date.now()}@example.com`, 'correct-horse-battery');
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a book played while it converts', () => {
  it("a chapter's Play on the job page plays THE BOOK from that chapter", async () => {
    await page.goto(`${app.url}/upload`);
    await page.getByLabel('Title', { exact: true }).fill(TITLE);
    await page.getByLabel('Story Text').fill(book);
    await page.getByRole('button', { name: /^(Create Audiobook|Convert \d+ chapters)$/ }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    bookId = page.url().split('/').pop()!;

    // Chapters are named by their own titles, and a listener sees no job ids.
    const play = page.getByRole('button', { name: 'Play Chapter 1', exact: true });
    await play.waitFor({ timeout: 180_000 });
    expect(await page.getByText(`${TITLE} - Chapter 1`).count()).toBe(0);
    expect(await page.getByText(/Job ID/).count()).toBe(0);
    await play.click();

    await page.waitForURL(`${app.url}/library/${bookId}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(TITLE);
    await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 15_000 });
    await isPlaying(page);
  });

  it('"Back to …" after a chapter click returns to the place before the jump', async () => {
    await expect.poll(() => bookTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const chapter3 = page.getByRole('button', { name: /^3\. / });
    await expect.poll(() => chapter3.isEnabled(), { timeout: 180_000 }).toBe(true);
    const before = await bookTime(page);
    await chapter3.click();
    const back = page.getByRole('button', { name: /^Back to \d+:\d\d$/ });
    await back.waitFor({ timeout: 10_000 });
    await expect.poll(() => bookTime(page), { timeout: 10_000 }).toBeGreaterThan(before + 5);
    const jumped = await bookTime(page);
    await back.click();
    await expect.poll(() => bookTime(page), { timeout: 10_000 }).toBeLessThan(jumped - 3);
    expect(Math.abs((await bookTime(page)) - before)).toBeLessThanOrEqual(3);
    expect(await back.count()).toBe(0);
    await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 15_000 });
  });

  it('keeps its one place across a reload, on the book page and in the mini player', async () => {
    const saving = page.waitForResponse(
      (res) => res.url().includes(`/api/v1/progress/${bookId}`) && res.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Pause' }).click();
    expect((await saving).status()).toBe(200);
    const saved = await bookTime(page);
    expect(saved).toBeGreaterThanOrEqual(1);

    await page.goto(`${app.url}/dashboard`);
    // After the reload the mini player is back with the book, paused at its place.
    const bar = page.getByRole('region', { name: 'Now playing' });
    await bar.getByRole('link', { name: `Open ${TITLE}` }).waitFor({ timeout: 15_000 });
    await expect.poll(() => bar.getByRole('button', { name: 'Play' }).isEnabled(), { timeout: 15_000 }).toBe(true);
    const shown = await bar.getByRole('progressbar', { name: 'Listening progress' }).getAttribute('aria-valuetext');
    expect(Math.abs(seconds(shown!.split(' of ')[0]!) - saved)).toBeLessThanOrEqual(1);

    // Continue listening shows the book once, and no chapter as a book of its own.
    const shelf = page.getByRole('region', { name: 'Continue listening' });
    await shelf.getByText(TITLE, { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await shelf.getByText(TITLE, { exact: true }).count()).toBe(1);
    expect(await shelf.getByText(/ - Chapter \d+/).count()).toBe(0);

    await page.goto(`${app.url}/library`);
    await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
    await page.getByRole('listitem', { name: TITLE }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole('listitem', { name: TITLE }).count()).toBe(1);
    expect(await page.getByText(/ - Chapter \d+/).count()).toBe(0);

    await page.goto(`${app.url}/library/${bookId}`);
    await expect
      .poll(() => page.getByRole('button', { name: 'Play', exact: true }).isEnabled(), { timeout: 15_000 })
      .toBe(true);
    expect(Math.abs((await bookTime(page)) - saved)).toBeLessThanOrEqual(1);
  });

  it('on a phone: Play Audiobook and a chapter Play on the job page both play the book', async () => {
    const phone = await browser.newContext({
      viewport: PHONE,
      hasTouch: true,
      isMobile: true,
      storageState: await desktop.storageState(),
    });
    const mobile = await phone.newPage();
    try {
      await mobile.goto(`${app.url}/jobs/${bookId}`);
      // The saved place may lie in a chapter still converting, where nothing can play yet: these
      // Play buttons are tried on the finished book (the converting one is the first test's).
      await waitForJobStatus(mobile, app.url, bookId);
      await mobile.getByRole('button', { name: 'Play Audiobook' }).tap();
      await mobile.waitForURL(`${app.url}/library/${bookId}`);
      await expect(mobile.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(TITLE);
      await mobile.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 15_000 });
      await isPlaying(mobile);

      await mobile.goto(`${app.url}/jobs/${bookId}`);
      await mobile.getByRole('button', { name: 'Play Chapter 2', exact: true }).tap();
      await mobile.waitForURL(`${app.url}/library/${bookId}`);
      await expect(mobile.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(TITLE);
      await mobile.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 15_000 });
      await isPlaying(mobile);
      await mobile.getByRole('button', { name: 'Pause' }).tap();
    } finally {
      await phone.close();
    }
  });

  it('the server goes away mid-book: one banner, paused at the place, and all comes back without a reload', async () => {
    await page.goto(`${app.url}/library/${bookId}`);
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await expect.poll(() => play.isEnabled(), { timeout: 15_000 }).toBe(true);
    await play.click();
    await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 15_000 });
    await isPlaying(page);

    // The server stops at once, as a crash or a lost network would; its data stays.
    await app.crash();
    const banner = page.getByText(OUTAGE_MESSAGE);
    await banner.waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 15_000 });
    const place = await bookTime(page);
    // The banner says it once: the player adds no error of its own.
    expect(await page.getByRole('alert').count()).toBe(0);

    // The same server comes back at the same address: the page recovers by itself.
    app = await startApp({}, { dataDir: app.dataDir, port: Number(new URL(app.url).port) });
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect(Math.abs((await bookTime(page)) - place)).toBeLessThanOrEqual(1);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 15_000 });
    await isPlaying(page);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
