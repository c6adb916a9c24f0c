/**
 * Builds `espeak-host` (espeak-host.c, eSpeak-NG kept running, encoding its own MP3 with LAME)
 * with the machine's C compiler, once, into a cache folder git ignores (`cacheFolder`):
 * `node_modules/.cache/lectio/espeak-host-<hash>`, beside `espeak-host-<hash>.data/`, the voice
 * data it reads.
 *
 * One eSpeak on both paths: the host links eSpeak-NG 1.52, the version the portable path's
 * WebAssembly build runs, statically (its `libespeak-ng.a`), and reads the WebAssembly build's own
 * voice data, so a chapter sounds the same sample for sample on either path and its word timings
 * agree. The library is found in the project's cache (`npm run setup:espeak-ng` unpacks Debian 13's
 * libespeak-ng-dev there, scripts/espeak-ng-library.mjs), else in the system where its version is
 * 1.52 (Debian 13's libespeak-ng-dev); Debian 12's 1.51 is not taken. libmp3lame's headers
 * (libmp3lame-dev) and the shared libpcaudio and libsonic the library calls (libpcaudio0,
 * libsonic0) complete the build. Without them there is no host, and the offline voice takes the
 * portable path (speech-paths.ts), saying why.
 *
 * The hash keys the binary by its source, flags and library, so a change builds anew; the compiler
 * writes to a name of its own and the result is renamed into place, so several processes starting
 * at once never run a half-written binary. A binary built already in the project's cache (the
 * image's build stage builds it there, see the Dockerfile) is used without a compiler. A new build
 * removes the binaries of earlier builds from the folder; a process still running one keeps it
 * until it exits.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants as fsConstants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { access, lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { lowerPriority } from '../audio/priority';
import { findExecutable } from '../executables';
import { hostDataFolder } from './espeak-host-process';
import { copyVoiceData } from './espeak-wasm';

/** The host's source: beside this module in server/tts/, and beside the bundle in dist-server/. */
const SOURCE_URL = new URL('./espeak-host.c', import.meta.url);
const COMPILE_FLAGS = ['-O2', '-std=c99', '-D_POSIX_C_SOURCE=200809L', '-DLECTIO_WITH_LAME'];
/** What the static libespeak-ng calls (its playback and speed-up libraries), LAME and libm. */
const LIBRARIES = ['-l:libpcaudio.so.0', '-l:libsonic.so.0', '-lmp3lame', '-lm'];
/** The eSpeak-NG the portable path's WebAssembly build runs (it says `1.52-dev`): the host links the same. */
export const ESPEAK_NG_VERSION = '1.52';
/** The folder `npm run setup:espeak-ng` unpacks the library into, in the project's cache. */
export const FETCHED_LIBRARY_FOLDER = 'espeak-ng-1.52.0';

/** A built host, or why there is none. */
export type EspeakHostBuild = { binary: string } | { binary: null; reason: string };

/** The project's `node_modules` (above this module in server/tts/ or dist-server/), or null. */
function projectModules(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'node_modules');
    if (existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * The folder binaries are cached in: the project's `node_modules/.cache/lectio` (git-ignored,
 * kept across runs and test files), else, when that is not writable (an image whose packages
 * belong to another user), a private folder of this user in the temp directory.
 */
async function cacheFolder(): Promise<string> {
  const modules = projectModules();
  if (modules !== null) {
    const dir = path.join(modules, '.cache', 'lectio');
    try {
      await mkdir(dir, { recursive: true });
      await access(dir, fsConstants.W_OK);
      return dir;
    } catch {
      /* read-only: the temp directory */
    }
  }
  const uid = process.getuid?.() ?? 0;
  const dir = path.join(tmpdir(), `lectio-${uid}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await lstat(dir);
  // Another user's folder (or a link to one) could hold a binary of theirs: never run it.
  if (!stat.isDirectory() || (process.getuid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a private folder of this user`);
  }
  return dir;
}

/** Runs the compiler and waits for it; resolves with its exit status and the start of its stderr. */
function compile(compiler: string, args: string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(compiler, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    lowerPriority(child.pid);
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (stderr.length < 4000) stderr += text;
    });
    child.on('error', (error) => resolve({ status: -1, stderr: error.message }));
    child.on('close', (code) => resolve({ status: code ?? -1, stderr }));
  });
}

/** eSpeak-NG's static library and headers, as found. */
interface EspeakLibrary {
  include: string;
  archive: string;
}

/** Where eSpeak-NG is looked for: the project's cache (`npm run setup:espeak-ng`), then the system. */
function libraryPrefixes(): string[] {
  const modules = projectModules();
  return [...(modules === null ? [] : [path.join(modules, '.cache', 'lectio', FETCHED_LIBRARY_FOLDER, 'usr')]), '/usr'];
}

/**
 * eSpeak-NG 1.52's static library and headers: the copy `npm run setup:espeak-ng` unpacked into
 * the project's cache, else the system's; or why neither will do.
 */
export function findEspeakLibrary(prefixes = libraryPrefixes()): EspeakLibrary | { reason: string } {
  const other: string[] = [];
  for (const prefix of prefixes) {
    const include = path.join(prefix, 'include');
    if (!existsSync(path.join(include, 'espeak-ng', 'speak_lib.h'))) continue;
    const lib = path.join(prefix, 'lib');
    const dirs = existsSync(lib) ? [lib, ...readdirSync(lib).map((name) => path.join(lib, name))] : [];
    for (const dir of dirs) {
      const archive = path.join(dir, 'libespeak-ng.a');
      const pc = path.join(dir, 'pkgconfig', 'espeak-ng.pc');
      if (!existsSync(archive) || !existsSync(pc)) continue;
      const version = /^Version:\s*(\S+)/m.exec(readFileSync(pc, 'utf8'))?.[1] ?? 'unknown';
      if (version === ESPEAK_NG_VERSION || version.startsWith(`${ESPEAK_NG_VERSION}.`)) return { include, archive };
      other.push(`${version} in ${dir}`);
    }
  }
  const found = other.length > 0 ? `only eSpeak-NG ${other.join(', ')}; ` : '';
  return {
    reason:
      `${found}the native path links eSpeak-NG ${ESPEAK_NG_VERSION}, the portable path's version ` +
      '(run `npm run setup:espeak-ng`, or install libespeak-ng-dev on Debian 13)',
  };
}

/**
 * The binary's name in the cache folder: keyed by the source, the flags, eSpeak-NG's version and
 * the voice data's package, all known without the library (a runtime image has only the binary).
 */
function binaryName(source: Buffer): string {
  const hash = createHash('sha256')
    .update(source)
    .update([...COMPILE_FLAGS, ...LIBRARIES, ESPEAK_NG_VERSION, espeakPackageVersion()].join(' '));
  return `espeak-host-${hash.digest('hex').slice(0, 16)}`;
}

/** The version of the npm package whose voice data the host reads. */
function espeakPackageVersion(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('espeak-ng');
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? 'unknown';
}

/**
 * The voice data beside `binary`, copied from the WebAssembly build when it is not there yet: into
 * a name of its own, then renamed into place, as the binary is.
 */
async function ensureHostData(binary: string): Promise<void> {
  const folder = hostDataFolder(binary);
  if (existsSync(path.join(folder, 'espeak-ng-data', 'phontab'))) return;
  const partial = `${folder}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await copyVoiceData(partial);
    await rename(partial, folder).catch(async (error: unknown) => {
      // Another process put it in place first: theirs is the same data.
      if (!existsSync(path.join(folder, 'espeak-ng-data', 'phontab'))) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/** A binary of this source built already in the project's cache (no compiler needed), or null. */
async function prebuilt(name: string): Promise<string | null> {
  const modules = projectModules();
  if (modules === null) return null;
  const binary = path.join(modules, '.cache', 'lectio', name);
  try {
    await access(binary, fsConstants.X_OK);
    return binary;
  } catch {
    return null;
  }
}

async function build(searchPath: string): Promise<EspeakHostBuild> {
  let source: Buffer;
  try {
    source = await readFile(SOURCE_URL);
  } catch (error) {
    return { binary: null, reason: `its source is missing (${(error as Error).message})` };
  }
  const library = findEspeakLibrary();
  const name = binaryName(source);
  const ready = await prebuilt(name);
  if (ready !== null) {
    await ensureHostData(ready);
    return { binary: ready };
  }
  if ('reason' in library) return { binary: null, reason: library.reason };
  const compiler = findExecutable('cc', searchPath) ?? findExecutable('gcc', searchPath);
  if (compiler === null) return { binary: null, reason: 'no C compiler (cc or gcc) on PATH' };
  let dir: string;
  try {
    dir = await cacheFolder();
  } catch (error) {
    return { binary: null, reason: `no cache folder: ${(error as Error).message}` };
  }
  const binary = path.join(dir, name);
  try {
    await access(binary, fsConstants.X_OK);
    await ensureHostData(binary);
    return { binary };
  } catch {
    /* not built yet */
  }
  const partial = `${binary}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const out = await compile(compiler, [
      ...COMPILE_FLAGS,
      '-I',
      library.include,
      '-o',
      partial,
      fileURLToPath(SOURCE_URL),
      library.archive,
      ...LIBRARIES,
    ]);
    if (out.status === 0) {
      await ensureHostData(binary);
      await rename(partial, binary);
      await removeOlderBuilds(dir, binary);
      return { binary };
    }
    const first = out.stderr.split('\n').find((l) => /error|cannot find|not found/i.test(l)) ?? out.stderr;
    const packages = [
      /lame\.h|lmp3lame/.test(out.stderr) && 'libmp3lame-dev',
      /libpcaudio/.test(out.stderr) && 'libpcaudio0',
      /libsonic/.test(out.stderr) && 'libsonic0',
    ].filter(Boolean);
    const hint = packages.length > 0 ? ` (install ${packages.join(' and ')})` : '';
    return { binary: null, reason: `it did not compile${hint}: ${first.trim().slice(0, 300)}` };
  } finally {
    await rm(partial, { force: true });
  }
}

/** A cached binary's name (`espeak-host-` and 16 hex digits of its hash), or its voice data's. */
const BUILT = /^(espeak-host-[0-9a-f]{16})(\.data)?$/;

/**
 * Removes the binaries of earlier builds and their voice data from `dir`, all but `current`'s; a
 * build still being written by another process (its `.tmp` name) and any other file are left alone.
 */
export async function removeOlderBuilds(dir: string, current: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const binary = BUILT.exec(name)?.[1];
    if (binary !== undefined && path.join(dir, binary) !== current) {
      await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

/**
 * Whether the native path can be had here, as far as a look without building tells: a binary of
 * this build made already, or a C compiler, eSpeak-NG 1.52 and libmp3lame's headers.
 */
export function nativeSpeechLikely(searchPath = process.env.PATH ?? ''): boolean {
  const modules = projectModules();
  try {
    if (modules !== null) {
      accessSync(path.join(modules, '.cache', 'lectio', binaryName(readFileSync(SOURCE_URL))), fsConstants.X_OK);
      return true;
    }
  } catch {
    /* not built yet */
  }
  const compiler = findExecutable('cc', searchPath) ?? findExecutable('gcc', searchPath);
  return compiler !== null && !('reason' in findEspeakLibrary()) && existsSync('/usr/include/lame/lame.h');
}

const builds = new Map<string, Promise<EspeakHostBuild>>();

/**
 * The path of a built `espeak-host`, or why there is none. Built once per process (and cached
 * across processes); `searchPath` is where the compiler is looked for (default PATH).
 */
export function espeakHostBinary(searchPath = process.env.PATH ?? ''): Promise<EspeakHostBuild> {
  let pending = builds.get(searchPath);
  if (pending === undefined) {
    pending = build(searchPath).catch((error: unknown) => ({
      binary: null,
      reason: error instanceof Error ? error.message : String(error),
    }));
    builds.set(searchPath, pending);
  }
  return pending;
}
