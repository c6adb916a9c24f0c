import { ESLint } from 'eslint';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type RunningApp, startApp } from './harness';

let app: RunningApp;
let browser: Browser;
let page: Page;

const email = `reader.${Date.now()}@example.com`;
const password = 'correct-horse-battery';

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signIn(withPassword: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(withPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('what npm start built', () => {
  it('serves a production build of the SPA, even when started from the test runner', async () => {
    const html = await (await fetch(`${app.url}/login`, { headers: { accept: 'text/html' } })).text();
    const entry = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const js = await (await fetch(new URL(entry!, app.url))).text();
    // React's development runtime and devtools hook names appear only in development builds.
    expect(js).not.toContain('jsxDEV');
    expect(js).not.toContain('react-stack-top-frame');
    // The tab has an icon: no 404 on every page load.
    const icon = /<link rel="icon"[^>]+href="([^"]+)"/.exec(html)?.[1];
    expect(icon).toBeDefined();
    const res = await fetch(new URL(icon!, app.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('leaves nothing the linter reads: dist/ and dist-server/ are ignored, so npm test passes after npm start', async () => {
    const results = await new ESLint({ errorOnUnmatchedPattern: false }).lintFiles([
      'dist/**/*.js',
      'dist-server/**/*.mjs',
    ]);
    expect(results.map((r) => r.filePath)).toEqual([]);
  });
});

describe('signing up and in against the real server', () => {
  it('registers a new reader and lands on the dashboard', async () => {
    await page.goto(`${app.url}/register`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${app.url}/dashboard`);
    // The signed-in shell (top bar with the reader's email) is its own chunk: wait for it.
    await page.getByText(email).first().waitFor();
    await expect(page.getByText(email).first().isVisible()).resolves.toBe(true);
  });

  it('signs out to the login page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/login`);
    expect(
      await page.evaluate(() => localStorage.getItem('access_token') ?? sessionStorage.getItem('access_token')),
    ).toBeNull();
  });

  it('signs back in with the same password', async () => {
    await signIn(password);
    await page.waitForURL(`${app.url}/dashboard`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/login`);
  });

  it('shows the server’s reason for a wrong password and stays on the login page', async () => {
    await signIn('not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Incorrect email or password');
    expect(page.url()).toBe(`${app.url}/login`);
  });

  it('sends a signed-out visitor of a protected page to the login page', async () => {
    await page.goto(`${app.url}/jobs`);
    await page.waitForURL(`${app.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
