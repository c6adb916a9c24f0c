import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerThroughUi, type RunningApp, startApp, waitForJobStatus } from './harness';

// From sign-up to listening, in the real app: paste a story, watch it convert, play it, and come
// back to the same place after a reload; then a three-chapter book and its chapter navigation.
let app: RunningApp;
let browser: Browser;
let page: Page;

const story = [
  'Elizabeth walked along the river every morning before the house woke.',
  'She liked the quiet of the reeds and the grey heron that waited by the mill.',
  'One morning a letter lay on the stone bridge, sealed with green wax.',
  'It was addressed to her, though nobody in the village knew her handwriting.',
  'She read it twice, folded it carefully, and decided to tell no one.',
].join(' ');

const book = [
  'Chapter 1',
  '',
  'The ferry left the harbour at dawn with seven passengers and a crate of oranges on deck.',
  'The captain counted them twice, because one of them had not bought a ticket.',
  '',
  'Chapter 2',
  '',
  'By noon the fog had come down so thickly that the gulls stopped crying.',
  'Nobody could see the bow from the stern, and the engine coughed and slowed.',
  '',
  'Chapter 3',
  '',
  'When the fog lifted, the island was closer than anyone expected.',
  'The passenger without a ticket was gone, and so were the oranges.',
].join('\n');

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  page = await browser.newPage();
  await registerThroughUi(page, app.url, `listener.${Date.now()}@example.com`, 'correct-horse-battery');
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function createAudiobook(title: string, text: string): Promise<string> {
  await page.goto(`${app.url}/upload`);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Story Text').fill(text);
  await page.getByRole('button', { name: 'Create Audiobook' }).click();
  await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

/**
 * Job detail polls every 3 s; Play Audiobook appears once a chapter is ready. These tests listen to
 * the finished book (one file), so they also wait for the job to be COMPLETED.
 */
async function waitUntilPlayable(id: string) {
  await page.getByRole('button', { name: 'Play Audiobook' }).waitFor({ timeout: 120_000 });
  await waitForJobStatus(page, app.url, id);
  // The page polls every 3 s: it shows the finished job too.
  await page.getByText('COMPLETED', { exact: true }).first().waitFor({ timeout: 30_000 });
}

let ferryId = '';
let letterId = '';

const audioTime = () => page.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);
/** Seconds into the book the player shows (its own file, or a chapter's while the book converts). */
const bookTime = async () => {
  const [m, s] = ((await page.getByRole('timer', { name: 'Elapsed time' }).first().textContent()) ?? '0:0').split(':');
  return Number(m) * 60 + Number(s);
};

describe('listening in the real app', () => {
  it('converts pasted text, showing its steps complete, and plays it', async () => {
    const id = await createAudiobook('The Letter on the Bridge', story);
    letterId = id;
    await waitUntilPlayable(id);
    await page.getByRole('button', { name: 'Expand All' }).click();
    for (const step of ['Acquire content', 'Synthesize', 'Finalize']) {
      await expect(page.getByText(step, { exact: false }).first().isVisible()).resolves.toBe(true);
      // Step statuses arrive uppercase on the wire; the page shows them lowercase.
      const toggle = await page
        .getByRole('button', { name: new RegExp(step) })
        .first()
        .textContent();
      expect(toggle).toContain('completed');
      expect(toggle).not.toContain('COMPLETED');
    }
    expect(await page.getByText('failed').count()).toBe(0);

    // Play Audiobook plays: the book page opens with the book already playing.
    await page.getByRole('button', { name: 'Play Audiobook' }).click();
    await page.waitForURL(`${app.url}/library/${id}`);
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.5, undefined, {
      timeout: 15_000,
    });
  });

  it('resumes within a second of the saved position after a reload', async () => {
    await page.getByRole('button', { name: 'Forward 10 seconds' }).click();
    const saving = page.waitForResponse(
      (res) => res.url().includes('/api/v1/progress/') && res.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Pause' }).click(); // pausing saves the position
    const saved = await audioTime();
    expect(saved).toBeGreaterThan(9);
    expect((await saving).status()).toBe(200);

    await page.reload();
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 1, undefined, {
      timeout: 15_000,
    });
    expect(Math.abs((await audioTime()) - saved)).toBeLessThanOrEqual(1);
  });

  it('reads along: the sentence being spoken is highlighted, and a sentence plays from where it starts', async () => {
    await page.goto(`${app.url}/library/${letterId}`);
    const text = page.getByRole('group', { name: 'Text of The Letter on the Bridge' });
    const spoken = () =>
      page.evaluate(() => document.querySelector('[role="group"] [aria-current="true"]')?.textContent ?? '');
    await text.getByRole('button', { name: /^Elizabeth walked along the river/ }).click();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 99) < 1, undefined, {
      timeout: 10_000,
    });
    expect(await spoken()).toMatch(/^Elizabeth walked along the river/);

    await page.getByRole('button', { name: 'Play', exact: true }).click();
    // As the voice reaches the second sentence, the highlight moves with it.
    await page.waitForFunction(
      () =>
        document.querySelector('[role="group"] [aria-current="true"]')?.textContent?.startsWith('She liked the quiet'),
      undefined,
      { timeout: 20_000 },
    );
    const before = await audioTime();
    await text.getByRole('button', { name: /^She read it twice/ }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('[role="group"] [aria-current="true"]')?.textContent?.startsWith('She read it twice'),
      undefined,
      { timeout: 10_000 },
    );
    expect(await audioTime()).toBeGreaterThan(before + 5);
    await page.getByRole('button', { name: 'Pause' }).click();
  });

  it('turns a three-chapter book into chapter jobs, and chapter navigation jumps between them', async () => {
    const id = await createAudiobook('The Ferry', book);
    ferryId = id;
    await waitUntilPlayable(id);
    const chapterJobs = page.getByRole('region', { name: 'Chapters' }).getByRole('listitem');
    await chapterJobs.nth(2).waitFor();
    await expect(chapterJobs.count()).resolves.toBe(3);
    // A chapter is named by its own title, not "<Book> - <Chapter>".
    await expect(chapterJobs.nth(1).locator('strong').textContent()).resolves.toBe('Chapter 2');

    await page.getByRole('button', { name: 'Play Audiobook' }).click();
    await page.waitForURL(`${app.url}/library/${id}`);
    const chapters = page.getByRole('region', { name: 'Chapters' }).getByRole('listitem');
    await chapters.nth(2).waitFor();
    await expect(chapters.count()).resolves.toBe(3);
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    await page.getByRole('button', { name: /^2\. / }).click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[aria-labelledby="chapters-heading"] [aria-current="true"]')
          ?.textContent?.startsWith('2.'),
      undefined,
      { timeout: 10_000 },
    );
    const inChapter2 = await bookTime();
    await page.getByRole('button', { name: 'Next chapter' }).click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[aria-labelledby="chapters-heading"] [aria-current="true"]')
          ?.textContent?.startsWith('3.'),
      undefined,
      { timeout: 10_000 },
    );
    expect(await bookTime()).toBeGreaterThan(inChapter2);
    await page.getByRole('button', { name: 'Previous chapter' }).click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[aria-labelledby="chapters-heading"] [aria-current="true"]')
          ?.textContent?.startsWith('2.'),
      undefined,
      { timeout: 10_000 },
    );
  });

  it('keeps playing from page to page, with the mini-player to pause it', async () => {
    await page.goto(`${app.url}/library/${ferryId}`);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    // On the book's own page the full player is there: no mini-player.
    expect(await page.getByRole('region', { name: 'Now playing' }).count()).toBe(0);

    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Library', 'Jobs', 'Dashboard']) {
      const before = await audioTime();
      await nav.getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      const bar = page.getByRole('region', { name: 'Now playing' });
      await bar.getByRole('link', { name: 'Open The Ferry' }).waitFor();
      // The same <audio> goes on: its time keeps growing across the navigation.
      await page.waitForFunction((t) => (document.querySelector('audio')?.currentTime ?? 0) > t + 0.3, before, {
        timeout: 10_000,
      });
    }

    const bar = page.getByRole('region', { name: 'Now playing' });
    await bar.getByRole('button', { name: 'Pause' }).click();
    await bar.getByRole('button', { name: 'Play' }).waitFor();
    const paused = await audioTime();
    await page.waitForTimeout(700);
    expect(await audioTime()).toBe(paused);
    await bar.getByRole('link', { name: 'Open The Ferry' }).click();
    await page.waitForURL(`${app.url}/library/${ferryId}`);
  });
});
