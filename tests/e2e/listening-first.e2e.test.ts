import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerThroughUi, type RunningApp, startApp } from './harness';

// The home, the library and the book page as a listener meets them, at 1280 x 800 and on a
// 390 x 844 phone: play from the home shelf without leaving the page, a 100-chapter book whose
// read-along is near the top, the bottom navigation, dark mode. With LECTIO_SCREENSHOTS=<folder>
// the test saves what it sees there (docs/screenshots holds the ones docs/listening.md shows).
let app: RunningApp;
let browser: Browser;
let desktop: BrowserContext;
let page: Page;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const password = 'correct-horse-battery';
const email = `shelves.${Date.now()}@example.com`;
const screenshots = process.env.LECTIO_SCREENSHOTS;

async function shot(on: Page, name: string): Promise<void> {
  if (!screenshots) return;
  mkdirSync(screenshots, { recursive: true });
  await on.screenshot({ path: join(screenshots, `${name}.png`) });
}

const story = [
  'The tide came in slowly over the flats while the birds rose in long grey lines.',
  'Maren walked to the end of the jetty and counted the boats coming home before dark.',
  'Her grandfather had taught her the names of every one of them, and the names of the winds.',
  'That evening the last boat was late, and the lamp in the harbour office burned until morning.',
].join(' ');

/** A book of a hundred short chapters: the planner finds each "Chapter N" heading. */
const hundredChapters = Array.from(
  { length: 100 },
  (_, i) =>
    `Chapter ${i + 1}\n\nThe keeper wrote the hour in the logbook, trimmed the wick and watched chapter ${i + 1} of the night go by.`,
).join('\n\n');

async function createAudiobook(on: Page, title: string, text: string): Promise<string> {
  await on.goto(`${app.url}/upload`);
  await on.getByLabel('Title', { exact: true }).fill(title);
  await on.getByLabel('Story Text').fill(text);
  await on.getByRole('button', { name: /^(Create Audiobook|Convert \d+ chapters)$/ }).click();
  await on.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  return on.url().split('/').pop()!;
}

const audioTime = (on: Page) => on.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  // A light system theme, as most desktops have.
  desktop = await browser.newContext({ viewport: DESKTOP, colorScheme: 'light' });
  page = await desktop.newPage();
  await registerThroughUi(page, app.url, email, password);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('listening first, at 1280 x 800', () => {
  let tideId = '';

  it('plays a book from the home shelf without leaving the page, and resumes it from there', async () => {
    tideId = await createAudiobook(page, 'The Tide Book', story);
    await page.getByRole('button', { name: 'Play Audiobook' }).waitFor({ timeout: 120_000 });

    await page.goto(`${app.url}/dashboard`);
    const added = page.getByRole('region', { name: 'Recently added' });
    await added.getByRole('button', { name: 'Play The Tide Book' }).click();
    const bar = page.getByRole('region', { name: 'Now playing' });
    await bar.getByRole('button', { name: 'Pause' }).waitFor();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 1.5, undefined, {
      timeout: 15_000,
    });
    // Still home: the mini-player took over.
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await shot(page, 'home-playing-desktop');

    // Pausing saves the place; on the next visit Continue listening offers the book.
    const saving = page.waitForResponse(
      (res) => res.url().includes('/api/v1/progress/') && res.request().method() === 'PUT',
    );
    await bar.getByRole('button', { name: 'Pause' }).click();
    expect((await saving).status()).toBe(200);
    const saved = await audioTime(page);
    await page.reload();
    // After the reload the mini-player is back with the book, paused: the shelf offers to continue it.
    const shelf = page.getByRole('region', { name: 'Continue listening' });
    await shelf.getByRole('button', { name: /^(Play|Continue) The Tide Book$/ }).click();
    await bar.getByRole('button', { name: 'Pause' }).waitFor();
    // It goes on from the saved place, on the same page.
    await page.waitForFunction((t) => (document.querySelector('audio')?.currentTime ?? 0) > t, saved, {
      timeout: 15_000,
    });
    expect(Math.abs((await audioTime(page)) - saved)).toBeLessThan(3);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await bar.getByRole('button', { name: 'Pause' }).click();
  });

  it('shows the library covers first, with a "More actions" menu', async () => {
    await page.goto(`${app.url}/library`);
    const card = page.getByRole('listitem', { name: 'The Tide Book' });
    await card.getByRole('img', { name: 'Cover of The Tide Book' }).waitFor();
    const cover = await card.getByRole('img', { name: 'Cover of The Tide Book' }).boundingBox();
    expect(cover!.width).toBeGreaterThanOrEqual(120);
    await expect(page.getByLabel('Summary').textContent()).resolves.toMatch(/^1 book · .+ · Offline voice 1$/);
    await card.getByRole('button', { name: 'More actions for The Tide Book' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).waitFor();
    await shot(page, 'library-desktop');
    await page.keyboard.press('Escape');
  });

  it('puts the read-along of a 100-chapter book within 1.2 screens of the top', async () => {
    const id = await createAudiobook(page, 'A Hundred Nights', hundredChapters);
    // The book plays as soon as its first chapter is ready; the rest may still convert.
    await page.goto(`${app.url}/library/${id}`);
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 120_000 });
    const chapters = page.getByRole('region', { name: 'Chapters' });
    await expect.poll(() => chapters.getByRole('listitem').count(), { timeout: 30_000 }).toBe(100);
    const readAlong = page.getByRole('region', { name: 'Read along' });
    await readAlong.waitFor();
    const top = await readAlong.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    expect(top).toBeLessThanOrEqual(1.2 * DESKTOP.height);
    // The chapter list holds about eight rows and scrolls inside itself.
    const list = await chapters.locator('ol').evaluate((el) => {
      const box = el.parentElement!;
      return { shown: box.clientHeight, all: box.scrollHeight };
    });
    expect(list.shown).toBeLessThan(DESKTOP.height / 2);
    expect(list.all).toBeGreaterThan(list.shown * 5);
    // Cover and player share the top of the page.
    const cover = await page.getByRole('img', { name: 'Cover of A Hundred Nights' }).boundingBox();
    const player = await page.getByRole('region', { name: 'Player: A Hundred Nights' }).boundingBox();
    expect(cover!.y).toBeLessThan(DESKTOP.height / 2);
    expect(player!.y).toBeLessThan(DESKTOP.height / 2);
    await shot(page, 'book-page-desktop');
  });

  it('follows a dark system, and keeps the reader’s own choice across a reload', async () => {
    const night = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
    const dark = await night.newPage();
    await dark.goto(`${app.url}/login`);
    await dark.getByLabel('Email').fill(email);
    await dark.getByLabel('Password', { exact: true }).fill(password);
    await dark.getByRole('button', { name: 'Sign in' }).click();
    await dark.waitForURL(`${app.url}/dashboard`);
    const background = () => dark.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(25, 21, 18)');
    const toggle = dark.getByRole('button', { name: 'Dark mode' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await dark.goto(`${app.url}/library/${tideId}`);
    await dark.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await shot(dark, 'book-page-dark');

    await toggle.click();
    expect(await background()).toBe('rgb(250, 246, 240)');
    await dark.reload();
    await dark.getByRole('button', { name: 'Dark mode' }).waitFor();
    expect(await background()).toBe('rgb(250, 246, 240)');
    expect(await dark.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('false');
    await night.close();
  });
});

describe('listening first, on a 390 x 844 phone', () => {
  it('has a bottom navigation with the mini-player above it, the cover above the player, no keyboard help', async () => {
    const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: 'light' });
    const mobile = await phone.newPage();
    await mobile.goto(`${app.url}/login`);
    await mobile.getByLabel('Email').fill(email);
    await mobile.getByLabel('Password', { exact: true }).fill(password);
    await mobile.getByRole('button', { name: 'Sign in' }).click();
    await mobile.waitForURL(`${app.url}/dashboard`);

    const nav = mobile.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Voice Assistant' }).waitFor();
    // Five places, in order, each an icon over its label (Jobs may carry its running badge).
    const labels = (await nav.getByRole('link').allTextContents()).map((text) =>
      text.replace(/\(\d+ running\)|\d+/g, '').trim(),
    );
    expect(labels).toEqual(['Dashboard', 'Jobs', 'Upload', 'Library', 'Voice Assistant']);
    expect(await nav.locator('svg').count()).toBe(5);
    const navBox = await nav.boundingBox();
    expect(Math.round(navBox!.y + navBox!.height)).toBe(PHONE.height);
    expect(await mobile.getByRole('button', { name: 'Menu' }).count()).toBe(0);
    await shot(mobile, 'home-phone');

    await nav.getByRole('link', { name: 'Library' }).click();
    await mobile.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
    await mobile
      .getByRole('listitem', { name: 'The Tide Book' })
      .getByRole('link', { name: 'The Tide Book', exact: true })
      .click();
    await mobile.getByRole('button', { name: 'Play', exact: true }).waitFor();
    const cover = await mobile.getByRole('img', { name: 'Cover of The Tide Book' }).boundingBox();
    const player = await mobile.getByRole('region', { name: 'Player: The Tide Book' }).boundingBox();
    expect(cover!.y + cover!.height).toBeLessThanOrEqual(player!.y);
    // The read-along sits right under the player on a phone.
    const text = await mobile.getByRole('region', { name: 'Read along' }).boundingBox();
    expect(text!.y).toBeGreaterThan(player!.y);
    expect(text!.y).toBeLessThan((await mobile.getByRole('region', { name: 'Chapters' }).boundingBox())?.y ?? Infinity);
    // A touch screen has no keyboard to explain.
    expect(await mobile.getByText('Keyboard shortcuts').isVisible()).toBe(false);
    await shot(mobile, 'book-page-phone');

    await mobile.getByRole('button', { name: 'Play', exact: true }).tap();
    await mobile.getByRole('button', { name: 'Pause' }).waitFor();
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    const bar = mobile.getByRole('region', { name: 'Now playing' });
    await bar.getByRole('button', { name: 'Pause' }).waitFor();
    const barBox = await bar.boundingBox();
    // The mini-player sits right above the bottom navigation.
    expect(Math.abs(barBox!.y + barBox!.height - navBox!.y)).toBeLessThanOrEqual(2);
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(mobile, 'home-phone-playing');
    await bar.getByRole('button', { name: 'Pause' }).tap();
    await phone.close();
  });
});
