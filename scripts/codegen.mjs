// `npm run generate:api`: runs Orval on contracts/openapi.yaml (orval.config.ts at the root) into
// src/api/gen (the SPA's zod-validated React Query hooks and msw handlers) and server/gen (the
// server's schemas).
//
// Orval is a tool of its own here, not a dependency of the app: every Orval release since 7.14
// requires Node 22.18 or later, while the app's dependencies all run on Node 20.19
// (docs/adr/0018-code-generator-on-its-own-node.md). So tools/codegen has its own
// package.json and lockfile, installed on first use (and again when the lockfile changes) into
// tools/codegen/node_modules, and Orval runs on a Node it supports:
//   1. CODEGEN_NODE, when set (a path to a node binary; CI points it at the Node 24 it installs);
//   2. else this Node, when it is 22.18 or later;
//   3. else Node 24 from the npm registry's official binary package (node-<platform>-<arch>),
//      installed once into tools/codegen/.runtime.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const toolDir = join(root, 'tools', 'codegen');
const runtimeDir = join(toolDir, '.runtime');
const RUNTIME_MAJOR = 24;
const MINIMUM = [22, 18];

function fail(message) {
  console.error(`codegen: ${message}`);
  process.exit(1);
}

function supports(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

/** npm's own CLI script, so npm can run on the chosen Node (no engine warnings on an old one). */
function npmCli() {
  const fromScript = process.env.npm_execpath;
  if (fromScript && /npm-cli\.js$/.test(fromScript) && existsSync(fromScript)) return fromScript;
  const bundled = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (existsSync(bundled)) return bundled;
  return null;
}

function runNpm(node, args, cwd) {
  const cli = npmCli();
  const run = cli
    ? spawnSync(node, [cli, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] })
    : spawnSync('npm', args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) fail(`\`npm ${args.join(' ')}\` failed in ${cwd}`);
}

function codegenNode() {
  const configured = process.env.CODEGEN_NODE;
  if (configured) {
    if (!existsSync(configured)) fail(`CODEGEN_NODE=${configured} does not exist`);
    return configured;
  }
  if (supports(process.versions.node)) return process.execPath;
  const windows = process.platform === 'win32';
  const pkg = `node-${windows ? 'win' : process.platform}-${process.arch}`;
  const bin = join(runtimeDir, 'node_modules', pkg, 'bin', windows ? 'node.exe' : 'node');
  if (!existsSync(bin)) {
    console.error(
      `codegen: Orval needs Node ${MINIMUM.join('.')} or later; installing Node ${RUNTIME_MAJOR} (${pkg}) into tools/codegen/.runtime once...`,
    );
    runNpm(
      process.execPath,
      [
        'install',
        '--prefix',
        runtimeDir,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `${pkg}@${RUNTIME_MAJOR}`,
      ],
      toolDir,
    );
    if (!existsSync(bin)) fail(`${pkg}@${RUNTIME_MAJOR} did not provide ${bin}`);
  }
  return bin;
}

/** Installs tools/codegen from its lockfile when it is missing or the lockfile changed. */
function installTool(node) {
  const lock = readFileSync(join(toolDir, 'package-lock.json'));
  const stamp = join(toolDir, 'node_modules', '.lectio-lock-sha256');
  const hash = createHash('sha256').update(lock).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  runNpm(node, ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], toolDir);
  writeFileSync(stamp, hash);
}

const node = codegenNode();
installTool(node);
const orval = join(toolDir, 'node_modules', 'orval', 'dist', 'bin', 'orval.mjs');
const run = spawnSync(node, [orval, '--config', join(root, 'orval.config.ts'), ...process.argv.slice(2)], {
  cwd: toolDir,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
