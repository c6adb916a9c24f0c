// The Debian programs some tests drive or read their results with: Chromium (stories, end to end),
// PostgreSQL's server binaries (the database tests), espeak-ng, LAME's headers and lame (the native
// voice and encoder tests), ffprobe, epubcheck and unzip (the download tests read every file with
// them), ss (the listening socket's backlog); and eSpeak-NG 1.52's library, which the native voice
// links (fetched from Debian 13's archive by scripts/espeak-ng-library.mjs, not installed with apt).
// `npm test` (scripts/test-all.mjs) calls ensureTestTools() for the steps it is about to run: on a
// machine where it can (root, apt-get present) it installs what is missing, so a fresh machine
// runs the README's test command as CI does; elsewhere it says what to install and the tests that
// need a missing program fail saying so. TEST_TOOLS_INSTALL=0 only reports. `.ci/run` installs
// the same packages before calling `npm test`, so there this finds nothing missing.
// Run alone: `node scripts/test-tools.mjs` (installs for every step).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { espeakNgLibraryPresent, fetchEspeakNgLibrary } from './espeak-ng-library.mjs';
import { findChrome } from './find-chrome.mjs';

export const EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar';

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

function hasChrome() {
  try {
    findChrome();
    return true;
  } catch {
    return false;
  }
}

function hasPostgres() {
  if (process.env.PG_BIN && existsSync(path.join(process.env.PG_BIN, 'initdb'))) return true;
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((v) => existsSync(path.join(root, v, 'bin', 'initdb')));
}

/** Each program: the steps that need it, whether it is here, and the Debian package that brings it. */
export const TOOLS = [
  { name: 'Chromium', steps: ['test:stories', 'test:visual', 'test:e2e'], present: hasChrome, debian: 'chromium' },
  {
    name: 'PostgreSQL server',
    steps: ['test:unit', 'test:app', 'test:integration'],
    present: hasPostgres,
    debian: 'postgresql',
  },
  {
    name: 'espeak-ng',
    steps: ['test:unit', 'test:app', 'test:integration'],
    present: () => onPath('espeak-ng'),
    debian: 'espeak-ng',
  },
  {
    name: 'eSpeak-NG 1.52 (the native voice links it)',
    steps: ['test:unit', 'test:app', 'test:integration'],
    // The kept-running native voice (server/tts/espeak-host.c) is compiled against it.
    present: espeakNgLibraryPresent,
    fetch: fetchEspeakNgLibrary,
  },
  {
    name: "LAME's headers",
    steps: ['test:unit', 'test:app', 'test:integration'],
    // With them that voice also encodes the MP3 itself (espeak-host.c, LECTIO_WITH_LAME).
    present: () => existsSync('/usr/include/lame/lame.h'),
    debian: 'libmp3lame-dev',
  },
  { name: 'lame', steps: ['test:unit', 'test:app', 'test:integration'], present: () => onPath('lame'), debian: 'lame' },
  // ss shows the API's listening socket, whose backlog an integration test reads.
  { name: 'ss', steps: ['test:integration'], present: () => onPath('ss'), debian: 'iproute2' },
  {
    name: 'ffprobe',
    steps: ['test:unit', 'test:app', 'test:integration'],
    present: () => onPath('ffprobe'),
    debian: 'ffmpeg',
  },
  {
    name: 'epubcheck',
    steps: ['test:unit', 'test:app', 'test:integration'],
    // Run as `java -jar`: the package brings the Java runtime with it.
    present: () => onPath('java') && existsSync(EPUBCHECK_JAR),
    debian: 'epubcheck',
  },
  {
    name: 'unzip',
    steps: ['test:unit', 'test:app', 'test:integration'],
    present: () => onPath('unzip'),
    debian: 'unzip',
  },
];

/** The tools missing for these package.json scripts (all steps when none are named). */
export function missingTools(scripts = []) {
  return TOOLS.filter(
    (tool) => (scripts.length === 0 || tool.steps.some((s) => scripts.includes(s))) && !tool.present(),
  );
}

const canInstall = () => process.getuid?.() === 0 && onPath('apt-get') && process.env.TEST_TOOLS_INSTALL !== '0';

function apt(args) {
  const run = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return run.status === 0;
}

/**
 * Installs (or names) the Debian packages of the tools these steps need and this machine lacks.
 * Never throws: a tool still missing afterwards makes its tests fail with what to install.
 */
export async function ensureTestTools(scripts = []) {
  const missing = missingTools(scripts);
  if (missing.length === 0) return true;
  const fetched = missing.filter((tool) => tool.fetch);
  for (const tool of fetched) {
    try {
      console.log(await tool.fetch());
    } catch (error) {
      console.warn(`${tool.name} could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (fetched.length === missing.length) return missingTools(scripts).length === 0;
  const packages = [...new Set(missing.filter((tool) => tool.debian).map((tool) => tool.debian))];
  const names = missing.map((tool) => tool.name).join(', ');
  if (!canInstall()) {
    console.warn(
      `The tests need ${names}, missing here: sudo apt-get install -y ${packages.join(' ')} ` +
        '(the tests that need them fail until then).',
    );
    return false;
  }
  console.log(`Installing Debian's ${packages.join(', ')} for the tests (${names} missing)...`);
  const ok = apt(['update', '-qq']) && apt(['install', '-y', '-qq', ...packages]);
  const still = missingTools(scripts);
  if (!ok || still.length > 0) {
    console.warn(`Still missing: ${still.map((tool) => tool.name).join(', ') || names}.`);
    return false;
  }
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit((await ensureTestTools(process.argv.slice(2))) ? 0 : 1);
}
