import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerThroughUi, type RunningApp, startApp, waitForJobStatus } from './harness';

// The listening issue's whole story on a phone (390 x 844): paste a long text, listen to chapter 1
// while the rest converts, move around with the mini-player, follow the highlighted sentence, set a
// sleep timer, finish the book and listen again.
let app: RunningApp;
let browser: Browser;
let page: Page;

const SENTENCES = [
  'The keeper climbed the stairs of the lighthouse with the evening oil.',
  'Below her the harbour lights came on one by one along the wall.',
  'A fishing boat rounded the point later than it should have.',
  'She wrote the hour in the logbook and trimmed the wick again.',
];
const prose = (chars: number) => {
  let text = '';
  for (let i = 0; text.length < chars; i += 1)
    text += `${SENTENCES[i % SENTENCES.length]} ${i % 5 === 4 ? '\n\n' : ''}`;
  return text.trim();
};
// A short first chapter, then two long ones that are still converting when chapter 1 can be played.
const book = [
  `Chapter 1\n\n${SENTENCES.join(' ')}`,
  `Chapter 2\n\n${prose(30_000)}`,
  `Chapter 3\n\n${prose(30_000)}`,
].join('\n\n');

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await registerThroughUi(page, app.url, `phone.${Date.now()}@example.com`, 'correct-horse-battery');
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const audioTime = () => page.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);
const pageFitsThePhone = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('listening on a phone', () => {
  it('listens to chapter 1 while the rest converts, across pages, reading along, then finishes and listens again', async () => {
    await page.goto(`${app.url}/upload`);
    await page.getByLabel('Title', { exact: true }).fill('The Keeper');
    await page.getByLabel('Story Text').fill(book);
    await page.getByRole('button', { name: 'Create Audiobook' }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;

    // As soon as chapter 1 is converted the book can be played, while chapters 2 and 3 convert.
    await page.goto(`${app.url}/library/${id}`);
    const chapters = page.locator('[aria-labelledby="chapters-heading"]');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 120_000 });
    await expect.poll(() => chapters.getByText('Not ready yet').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await pageFitsThePhone()).toBe(true);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    // The spoken sentence is highlighted in the text.
    await page.waitForFunction(
      () =>
        document.querySelector('[role="group"] [aria-current="true"]')?.textContent?.startsWith('The keeper climbed'),
      undefined,
      { timeout: 15_000 },
    );

    // A sleep timer, from its menu.
    await page.getByRole('button', { name: /^Sleep timer/ }).click();
    await page.getByRole('menuitemradio', { name: '30 min' }).click();
    await expect(page.getByRole('button', { name: /^Sleep timer/ }).textContent()).resolves.toMatch(
      /Sleep in (29|30):/,
    );

    // Moving around (the bottom navigation): the mini-player keeps the book going and can pause it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click();
    const bar = page.getByRole('region', { name: 'Now playing' });
    await bar.getByRole('link', { name: 'Open The Keeper' }).waitFor();
    const before = await audioTime();
    await page.waitForFunction((t) => (document.querySelector('audio')?.currentTime ?? 0) > t + 0.3, before, {
      timeout: 10_000,
    });
    expect(await pageFitsThePhone()).toBe(true);
    await bar.getByRole('link', { name: 'Open The Keeper' }).click();
    await page.waitForURL(`${app.url}/library/${id}`);

    // Finish the book: once it has converted, play its last seconds to the end.
    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForJobStatus(page, app.url, id);
    await page.reload();
    const playButton = page.getByRole('button', { name: 'Play', exact: true });
    // Ready to play (the whole book's file and its metadata loaded), not just shown.
    await expect.poll(() => playButton.isEnabled(), { timeout: 30_000 }).toBe(true);
    const seek = page.getByRole('slider', { name: 'Seek' });
    const total = Number(await seek.getAttribute('aria-valuemax'));
    await seek.focus();
    await page.keyboard.press('End');
    for (let i = 0; i < 2; i += 1) await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => Number(await seek.getAttribute('aria-valuenow'))).toBeGreaterThan(total - 15);
    await playButton.click();
    await page.getByRole('button', { name: 'Listen again' }).waitFor({ timeout: 60_000 });
    await page.getByText('You finished this book.').waitFor();

    await page.getByRole('button', { name: 'Listen again' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.waitForFunction(
      () => {
        const t = document.querySelector('audio')?.currentTime ?? 99;
        return t > 0 && t < 10;
      },
      undefined,
      { timeout: 10_000 },
    );
  });
});
