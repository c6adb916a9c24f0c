// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withConfigTable } from '../../scripts/readme-config';

describe('README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('documents every environment variable the server reads (run scripts/readme-config.ts to update)', () => {
    expect(readme).toBe(withConfigTable(readme));
  });

  it('gives the two commands, and CI runs the test one', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/^npm test$/m);
  });
});
