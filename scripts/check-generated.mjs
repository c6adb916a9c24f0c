// Fails when regenerating the Orval client/server schemas, the protobufjs frames or the part-of-speech
// lexicon would change what is on disk: generated code is never edited by hand, and a contract
// change must be regenerated and committed together with it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const generatedDirs = ['src/api/gen', 'server/gen', 'proto/gen', 'server/analysis/gen'];

function snapshot() {
  const files = new Map();
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(root, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  for (const dir of generatedDirs) walk(join(root, dir));
  return files;
}

const before = snapshot();
execFileSync('npm', ['run', '--silent', 'generate'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const after = snapshot();

const changed = [];
for (const [file, hash] of after) {
  if (!before.has(file)) changed.push(`added:    ${file}`);
  else if (before.get(file) !== hash) changed.push(`changed:  ${file}`);
}
for (const file of before.keys()) if (!after.has(file)) changed.push(`removed:  ${file}`);

if (changed.length) {
  console.error('Generated code is out of date with contracts/openapi.yaml, proto/frames.proto or the pos package:');
  for (const line of changed) console.error(`  ${line}`);
  console.error('The regenerated files are now on disk: review and commit them (never edit them by hand).');
  process.exit(1);
}
console.log(`Generated code is up to date (${after.size} files checked).`);
