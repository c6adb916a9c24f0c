// `npm test`: every check, in three stages.
//   1. generated code drift (it regenerates the code in place, so nothing else reads the tree
//      meanwhile) beside the contract lint;
//   2. the static checks side by side, as many at once as the machine has cores: formatting, lint,
//      the repository's rules (meta tests), types, knip, and the one Storybook build that the
//      stories and the screenshots both use;
//   3. the tests, in two lanes side by side. The busy lane's steps keep every core working (unit
//      and server units -> the app in-process -> stories in Chromium -> screenshots against
//      baselines); the waiting lane's mostly wait on servers, databases and browsers they started
//      (real PostgreSQL and processes -> Pact consumer -> Pact provider against the real server ->
//      the app in a real browser), so they run beside the busy lane instead of after it. The summary
//      gives each step's wall time and CPU time: a step whose CPU time is near its wall time
//      times the cores belongs in the busy lane.
// Each step is a package.json script, run by name: the scripts are the one list of commands, so
// `npm run typecheck` and this chain cannot drift apart. Each step runs even when an earlier one
// failed (except those that need what a failed step makes: the provider needs the consumer's pact,
// the stories and screenshots the Storybook build), and the summary names what failed.
//
// Run some steps only by naming them (a script name or a word of the label), e.g.
// `node scripts/test-all.mjs lint typecheck Pact`; a step that uses the Storybook build brings it.
// TEST_SKIP_STEPS (script names, separated by spaces or commas) leaves steps out, named as skipped
// in the summary: CI runs some steps on another Node first and skips them here (.ci/run).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { ensureTestTools } from './test-tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

export const steps = [
  { script: 'check:generated', name: 'generated code drift', stage: 1 },
  { script: 'lint:contract', name: 'contract lint', stage: 1 },
  // `seconds`: about what the step takes on a 2-core machine; the longest start first, so the last
  // to finish is a short one.
  { script: 'format:check', name: 'formatting (Prettier)', stage: 2, seconds: 20 },
  { script: 'lint', name: 'lint (incl. import boundaries)', stage: 2, seconds: 20 },
  {
    script: 'test:meta',
    name: 'meta tests (docs, README, architecture map, file sizes, imports)',
    stage: 2,
    seconds: 15,
  },
  { script: 'typecheck:spa', name: 'typecheck (SPA)', stage: 2, seconds: 35 },
  { script: 'typecheck:server', name: 'typecheck (server)', stage: 2, seconds: 20 },
  { script: 'check:deps', name: 'unused dependencies, files and exports (knip)', stage: 2, seconds: 6 },
  { script: 'build-storybook', name: 'Storybook build (for the stories and the screenshots)', stage: 2, seconds: 30 },
  { script: 'test:unit', name: 'unit and server unit tests', stage: 3 },
  { script: 'test:app', name: 'app tests (the server in-process)', stage: 3 },
  { script: 'test:integration', name: 'integration tests (PostgreSQL, server processes)', stage: 3, lane: 'waiting' },
  {
    script: 'test:stories',
    args: ['--no-build'],
    name: 'stories in Chromium',
    stage: 3,
    needs: 'build-storybook',
  },
  {
    script: 'test:visual',
    args: ['--no-build'],
    name: 'visual review (screenshots against baselines)',
    stage: 3,
    lane: 'waiting',
    needs: 'build-storybook',
  },
  {
    script: 'test:pact:consumer',
    name: 'Pact consumer',
    stage: 3,
    lane: 'waiting',
    // The meta tests read the pact this step rewrites.
    after: 'test:meta',
    // The consumer tests add their interactions to the pact file: start from none, so an
    // interaction a test no longer declares cannot linger in the contract.
    before: () => rmSync(`${root}contracts/pacts/lectio-web-lectio-api.json`, { force: true }),
  },
  {
    script: 'test:pact:provider',
    name: 'Pact provider verification',
    stage: 3,
    lane: 'waiting',
    needs: 'test:pact:consumer',
  },
  { script: 'test:e2e', name: 'browser end-to-end', stage: 3, lane: 'waiting' },
];

/** Lines kept from a step's output, printed again after the summary when the step failed. */
const TAIL_LINES = 80;

/** Lines that name what failed: the test runners' failure marks and errors, TypeScript's and ESLint's errors. */
const FAILURE_LINE =
  /^\s*(×|✗|✕|●|FAIL\b)|\b(AssertionError|TimeoutError|Error:|Test timed out|Timed out|failed:|Failed:)|\berror TS\d+|^\s*\d+:\d+\s+error\b/;
const FAILURE_LINES = 12;

/**
 * The first few of a step's output `lines` that say what failed (the test's name, its error), shown
 * under the summary: a CI log cut to its last lines still names the failing test.
 */
export function failureLines(lines) {
  // Colour codes out first: a step's runner may colour its marks.
  const plain = lines.map((line) => stripVTControlCharacters(line).trim());
  return [...new Set(plain.filter((line) => FAILURE_LINE.test(line)))].slice(0, FAILURE_LINES);
}

/**
 * Runs one script and resolves with its exit status, the last lines it printed and the first that
 * name a failure: a CI log that keeps only its end still shows why a step failed. Its output is shown live, or, when it runs
 * beside others (`buffered`), all at once when it ends, so the steps' lines do not interleave.
 */
function runScript(script, args, buffered) {
  return new Promise((resolve) => {
    // Through cpu-counted.mjs, which reports on descriptor 3 what the step's processes cost.
    const npmArgs = ['run', '-s', script, ...(args.length ? ['--', ...args] : [])];
    const child = spawn(process.execPath, [`${root}scripts/cpu-counted.mjs`, 'npm', ...npmArgs], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let cpu = '';
    child.stdio[3].on('data', (chunk) => (cpu += chunk));
    const chunks = [];
    let tail = [];
    let failures = [];
    let partial = '';
    const keep = (chunk) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      tail = tail.concat(lines).slice(-TAIL_LINES);
      if (failures.length < FAILURE_LINES) failures = failureLines([...failures, ...lines]);
    };
    const show = (stream) => (chunk) => {
      if (buffered) chunks.push(chunk);
      else stream.write(chunk);
      keep(chunk);
    };
    child.stdout.on('data', show(process.stdout));
    child.stderr.on('data', show(process.stderr));
    child.on('close', (status) => {
      if (buffered) process.stdout.write(Buffer.concat(chunks));
      const cpuSeconds = cpu.trim() === '' ? null : Number(cpu);
      resolve({
        status,
        cpuSeconds,
        tail: partial ? [...tail, partial].slice(-TAIL_LINES) : tail,
        failures: failureLines([...failures, partial]),
      });
    });
  });
}

/** The steps the words name (all when none), with the steps they need built first. */
function choose(words) {
  const named = steps.filter(
    (step) =>
      !words.length ||
      words.some((word) => step.script === word || step.script.startsWith(`${word}:`) || step.name.includes(word)),
  );
  const needed = new Set(named.flatMap((step) => (step.needs === 'build-storybook' ? [step.needs] : [])));
  return steps.filter((step) => named.includes(step) || needed.has(step.script));
}

/** TEST_SKIP_STEPS: the script names to leave out. */
function skippedScripts() {
  return new Set((process.env.TEST_SKIP_STEPS ?? '').split(/[\s,]+/).filter(Boolean));
}

async function main() {
  const scripts = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts ?? {};
  const missing = steps.filter((step) => !(step.script in scripts)).map((step) => step.script);
  if (missing.length) {
    console.error(`package.json has no script named ${missing.join(', ')}`);
    process.exit(2);
  }
  const words = process.argv.slice(2);
  const chosen = choose(words);
  if (words.length && !chosen.length) {
    console.error(`No step matches ${words.join(', ')}. Steps: ${steps.map((step) => step.script).join(', ')}`);
    process.exit(2);
  }
  const skipped = skippedScripts();
  const unknown = [...skipped].filter((script) => !steps.some((step) => step.script === script));
  if (unknown.length) {
    console.error(`TEST_SKIP_STEPS names no step of the chain: ${unknown.join(', ')}`);
    process.exit(2);
  }
  const toRun = chosen.filter((step) => !skipped.has(step.script));

  // The Debian programs the chosen steps drive (Chromium, PostgreSQL, ffprobe, epubcheck...):
  // installed here when missing and this machine can, so a fresh machine runs the chain as CI does.
  await ensureTestTools(toRun.map((step) => step.script));

  const jobs = Math.max(1, availableParallelism());
  const results = new Map();
  for (const step of chosen.filter((s) => skipped.has(s.script)))
    results.set(step, { ok: true, skipped: true, seconds: 0, note: 'skipped: named in TEST_SKIP_STEPS' });

  // Each step's end: a step that needs another waits for it (the screenshots for the Storybook build).
  const ends = new Map(
    toRun.map((step) => {
      let resolve;
      const promise = new Promise((r) => (resolve = r));
      return [step.script, { promise, resolve }];
    }),
  );
  const runStep = async (step, buffered) => {
    for (const before of [step.needs, step.after]) if (before && ends.has(before)) await ends.get(before).promise;
    const needed = step.needs && results.get(steps.find((s) => s.script === step.needs));
    if (needed && !needed.ok) {
      results.set(step, { ok: false, seconds: 0, note: `skipped: ${step.needs} failed` });
    } else {
      const command = `npm run ${step.script}${step.args ? ` -- ${step.args.join(' ')}` : ''}`;
      console.log(buffered ? `\n--- started: ${step.name} (${command})` : `\n=== ${step.name} (${command}) ===`);
      step.before?.();
      const started = Date.now();
      const run = await runScript(step.script, step.args ?? [], buffered);
      const seconds = (Date.now() - started) / 1000;
      if (buffered) console.log(`=== ${step.name} (${command}): ${run.status === 0 ? 'ok' : 'FAILED'} ===`);
      results.set(step, { ok: run.status === 0, seconds, ...run });
    }
    ends.get(step.script).resolve();
  };
  /** Runs `list` `width` at a time, the longest first. */
  const sideBySide = (list, width, buffered) => {
    const queue = [...list].sort((a, b) => (b.seconds ?? 0) - (a.seconds ?? 0));
    return Promise.all(
      Array.from({ length: width }, async () => {
        for (let step = queue.shift(); step; step = queue.shift()) await runStep(step, buffered);
      }),
    );
  };
  const oneByOne = async (list, buffered) => {
    for (const step of list) await runStep(step, buffered);
  };

  const started = Date.now();
  // Stage 1 alone: it rewrites generated code in place.
  const first = toRun.filter((step) => step.stage === 1);
  await sideBySide(first, Math.min(jobs, first.length), first.length > 1);
  // Then the waiting lane beside the busy one: the static checks, a core each, then the busy tests.
  const checks = toRun.filter((step) => step.stage === 2);
  const busy = toRun.filter((step) => step.stage === 3 && step.lane !== 'waiting');
  const waiting = toRun.filter((step) => step.stage === 3 && step.lane === 'waiting');
  const both = waiting.length > 0 && checks.length + busy.length > 0;
  const checksWidth = Math.min(jobs, checks.length);
  await Promise.all([
    (async () => {
      await sideBySide(checks, checksWidth, both || checksWidth > 1);
      await oneByOne(busy, both);
    })(),
    oneByOne(waiting, both),
  ]);
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s in all)`);

  const ordered = chosen.map((step) => ({ step, ...results.get(step) }));
  for (const r of ordered.filter((result) => !result.ok && result.tail)) {
    console.log(`\n=== why "${r.step.name}" failed: its last ${r.tail.length} lines ===`);
    console.log(r.tail.join('\n'));
  }

  console.log('\n=== summary ===');
  for (const r of ordered) {
    const mark = r.skipped ? 'skip' : r.ok ? 'ok  ' : 'FAIL';
    const cpu = typeof r.cpuSeconds === 'number' ? `, CPU ${r.cpuSeconds.toFixed(1)} s` : '';
    console.log(`${mark}  ${r.step.name}  (${r.seconds.toFixed(1)} s${cpu})${r.note ? `  ${r.note}` : ''}`);
  }
  for (const r of ordered.filter((result) => !result.ok && result.failures?.length))
    console.log(`What failed in "${r.step.name}":\n${r.failures.map((line) => `  ${line}`).join('\n')}`);
  const failed = ordered.filter((r) => !r.ok).length;
  const skippedCount = ordered.filter((r) => r.skipped).length;
  console.log(
    `Steps: ${ordered.length - failed - skippedCount} passed, ${failed} failed${skippedCount ? `, ${skippedCount} skipped` : ''}`,
  );
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
