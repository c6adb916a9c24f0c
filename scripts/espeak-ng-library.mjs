// `npm run setup:espeak-ng`: fetches eSpeak-NG 1.52, the version the portable speech path's
// WebAssembly build runs, for the native path to link (server/tts/espeak-host-build.ts). With the
// same eSpeak on both paths a chapter sounds the same sample for sample and its word timings agree
// (docs/adr/0003-two-speech-paths.md). Debian 13 ships it (`apt-get install libespeak-ng-dev`
// there is enough); Debian 12 has 1.51, so this takes Debian 13's libespeak-ng-dev package (headers
// and the static library, which needs only glibc 2.34 and the libpcaudio0, libsonic0 Debian 12 has
// too), checks it against the SHA-256 the archive lists, and unpacks it into the project's cache:
// node_modules/.cache/lectio/espeak-ng-1.52.0/usr/{include,lib/<triplet>}.
// Also called by `npm test` on a fresh machine (scripts/test-tools.mjs).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the library is unpacked; server/tts/espeak-host-build.ts looks here first. */
export const ESPEAK_NG_LIBRARY_DIR = path.join(root, 'node_modules', '.cache', 'lectio', 'espeak-ng-1.52.0');

const DEBIAN_VERSION = '1.52.0+dfsg-5';
/** Debian 13's package per Node architecture, with the SHA-256 from the archive's Packages index. */
const PACKAGES = {
  x64: {
    file: `libespeak-ng-dev_${DEBIAN_VERSION}_amd64.deb`,
    sha256: '5ac936a7e0406c0f55527c03f15e974fe81b7919b45fc36711876d93a602be61',
  },
  arm64: {
    file: `libespeak-ng-dev_${DEBIAN_VERSION}_arm64.deb`,
    sha256: 'a20cd1db59a1acbe700cb79fddbcd054d27c0f36e44b7943f772dbd164272f54',
  },
};
/**
 * The Debian archive (DEBIAN_MIRROR: another mirror of it). When a newer revision of the package
 * replaces this one in Debian 13, the download fails with 404: put the new revision and its SHA-256
 * (from dists/trixie/main/binary-<arch>/Packages) above.
 */
const MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';

/** Whether the unpacked library is here: its static library and its headers. */
export function espeakNgLibraryPresent() {
  const lib = path.join(ESPEAK_NG_LIBRARY_DIR, 'usr', 'lib');
  if (!existsSync(path.join(ESPEAK_NG_LIBRARY_DIR, 'usr', 'include', 'espeak-ng', 'speak_lib.h'))) return false;
  if (!existsSync(lib)) return false;
  return readdirSync(lib).some((triplet) => existsSync(path.join(lib, triplet, 'libespeak-ng.a')));
}

async function download(file) {
  const url = `${MIRROR}/pool/main/e/espeak-ng/${file}`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new Error(`could not download ${url}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/**
 * Downloads, checks and unpacks the library unless it is here already. Resolves with a sentence
 * saying what it did; rejects saying why it could not.
 */
export async function fetchEspeakNgLibrary() {
  if (espeakNgLibraryPresent()) return `eSpeak-NG 1.52 is ready in ${ESPEAK_NG_LIBRARY_DIR}`;
  const pkg = PACKAGES[process.arch];
  if (!pkg) throw new Error(`no eSpeak-NG 1.52 package for ${process.arch}; the offline voice takes the portable path`);
  const deb = await download(pkg.file);
  const sha256 = createHash('sha256').update(deb).digest('hex');
  if (sha256 !== pkg.sha256) throw new Error(`${pkg.file} has SHA-256 ${sha256}, not the archive's ${pkg.sha256}`);
  const work = mkdtempSync(path.join(tmpdir(), 'lectio-espeak-ng-'));
  try {
    const debPath = path.join(work, pkg.file);
    writeFileSync(debPath, deb);
    const unpacked = path.join(work, 'root');
    const run = spawnSync('dpkg-deb', ['-x', debPath, unpacked], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`dpkg-deb could not unpack ${pkg.file}: ${run.stderr || run.error?.message}`);
    mkdirSync(path.dirname(ESPEAK_NG_LIBRARY_DIR), { recursive: true });
    rmSync(ESPEAK_NG_LIBRARY_DIR, { recursive: true, force: true });
    renameSync(unpacked, ESPEAK_NG_LIBRARY_DIR);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!espeakNgLibraryPresent()) throw new Error(`${pkg.file} did not hold libespeak-ng.a and its headers`);
  const pc = readFileSync(
    path.join(
      ESPEAK_NG_LIBRARY_DIR,
      'usr',
      'lib',
      readdirSync(path.join(ESPEAK_NG_LIBRARY_DIR, 'usr', 'lib'))[0],
      'pkgconfig',
      'espeak-ng.pc',
    ),
    'utf8',
  );
  return `eSpeak-NG ${/^Version:\s*(\S+)/m.exec(pc)?.[1] ?? '1.52'} unpacked into ${ESPEAK_NG_LIBRARY_DIR}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fetchEspeakNgLibrary().then(
    (said) => console.log(said),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
