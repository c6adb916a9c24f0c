// `npm test`: every check, in the order the chain runs: formatting -> lint -> types -> contract -> generated code
// -> dependencies -> unit and server tests -> screens as stories -> Pact consumer -> Pact provider
// against the real server -> the app in a real browser.
// Each step is a package.json script, run by name: the scripts are the one list of commands, so
// `npm run typecheck` and this chain cannot drift apart. Each step runs even when an earlier one
// failed (except the provider, which needs the pact the consumer writes), and the summary names
// what failed. Run some steps only by naming them (a script name or a word of the label), e.g.
// `node scripts/test-all.mjs lint typecheck Pact`.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureTestTools } from './test-tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const steps = [
  { script: 'format:check', name: 'formatting (Prettier)' },
  { script: 'lint', name: 'lint (incl. import boundaries)' },
  { script: 'typecheck:spa', name: 'typecheck (SPA)' },
  { script: 'typecheck:server', name: 'typecheck (server)' },
  { script: 'lint:contract', name: 'contract lint' },
  { script: 'check:generated', name: 'generated code drift' },
  { script: 'check:deps', name: 'unused dependencies, files and exports (knip)' },
  { script: 'test:unit', name: 'unit and server tests' },
  { script: 'test:stories', name: 'stories in Chromium' },
  {
    script: 'test:pact:consumer',
    name: 'Pact consumer',
    // The consumer tests add their interactions to the pact file: start from none, so an
    // interaction a test no longer declares cannot linger in the contract.
    before: () => rmSync(`${root}contracts/pacts/lectio-web-lectio-api.json`, { force: true }),
  },
  { script: 'test:pact:provider', name: 'Pact provider verification', needs: 'Pact consumer' },
  { script: 'test:e2e', name: 'browser end-to-end' },
];

const scripts = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts ?? {};
const missing = steps.filter((step) => !(step.script in scripts)).map((step) => step.script);
if (missing.length) {
  console.error(`package.json has no script named ${missing.join(', ')}`);
  process.exit(2);
}
const only = process.argv.slice(2);
const chosen = steps.filter(
  (step) =>
    !only.length ||
    only.some((word) => step.script === word || step.script.startsWith(`${word}:`) || step.name.includes(word)),
);
if (only.length && !chosen.length) {
  console.error(`No step matches ${only.join(', ')}. Steps: ${steps.map((step) => step.script).join(', ')}`);
  process.exit(2);
}
/** Lines kept from a step's output, printed again after the summary when the step failed. */
const TAIL_LINES = 80;

/**
 * Runs one script, its output shown live, and resolves with its exit status and the last lines it
 * printed: a CI log that keeps only its end still shows why a step failed.
 */
function runScript(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], {
      cwd: root,
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let tail = [];
    let partial = '';
    const keep = (chunk) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      tail = tail.concat(lines).slice(-TAIL_LINES);
    };
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      keep(chunk);
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      keep(chunk);
    });
    child.on('close', (status) => resolve({ status, tail: partial ? [...tail, partial].slice(-TAIL_LINES) : tail }));
  });
}

// The Debian programs the chosen steps drive (Chromium, PostgreSQL, ffprobe, epubcheck...):
// installed here when missing and this machine can, so a fresh machine runs the chain as CI does.
ensureTestTools(chosen.map((step) => step.script));

const results = [];
for (const step of chosen) {
  if (step.needs && results.find((r) => r.name === step.needs && !r.ok)) {
    results.push({ name: step.name, ok: false, seconds: 0, note: `skipped: ${step.needs} failed` });
    continue;
  }
  console.log(`\n=== ${step.name} (npm run ${step.script}) ===`);
  step.before?.();
  const started = Date.now();
  const run = await runScript(step.script);
  results.push({ name: step.name, ok: run.status === 0, seconds: (Date.now() - started) / 1000, tail: run.tail });
}

for (const r of results.filter((result) => !result.ok && result.tail)) {
  console.log(`\n=== why "${r.name}" failed: its last ${r.tail.length} lines ===`);
  console.log(r.tail.join('\n'));
}

console.log('\n=== summary ===');
for (const r of results)
  console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name}  (${r.seconds.toFixed(1)} s)${r.note ? `  ${r.note}` : ''}`);
const failed = results.filter((r) => !r.ok).length;
console.log(`Steps: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
