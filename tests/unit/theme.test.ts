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
