// `npm test`: every check, in the order the chain runs: contract -> generated client -> screens as
// stories -> Pact consumer -> Pact provider against the real server -> the app in a real browser.
// Each step runs even when an earlier one failed (except the provider, which needs the pact the
// consumer writes), and the summary names what failed.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;

const steps = [
  { name: 'lint (incl. import boundaries)', cmd: [bin('eslint'), '.', '--max-warnings=0'] },
  { name: 'typecheck (SPA)', cmd: [bin('tsc'), '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'typecheck (server)', cmd: [bin('tsc'), '-p', 'server/tsconfig.json', '--noEmit'] },
  { name: 'contract lint', cmd: [bin('redocly'), 'lint', 'contracts/openapi.yaml', '--config', 'contracts/redocly.yaml'] },
  { name: 'generated code drift', cmd: ['node', 'scripts/check-generated.mjs'] },
  { name: 'unit and server tests', cmd: [bin('vitest'), 'run', '--project', 'unit', '--project', 'server'] },
  { name: 'stories in Chromium', cmd: ['node', 'scripts/test-stories.mjs'] },
  {
    name: 'Pact consumer',
    before: () => rmSync(`${root}contracts/pacts/lectio-web-lectio-api.json`, { force: true }),
    cmd: [bin('vitest'), 'run', '--project', 'pact-consumer'],
  },
  { name: 'Pact provider verification', needs: 'Pact consumer', cmd: [bin('vitest'), 'run', '--project', 'pact-provider'] },
  { name: 'browser end-to-end', cmd: [bin('vitest'), 'run', '--project', 'e2e'] },
];

const only = process.argv.slice(2);
const results = [];
for (const step of steps) {
  if (only.length && !only.some((word) => step.name.includes(word))) continue;
  if (step.needs && results.find((r) => r.name === step.needs && !r.ok)) {
    results.push({ name: step.name, ok: false, seconds: 0, note: `skipped: ${step.needs} failed` });
    continue;
  }
  console.log(`\n=== ${step.name} ===`);
  step.before?.();
  const started = Date.now();
  const run = spawnSync(step.cmd[0], step.cmd.slice(1), { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  results.push({ name: step.name, ok: run.status === 0, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name}  (${r.seconds.toFixed(1)} s)${r.note ? `  ${r.note}` : ''}`);
const failed = results.filter((r) => !r.ok).length;
console.log(`Steps: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
