// @vitest-environment node
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';

describe('temporary directories of a test run', () => {
  it('every test project gives each test file a temporary directory of its own, removed after it', () => {
    const projects = (config.test?.projects ?? []) as { test?: { name?: string; setupFiles?: string | string[] } }[];
    const without = projects
      .filter((project) => ![project.test?.setupFiles ?? []].flat().includes('./tests/setup/temp-dir.ts'))
      .map((project) => project.test?.name);
    expect(projects.length).toBeGreaterThan(0);
    expect(without).toEqual([]);
  });

  it('points os.tmpdir() at this file’s own directory, so whatever a test makes there goes with it', () => {
    const dir = tmpdir();
    expect(path.basename(dir)).toMatch(/^lectio-vitest-/);
    expect(existsSync(dir)).toBe(true);
  });
});
