// The visual review: screenshots of chosen stories from a static Storybook, in headless Chromium,
// compared with committed baselines by pixelmatch. scripts/test-visual.mjs is its command line;
// tests/e2e/visual-review.e2e.test.ts proves it fails when a theme colour changes.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { chromeArgs, findChrome } from '../find-chrome.mjs';

/** Phone and desktop (the toolbar's sizes, .storybook/review/viewports.ts), each in both themes. */
export const VARIANTS = [
  { viewport: 'phone', width: 390, height: 844, theme: 'light' },
  { viewport: 'phone', width: 390, height: 844, theme: 'dark' },
  { viewport: 'desktop', width: 1280, height: 800, theme: 'light' },
  { viewport: 'desktop', width: 1280, height: 800, theme: 'dark' },
];

/**
 * How different two screenshots may be and still match:
 * - a pixel differs when pixelmatch's colour distance (YIQ, 0 to 1) is above 0.1 (its default);
 *   pixels it finds to be anti-aliasing are not counted;
 * - a screenshot differs when more than 0.1 % of its pixels differ (329 pixels on the phone, 1,024
 *   on the desktop; room for another machine's edge rasterising): a changed colour, border,
 *   spacing or word always moves more than that.
 */
export const TOLERANCE = { threshold: 0.1, maxDiffRatio: 0.001 };

/** Every shot is taken at this moment (the page's Date), so "3 days ago" reads the same on any day. */
export const FIXED_NOW = '2025-02-12T10:00:00Z';

/** Flags that make text and colour rasterise the same on every run (no subpixel or hinting tricks). */
const renderArgs = [
  '--font-render-hinting=none',
  '--disable-lcd-text',
  '--force-color-profile=srgb',
  '--hide-scrollbars',
];

const STILL_CSS = `*, *::before, *::after {
  animation: none !important; transition: none !important; caret-color: transparent !important;
}`;

export function shotName(storyId, variant) {
  return `${storyId}.${variant.viewport}-${variant.theme}`;
}

export function openBrowser() {
  return chromium.launch({ executablePath: findChrome(), args: [...chromeArgs, ...renderArgs] });
}

/** One page for many shots: fixed clock, seeded randomness, reduced motion, empty storage per visit. */
export async function reviewPage(browser) {
  const context = await browser.newContext({
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    colorScheme: 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  await context.addInitScript(() => {
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {
      // storage unavailable: nothing kept to clear
    }
    let seed = 20250212;
    Math.random = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 4294967296;
    };
  });
  const page = await context.newPage();
  await page.clock.setFixedTime(new Date(FIXED_NOW));
  return page;
}

/**
 * Opens one story at one size and theme (fonts pinned, `globals` in the URL as the toolbar sets
 * them), waits until its play function has finished and the fonts are in, freezes motion, runs
 * `prepare(page)` when given, and returns a PNG taken once two consecutive screenshots agree.
 */
export async function shoot(page, baseUrl, storyId, variant, { prepare } = {}) {
  await page.setViewportSize({ width: variant.width, height: variant.height });
  const globals = `theme:${variant.theme};fonts:pinned;viewport.value:${variant.viewport}`;
  await page.goto(`${baseUrl}/iframe.html?id=${encodeURIComponent(storyId)}&viewMode=story&globals=${globals}`);
  // 'finished' follows the play function whether it passed or threw; a throw shows the error display.
  const outcome = await page
    .waitForFunction(
      (id) => {
        const render = window.__STORYBOOK_PREVIEW__?.currentRender;
        if (render?.id !== id || !['finished', 'aborted'].includes(render.phase)) return false;
        const failed = render.phase === 'aborted' || document.body.classList.contains('sb-show-errordisplay');
        return failed ? (document.querySelector('#error-message')?.textContent ?? render.phase) : 'ok';
      },
      storyId,
      { timeout: 90_000, polling: 100 },
    )
    .then((handle) => handle.jsonValue());
  if (outcome !== 'ok') {
    throw new Error(`The story ${storyId} failed (${String(outcome).split('\n')[0]}); npm run test:stories says more.`);
  }
  await page.addStyleTag({ content: STILL_CSS });
  await page.evaluate(() => document.fonts.ready);
  if (prepare) await prepare(page);
  let previous = null;
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const shot = await page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
    if (previous && shot.equals(previous)) return shot;
    previous = shot;
    await page.waitForTimeout(300);
  }
  throw new Error(`The story ${storyId} (${variant.viewport}, ${variant.theme}) keeps changing; choose a still state.`);
}

/** Compares two PNGs with TOLERANCE: { same, diffPixels, reason, diff (PNG bytes) }. */
export function compare(beforeBytes, afterBytes) {
  const before = PNG.sync.read(beforeBytes);
  const after = PNG.sync.read(afterBytes);
  if (before.width !== after.width || before.height !== after.height) {
    return {
      same: false,
      diffPixels: null,
      reason: `size changed from ${before.width}x${before.height} to ${after.width}x${after.height}`,
      diff: null,
    };
  }
  const diff = new PNG({ width: after.width, height: after.height });
  const diffPixels = pixelmatch(before.data, after.data, diff.data, after.width, after.height, {
    threshold: TOLERANCE.threshold,
  });
  const allowed = Math.floor(after.width * after.height * TOLERANCE.maxDiffRatio);
  return {
    same: diffPixels <= allowed,
    diffPixels,
    reason: `${diffPixels} pixels differ (${allowed} allowed)`,
    diff: PNG.sync.write(diff),
  };
}

/**
 * Shoots every story in every variant and compares each with its baseline, or (update) rewrites
 * the baselines that changed, adds missing ones and removes those of stories no longer chosen.
 * With checkStale false (a run over some of the stories), other baselines are left alone.
 * A failure writes NAME-before.png (the baseline), NAME-after.png (now) and NAME-diff.png (red:
 * what changed) into outDir, with an index.html that shows them side by side.
 */
export async function review({
  baseUrl,
  stories,
  baselineDir,
  outDir,
  update = false,
  variants = VARIANTS,
  prepare,
  checkStale = true,
  log = console.log,
}) {
  const started = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(baselineDir, { recursive: true });
  const failures = [];
  const written = [];
  const expected = new Set();
  const browser = await openBrowser();
  try {
    const page = await reviewPage(browser);
    for (const storyId of stories) {
      for (const variant of variants) {
        const name = shotName(storyId, variant);
        expected.add(`${name}.png`);
        const baselineFile = join(baselineDir, `${name}.png`);
        let shot;
        try {
          shot = await shoot(page, baseUrl, storyId, variant, { prepare });
        } catch (error) {
          failures.push({ name, reason: error.message.split('\n')[0], files: [] });
          log(`FAIL  ${name}: ${error.message.split('\n')[0]}`);
          continue;
        }
        const baseline = existsSync(baselineFile) ? readFileSync(baselineFile) : null;
        const result = baseline ? compare(baseline, shot) : null;
        if (update) {
          if (!result?.same) {
            writeFileSync(baselineFile, shot);
            written.push(name);
            log(`${baseline ? 'updated' : 'added  '}  ${name}${result ? ` (${result.reason})` : ''}`);
          }
          continue;
        }
        if (result?.same) continue;
        mkdirSync(outDir, { recursive: true });
        const files = [];
        const save = (suffix, bytes) => {
          const file = join(outDir, `${name}-${suffix}.png`);
          writeFileSync(file, bytes);
          files.push(file);
        };
        if (baseline) save('before', baseline);
        save('after', shot);
        if (result?.diff) save('diff', result.diff);
        const reason = result ? result.reason : 'no baseline (npm run test:visual -- --update adds it)';
        failures.push({ name, reason, files });
        log(`FAIL  ${name}: ${reason}`);
      }
    }
  } finally {
    await browser.close();
  }
  const stale = checkStale
    ? readdirSync(baselineDir).filter((file) => file.endsWith('.png') && !expected.has(file))
    : [];
  for (const file of stale) {
    if (update) {
      rmSync(join(baselineDir, file));
      log(`removed  ${file} (its story is no longer reviewed)`);
    } else {
      failures.push({
        name: file,
        reason: 'a baseline of a story no longer reviewed (--update removes it)',
        files: [],
      });
    }
  }
  if (failures.length) writeIndex(outDir, failures);
  return {
    shots: stories.length * variants.length,
    failures,
    written,
    seconds: (Date.now() - started) / 1000,
  };
}

function writeIndex(outDir, failures) {
  mkdirSync(outDir, { recursive: true });
  const rows = failures
    .map(({ name, reason, files }) => {
      const images = files
        .map((file) => `<img src="${file.split('/').at(-1)}" alt="${file.split('/').at(-1)}">`)
        .join('');
      return `<section><h2>${name}</h2><p>${reason}</p><div>${images}</div></section>`;
    })
    .join('\n');
  writeFileSync(
    join(outDir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>Visual review: ${failures.length} differences</title>
<style>body{font-family:sans-serif;margin:1rem}div{display:flex;gap:8px;align-items:flex-start}img{max-width:32%;border:1px solid #999}</style>
<h1>Visual review: ${failures.length} differences</h1><p>Each row: before (the baseline), after (now), diff (red: what changed).</p>
${rows}\n`,
  );
}
