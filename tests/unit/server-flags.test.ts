// @vitest-environment node
// The compiled server is started four ways: `npm start` and `npm run worker` (scripts/), the
// Dockerfile, compose.yaml's worker and the command docs/deploy.md gives for a pruned install.
// The Node flags decide its memory and its CPU (scripts/build-server.mjs says why), so all of them
// use the same flags and the same environment.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/build-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the Node flags of the compiled server', () => {
  it.each([
    ['Dockerfile', /CMD \[(.*dist-server\/main\.mjs.*)\]/],
    ['compose.yaml', /command: \[(.*dist-server\/worker\.mjs.*)\]/],
    ['docs/deploy.md', /`(?:\w+=\S+ )*(node [^`]*dist-server\/main\.mjs)`/],
  ])('%s starts it with every flag of SERVER_NODE_FLAGS', (file, command) => {
    const line = command.exec(read(file))?.[1];
    expect(line, `no server command found in ${file}`).toBeDefined();
    const words = line!.split(/[\s,"]+/).filter(Boolean);
    expect(words.filter((w) => w.startsWith('--'))).toEqual(SERVER_NODE_FLAGS);
  });

  it.each([
    ['Dockerfile', /^ENV (.*)$/m],
    ['docs/deploy.md', /`((?:\w+=\S+ )+)node [^`]*dist-server\/main\.mjs`/],
  ])('%s starts it with the environment of SERVER_ENV', (file, line) => {
    const assignments = line.exec(read(file))?.[1]?.split(/\s+/).filter(Boolean) ?? [];
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(assignments).toContain(`${name}=${value}`);
  });
});
