// The visual review can fail: a story shot against its own baseline matches, and the same story
// with one colour of the light theme changed (the primary, #a0411a, as a changed token in
// src/styles/theme.ts would restyle every rule that uses it) fails, with before, after and diff
// images written. It runs on the static Storybook (storybook-static, built here when missing).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, urlOf } from '../../scripts/static-server.mjs';
import { openBrowser, review, reviewPage, shoot, VARIANTS } from '../../scripts/visual/review.mjs';

const root = resolve(import.meta.dirname, '../..');
const story = 'screens-login--empty';
const desktopLight = VARIANTS.filter((variant) => variant.viewport === 'desktop' && variant.theme === 'light');

/** The light theme's primary colour as the browser writes it, and the colour it is changed to. */
const PRIMARY = 'rgb(160, 65, 26)';
const CHANGED = 'rgb(26, 111, 139)';

/** Rewrites every style rule that uses the primary colour, as a changed theme token would. */
async function changePrimaryColour(page: Page) {
  const changed = await page.evaluate(
    ({ from, to }) => {
      let count = 0;
      const visit = (rules: CSSRuleList) => {
        for (const rule of Array.from(rules)) {
          if (rule instanceof CSSStyleRule) {
            for (const property of Array.from(rule.style)) {
              const value = rule.style.getPropertyValue(property);
              if (value.includes(from)) {
                rule.style.setProperty(property, value.replaceAll(from, to));
                count += 1;
              }
            }
          } else if ('cssRules' in rule) {
            visit((rule as CSSGroupingRule).cssRules);
          }
        }
      };
      for (const sheet of Array.from(document.styleSheets)) visit(sheet.cssRules);
      return count;
    },
    { from: PRIMARY, to: CHANGED },
  );
  if (changed === 0) throw new Error(`No style rule uses ${PRIMARY}: the story no longer shows the primary colour`);
}

describe('npm run test:visual', () => {
  let server: Server;
  let baseUrl: string;
  let staticDir: string;
  const work = () => mkdtempSync(join(tmpdir(), 'visual-'));

  beforeAll(async () => {
    let dir = join(root, 'storybook-static');
    if (!existsSync(join(dir, 'index.json'))) {
      dir = join(work(), 'storybook-static');
      const built = spawnSync(join(root, 'node_modules/.bin/storybook'), ['build', '-o', dir, '--quiet'], {
        cwd: root,
        stdio: 'inherit',
      });
      expect(built.status).toBe(0);
    }
    staticDir = dir;
    server = await serveStatic(dir);
    baseUrl = urlOf(server);
  });

  afterAll(() => {
    server?.close();
  });

  it('passes on an unchanged story and fails, with before, after and diff images, when a theme colour changes', async () => {
    const dir = work();
    const options = {
      baseUrl,
      stories: [story],
      variants: desktopLight,
      baselineDir: join(dir, 'baselines'),
      outDir: join(dir, 'results'),
      log: () => {},
    };
    const accepted = await review({ ...options, update: true });
    expect(accepted.written).toEqual([`${story}.desktop-light`]);

    const unchanged = await review(options);
    expect(unchanged.failures).toEqual([]);

    const recoloured = await review({ ...options, prepare: changePrimaryColour });
    expect(recoloured.failures).toHaveLength(1);
    const [failure] = recoloured.failures;
    expect(failure!.name).toBe(`${story}.desktop-light`);
    expect(failure!.reason).toMatch(/^\d+ pixels differ \(\d+ allowed\)$/);
    const prefix = join(dir, 'results', `${story}.desktop-light`);
    expect(failure!.files).toEqual([`${prefix}-before.png`, `${prefix}-after.png`, `${prefix}-diff.png`]);

    // The before image is the baseline; the after image has the new colour where the old one was;
    // the diff marks the changed pixels in red (pixelmatch's colour for a difference).
    expect(readFileSync(`${prefix}-before.png`)).toEqual(
      readFileSync(join(dir, 'baselines', `${story}.desktop-light.png`)),
    );
    const count = (file: string, [r, g, b]: number[]) => {
      const png = PNG.sync.read(readFileSync(file));
      let n = 0;
      for (let i = 0; i < png.data.length; i += 4)
        if (png.data[i] === r && png.data[i + 1] === g && png.data[i + 2] === b) n += 1;
      return n;
    };
    expect(count(`${prefix}-before.png`, [160, 65, 26])).toBeGreaterThan(1000);
    expect(count(`${prefix}-after.png`, [160, 65, 26])).toBe(0);
    expect(count(`${prefix}-after.png`, [26, 111, 139])).toBeGreaterThan(1000);
    expect(count(`${prefix}-diff.png`, [255, 0, 0])).toBeGreaterThan(1000);
    expect(readFileSync(join(dir, 'results', 'index.html'), 'utf8')).toContain(`${story}.desktop-light-diff.png`);
  });

  it('works from a sub-folder of a static file server: the msw worker answers there and the sample audio is found', async () => {
    const prefix = '/review/storybook/';
    const nested = await serveStatic(staticDir, { prefix });
    const browser = await openBrowser();
    try {
      const page = await reviewPage(browser);
      const missing: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 404) missing.push(response.url());
      });
      // The book page asks the (mocked) API for its stream, then loads the sample MP3 beside iframe.html.
      const shot = await shoot(page, urlOf(nested, prefix), 'screens-librarydetail--details', desktopLight[0]!);
      expect(shot.length).toBeGreaterThan(0);
      await expect
        .poll(() => page.getByRole('heading', { level: 1, name: 'The Tell-Tale Heart' }).isVisible())
        .toBe(true);
      const worker = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
      expect(worker).toBe(`${urlOf(nested, prefix)}/mockServiceWorker.js`);
      const audio = await page.evaluate(() => document.querySelector('audio')?.src);
      expect(audio).toBe(`${urlOf(nested, prefix)}/fixtures/sample.mp3`);
      expect(missing).toEqual([]);
    } finally {
      await browser.close();
      nested.close();
    }
  });
});
