/**
 * The voice page as a reader uses it (part of `npm run bench -- voice`): the app started as
 * `npm start` starts it, Chromium, a short book converted and opened in X-ray, then typed
 * questions. Printed: from pressing Send to the first words of the answer on screen, and to the
 * whole answer (target: the first words in under 300 ms on this machine; audio follows). Never
 * asserted.
 */
import type { Page } from 'playwright-core';
import { launchBrowser, registerThroughUi, startApp } from '../tests/e2e/harness';

const QUESTIONS = [
  'Who is Elizabeth Hart?',
  'Where does the story take place?',
  'What just happened?',
  'What is the logbook?',
  'How does it end?',
];
const ROUNDS = 4;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const fmt = (xs: number[]) =>
  `p50 ${percentile(xs, 50).toFixed(0)} ms, p95 ${percentile(xs, 95).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, n=${xs.length})`;

/** Sends `question` and measures, in the page, Send -> first answer text and -> the finished answer. */
async function timeAnswer(page: Page, question: string): Promise<{ first: number; done: number }> {
  await page.getByLabel('Type a question').fill(question);
  return page.evaluate(
    (asked) =>
      new Promise<{ first: number; done: number }>((resolve, reject) => {
        const turns = () => [...document.querySelectorAll('ol[aria-labelledby="va-transcript"] > li:has(strong)')];
        const before = turns().length;
        let first = 0;
        const t0 = performance.now();
        const look = () => {
          const all = turns();
          const question = all.findIndex((t, i) => i >= before && t.querySelector('.text')?.textContent === asked);
          const answer = question < 0 ? undefined : all[question + 1];
          const text = answer?.querySelector('.text')?.textContent?.replace(/…$/u, '').trim() ?? '';
          if (text !== '' && first === 0) first = performance.now() - t0;
          if (answer !== undefined && text !== '' && !answer.hasAttribute('aria-busy')) {
            observer.disconnect();
            clearTimeout(timer);
            resolve({ first, done: performance.now() - t0 });
          }
        };
        const observer = new MutationObserver(look);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`no answer to "${asked}" within 30 s`));
        }, 30_000);
        document.querySelector<HTMLButtonElement>('form button[type="submit"]')!.click();
      }),
    question,
  );
}

export async function benchVoicePage(): Promise<void> {
  console.log('--- the voice page in Chromium (app as npm start runs it, offline voice)');
  const app = await startApp();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    // The bench runs under tsx, whose transform names functions with a helper the page lacks.
    await page.addInitScript(() => {
      (globalThis as unknown as { __name: (f: unknown) => unknown }).__name = (f) => f;
    });
    await registerThroughUi(page, app.url, `bench.${Date.now()}@example.com`, 'correct-horse-battery');
    await page.goto(`${app.url}/upload`);
    await page.getByLabel('Title', { exact: true }).fill('The Keeper of the Cape');
    await page
      .getByLabel('Story Text')
      .fill(
        'Elizabeth Hart kept the lighthouse on the northern cape with her old dog. ' +
          'Elizabeth Hart wrote the weather in a blue logbook every evening. ' +
          'Each night Elizabeth climbed the spiral stairs and lit the great lamp for the ships.',
      );
    await page.getByRole('button', { name: 'Create Audiobook' }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    const bookId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByRole('link', { name: 'Play Audiobook' }).waitFor({ timeout: 180_000 });
    await page.goto(`${app.url}/voice-assistant?mode=xray&jobId=${bookId}&position=20`);
    await page.getByRole('button', { name: 'Start talking' }).click();
    await page.getByRole('button', { name: 'End conversation' }).waitFor({ timeout: 60_000 });
    // Warm: the first answer of the process loads the offline voice.
    await timeAnswer(page, 'Who is Elizabeth Hart?');
    const first: number[] = [];
    const done: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const question of QUESTIONS) {
        const t = await timeAnswer(page, question);
        first.push(t.first);
        done.push(t.done);
      }
    }
    console.log(`typed question (Send) -> first words of the answer on screen (target < 300 ms): ${fmt(first)}`);
    console.log(`typed question (Send) -> the whole answer on screen: ${fmt(done)}`);
  } finally {
    await browser.close();
    await app.stop();
  }
}
