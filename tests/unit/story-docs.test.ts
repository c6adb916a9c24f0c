// @vitest-environment node
// Storybook is a review room: every story file has a docs page (autodocs, .storybook/preview.tsx)
// that says what the screen or component is for (the JSDoc above `const meta`) and, for each state,
// when a user sees it (the JSDoc above each story). Storybook reads those comments into the page;
// this test makes sure none is missing, so a new story cannot land undocumented.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function storyFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return storyFiles(relative);
    return entry.name.endsWith('.stories.tsx') ? [relative] : [];
  });
}

/** The JSDoc block that ends on the line right above `index`, or null. */
function docAbove(lines: string[], index: number): string | null {
  if (!lines[index - 1]?.trim().endsWith('*/')) return null;
  let start = index - 1;
  while (start >= 0 && !lines[start]!.trim().startsWith('/**')) start -= 1;
  if (start < 0) return null;
  return lines
    .slice(start, index)
    .join(' ')
    .replace(/\/\*\*|\*\/|^\s*\*|\s\*\s/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const files = storyFiles('src');

describe('docs pages of the stories', () => {
  it('finds the story files', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files)('%s says what it is for and when a user sees each state', (file) => {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    const undocumented: string[] = [];
    lines.forEach((line, index) => {
      const story = /^export const (\w+)/.exec(line)?.[1];
      const isMeta = line.startsWith('const meta');
      if (!story && !isMeta) return;
      const doc = docAbove(lines, index);
      if (!doc || doc.length < 10) undocumented.push(story ?? 'meta (what the screen is for)');
    });
    expect(undocumented).toEqual([]);
  });

  it('has a Flows section walking a reader from sign-up to X-ray, one story per step', () => {
    const flows = files
      .map((file) => readFileSync(path.join(root, file), 'utf8'))
      .filter((text) => /title: 'Flows\//.test(text));
    const steps = flows.flatMap((text) => [...text.matchAll(/^ {2}name: '(\d+\. [^']+)'/gm)].map((m) => m[1]));
    expect(steps).toEqual(['1. Sign up', '2. Add a book', '3. Watch it convert', '4. Listen', '5. Ask X-ray']);
  });
});
