import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// One theme for every component (src/styles/theme.ts): colours, text sizes and shadows are tokens,
// so the look changes in one place. Stories, mocks, generated code and the theme itself are exempt.
const files = execFileSync('git', ['ls-files', '-z', 'src'], { encoding: 'utf8' })
  .split('\0')
  .filter((f) => /\.(ts|tsx)$/.test(f))
  .filter((f) => !/\.stories\.tsx$|\.test\.tsx?$|^src\/(styles|mocks|testing)\/|\/gen\//.test(f));

function offenders(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (!line.trim().startsWith('//') && !line.trim().startsWith('*') && pattern.test(line))
          found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('the theme is the one source of the look', () => {
  it('text sizes come from the type scale', () => {
    expect(offenders(/font-size:\s*[0-9.]/)).toEqual([]);
  });

  it('colours and shadows come from the theme', () => {
    expect(offenders(/#[0-9a-fA-F]{3,8}\b(?!-)|rgba?\(/)).toEqual([]);
  });
});

/** WCAG relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe('both themes meet WCAG AA for text', async () => {
  const { themes } = await import('../../src/styles/theme');
  for (const theme of Object.values(themes)) {
    const { colors, tone } = theme;
    const surfaces = { background: colors.background, surface: colors.surface, raised: colors.raised };
    it(`${theme.name}: body, muted, link and error text on every surface`, () => {
      for (const [surface, background] of Object.entries(surfaces)) {
        for (const text of ['text', 'textMuted', 'primary', 'danger'] as const) {
          expect(contrast(colors[text], background), `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    });
    it(`${theme.name}: buttons, badges and the focus ring`, () => {
      expect(contrast(colors.primaryText, colors.primary)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colors.primaryText, colors.primaryHover)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colors.disabledText, colors.disabled)).toBeGreaterThanOrEqual(4.5);
      // A non-text indicator needs 3:1 against what surrounds it.
      expect(contrast(colors.focus, colors.background)).toBeGreaterThanOrEqual(3);
      for (const [name, pair] of Object.entries(tone)) {
        expect(contrast(pair.text, pair.background), `${name} badge`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(colors.textMuted, pair.background), `muted text on ${name}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }
});
