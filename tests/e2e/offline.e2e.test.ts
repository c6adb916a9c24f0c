import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { darkTheme, lightTheme } from '../../src/styles/theme';
import { launchBrowser, registerThroughUi, type RunningApp, startApp, waitForJobStatus } from './harness';

// The app on a phone without a network: installable (its web manifest and icons), its service
// worker in control, and the shell still there after a reload offline. Each part has a browser
// context of its own, at a phone's size, with a new listener.
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const PHONE = { width: 390, height: 844 };

/** A fresh phone-sized browser context, signed up as a new listener, on the dashboard. */
async function phone(name: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await registerThroughUi(page, app.url, `${name}.${Date.now()}@example.com`, 'correct-horse-battery');
  return { context, page };
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the installable app and its service worker', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await phone('installer'));
  });

  afterAll(async () => {
    await context?.close();
  });

  it('links a valid web manifest whose icons load at their sizes', async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(`${app.url}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Lectio', short_name: 'Lectio', start_url: '/', scope: '/' });
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toBe(lightTheme.colors.background);
    expect(manifest.background_color).toBe(lightTheme.colors.background);
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);

    const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    const icons = [...manifest.icons, { src: appleIcon ?? '', sizes: '180x180', type: 'image/png' }];
    for (const icon of icons) {
      const image = await page.request.get(new URL(icon.src, app.url).href);
      expect(image.status(), icon.src).toBe(200);
      expect(image.headers()['content-type']).toBe(icon.type);
      const { width, height } = pngSize(await image.body());
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }

    // Each theme's page colour for the browser's bars, as the page is served (once the app runs,
    // both follow the theme in force: the light one here).
    const served = await (await page.request.get(`${app.url}/`)).text();
    const themeColors = [...served.matchAll(/<meta name="theme-color" media="([^"]+)" content="([^"]+)"/g)].map(
      (match) => [match[1], match[2]],
    );
    expect(themeColors).toEqual([
      ['(prefers-color-scheme: light)', lightTheme.colors.background],
      ['(prefers-color-scheme: dark)', darkTheme.colors.background],
    ]);
    await expect
      .poll(() =>
        page
          .locator('meta[name="theme-color"]')
          .evaluateAll((metas) => metas.map((meta) => meta.getAttribute('content'))),
      )
      .toEqual([lightTheme.colors.background, lightTheme.colors.background]);
  });

  it('serves the service worker fresh, and it controls the page after a reload', async () => {
    const script = await page.request.get(`${app.url}/sw.js`);
    expect(script.status()).toBe(200);
    expect(script.headers()['content-type']).toMatch(/javascript/);
    expect(script.headers()['cache-control']).toBe('no-cache');

    // Installed (the shell precached) and active: the page the worker was registered from is
    // not yet its client; the next load is.
    const state = await page.evaluate(async () => {
      const active = (await navigator.serviceWorker.ready).active!;
      if (active.state === 'activating')
        await new Promise((resolve) => active.addEventListener('statechange', resolve, { once: true }));
      return active.state;
    });
    expect(state).toBe('activated');
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${app.url}/sw.js`);
  });

  it('shows the app shell and the library after a reload offline, and says it is offline', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click();
    await page.waitForURL(`${app.url}/library`);
    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: "You're offline." }).textContent())
        .toBe("You're offline. Books kept on this device still play.");
      // Still signed in: the session outlives a server that cannot be reached.
      expect(page.url()).toBe(`${app.url}/library`);
      // The API is never answered with the shell.
      const api = await page.evaluate(() =>
        fetch('/api/v1/environment').then(
          (res) => res.headers.get('content-type'),
          () => 'no answer',
        ),
      );
      expect(api).toBe('no answer');
    } finally {
      await context.setOffline(false);
    }
    // Back online, the banner goes.
    await expect.poll(() => page.getByText("You're offline. Books kept on this device still play.").count()).toBe(0);
  });

  it('answers kept paths from the kept books: audio first from the device in ranges, JSON only offline', async () => {
    // What keeping a book stores, put straight into the cache: audio bytes and an API answer,
    // each under its path without the query.
    await page.evaluate(async () => {
      const cache = await caches.open('lectio-kept-books');
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      await cache.put(
        `${location.origin}/api/v1/media/kept-test/book.mp3`,
        new Response(bytes, { headers: { 'content-type': 'audio/mpeg', 'content-length': '256' } }),
      );
      await cache.put(
        `${location.origin}/api/v1/environment`,
        Response.json({ kept: true }, { headers: { 'content-type': 'application/json' } }),
      );
    });
    const audioRange = () =>
      page.evaluate(async () => {
        // A signed URL's query changes from one answer to the next; the kept copy is found by path.
        const res = await fetch('/api/v1/media/kept-test/book.mp3?expires=1&sig=new', {
          headers: { range: 'bytes=10-19' },
        });
        return {
          status: res.status,
          range: res.headers.get('content-range'),
          bytes: [...new Uint8Array(await res.arrayBuffer())],
        };
      });
    const environment = () => page.evaluate(() => fetch('/api/v1/environment').then((res) => res.json()));
    const part = { status: 206, range: 'bytes 10-19/256', bytes: [10, 11, 12, 13, 14, 15, 16, 17, 18, 19] };

    // Online: the audio from the device (the server would refuse that signature), the JSON fresh.
    expect(await audioRange()).toEqual(part);
    expect(await environment()).toHaveProperty('environment');
    await context.setOffline(true);
    try {
      expect(await audioRange()).toEqual(part);
      expect(await environment()).toEqual({ kept: true });
    } finally {
      await context.setOffline(false);
    }

    // Nothing else of the API was stored anywhere: only what was kept.
    const stored = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(`${name} ${request.url}`);
      }
      return urls.filter((url) => url.includes('/api/'));
    });
    expect(stored.sort()).toEqual([
      `lectio-kept-books ${app.url}/api/v1/environment`,
      `lectio-kept-books ${app.url}/api/v1/media/kept-test/book.mp3`,
    ]);
  });
});

describe('a book kept on this device', () => {
  // Two short chapters, converted with the offline voice.
  const title = 'The Lighthouse Keeper';
  const text = [
    'Chapter 1',
    '',
    'The keeper climbed the hundred steps every evening to light the lamp.',
    'Ships far out at sea saw the beam and knew where the rocks were.',
    '',
    'Chapter 2',
    '',
    'One winter night the lamp went dark, and the keeper heard a bell below.',
    'A small boat had found the harbour by the sound alone.',
  ].join('\n');
  let context: BrowserContext;
  let page: Page;
  let bookId = '';

  const audioTime = () => page.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);
  const currentChapter = () =>
    page.evaluate(
      () => document.querySelector('[aria-labelledby="chapters-heading"] [aria-current="true"]')?.textContent ?? '',
    );
  /** The saved place as the server holds it, read with the listener's token. */
  const serverPlace = async () => {
    const token = await page.evaluate(
      () => localStorage.getItem('access_token') ?? sessionStorage.getItem('access_token'),
    );
    const res = await page.request.get(`${app.url}/api/v1/progress/${bookId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { position_seconds: number } | null)?.position_seconds ?? null;
  };

  beforeAll(async () => {
    ({ context, page } = await phone('keeper'));
    // Records which Media Session actions the app handles (the API has no way to read them back).
    await context.addInitScript(() => {
      const session = navigator.mediaSession;
      const handled: Record<string, boolean> = {};
      Object.assign(window, { handledMediaActions: handled });
      const set = session.setActionHandler.bind(session);
      session.setActionHandler = (action, handler) => {
        handled[action] = handler !== null;
        set(action, handler);
      };
    });
    // The service worker controls the page from the next load on.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
  });

  afterAll(async () => {
    await context?.close();
  });

  it('keeps a finished book with "Download to this device", showing what it takes', async () => {
    await page.goto(`${app.url}/upload`);
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Story Text').fill(text);
    await page.getByRole('button', { name: 'Create Audiobook' }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    bookId = page.url().split('/').pop()!;
    await waitForJobStatus(page, app.url, bookId);

    // A place in the first chapter, saved while online.
    await page.goto(`${app.url}/library/${bookId}`);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 2, undefined, {
      timeout: 15_000,
    });
    const saving = page.waitForResponse((res) => res.url().includes('/progress/') && res.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Pause' }).click();
    expect((await saving).status()).toBe(200);

    await page.getByRole('button', { name: 'Download to this device' }).click();
    await page.getByText(/^On this device · \d+(\.\d)? (KB|MB)$/).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Remove from this device' }).waitFor();
  });

  it('offline after a reload: the library shows it, and it plays from its place with the read-along and chapters', async () => {
    const place = await serverPlace();
    expect(place).toBeGreaterThan(1);
    await page.goto(`${app.url}/library`);
    await page.getByRole('list', { name: 'Books' }).waitFor();
    await context.setOffline(true);
    await page.reload();

    const tile = page.getByRole('listitem', { name: title });
    await tile.getByText('On this device').waitFor();
    await tile.getByRole('link', { name: title, exact: true }).click();
    await page.waitForURL(`${app.url}/library/${bookId}`);

    // From its place: the kept copy of the saved place.
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 15_000 });
    await page
      .getByRole('group', { name: 'Text of Chapter 1' })
      .getByRole('button', { name: /^The keeper climbed/ })
      .waitFor();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.waitForFunction((from) => (document.querySelector('audio')?.currentTime ?? 0) > from + 0.5, place!, {
      timeout: 15_000,
    });
    expect(await currentChapter()).toMatch(/^1\./);

    // The lock screen knows the book and routes its buttons.
    expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(title);
    const handled = await page.evaluate(
      () => (window as unknown as { handledMediaActions: Record<string, boolean> }).handledMediaActions,
    );
    for (const action of ['play', 'pause', 'seekto', 'nexttrack', 'previoustrack']) expect(handled[action]).toBe(true);

    // A chapter change, and the read-along follows it.
    await page.getByRole('button', { name: 'Next chapter' }).click();
    await expect.poll(currentChapter, { timeout: 10_000 }).toMatch(/^2\./);
    await page
      .getByRole('group', { name: 'Text of Chapter 2' })
      .getByRole('button', { name: /^One winter night/ })
      .waitFor();
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement)?.paused === false,
    );
  });

  it('progress made offline waits on the device and reaches the server once online', async () => {
    await page.waitForTimeout(1500);
    await page.getByRole('button', { name: 'Pause' }).click();
    const offlinePlace = await audioTime();
    await expect
      .poll(() =>
        page.evaluate(
          (id) =>
            (JSON.parse(localStorage.getItem('lectio.unsentPlaces') ?? '{}') as Record<string, { position: number }>)[
              id
            ]?.position ?? null,
          bookId,
        ),
      )
      .toSatisfy((queued: number | null) => queued !== null && Math.abs(queued - offlinePlace) < 1);
    expect(Math.abs((await serverPlace())! - offlinePlace)).toBeGreaterThan(3);

    await context.setOffline(false);
    await expect
      .poll(serverPlace, { timeout: 20_000 })
      .toSatisfy((saved: number | null) => saved !== null && Math.abs(saved - offlinePlace) < 1);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('lectio.unsentPlaces'))).toBeNull();
  });
});
