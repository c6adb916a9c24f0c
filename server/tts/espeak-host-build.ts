/**
 * Builds `espeak-host` (espeak-host.c, eSpeak-NG kept running, encoding its own MP3 with LAME)
 * with the machine's C compiler against Debian's libespeak-ng and libmp3lame, once, into a cache
 * folder git ignores (`cacheFolder`): `node_modules/.cache/lectio/espeak-host-<hash of the
 * source>`. The hash keys the binary, so an edited source builds anew; the compiler writes to a
 * name of its own and the result is renamed into place, so several processes starting at once
 * never run a half-written binary. A binary built already in the project's cache (the image's
 * build stage builds it there, see the Dockerfile) is used without a compiler. Without a compiler or the libraries'
 * headers (packages libespeak-ng-dev, libmp3lame-dev) there is no host, and the offline voice takes
 * the portable path (speech-paths.ts). A new build removes the binaries of earlier sources from
 * the folder (about 20 KB each); a process still running one keeps it until it exits.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants as fsConstants, existsSync, readFileSync } from 'node:fs';
import { access, lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lowerPriority } from '../audio/priority';
import { findExecutable } from '../executables';

/** The host's source: beside this module in server/tts/, and beside the bundle in dist-server/. */
const SOURCE_URL = new URL('./espeak-host.c', import.meta.url);
const COMPILE_FLAGS = ['-O2', '-std=c99', '-D_POSIX_C_SOURCE=200809L', '-DLECTIO_WITH_LAME'];
const LIBRARIES = ['-lespeak-ng', '-lmp3lame'];

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

/** The binary's name in the cache folder: keyed by the source and the flags. */
function binaryName(source: Buffer): string {
  const hash = createHash('sha256').update(source).update(COMPILE_FLAGS.join(' ')).digest('hex').slice(0, 16);
  return `espeak-host-${hash}`;
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
  const name = binaryName(source);
  const ready = await prebuilt(name);
  if (ready !== null) return { binary: ready };
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
    return { binary };
  } catch {
    /* not built yet */
  }
  const partial = `${binary}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const out = await compile(compiler, [...COMPILE_FLAGS, '-o', partial, fileURLToPath(SOURCE_URL), ...LIBRARIES]);
    if (out.status === 0) {
      await rename(partial, binary);
      await removeOlderBuilds(dir, binary);
      return { binary };
    }
    const first = out.stderr.split('\n').find((l) => /error|cannot find|not found/i.test(l)) ?? out.stderr;
    const packages = [
      /speak_lib\.h|lespeak-ng/.test(out.stderr) && 'libespeak-ng-dev',
      /lame\.h|lmp3lame/.test(out.stderr) && 'libmp3lame-dev',
    ].filter(Boolean);
    const hint = packages.length > 0 ? ` (install ${packages.join(' and ')})` : '';
    return { binary: null, reason: `it did not compile${hint}: ${first.trim().slice(0, 300)}` };
  } finally {
    await rm(partial, { force: true });
  }
}

/** A cached binary's name: `espeak-host-` and 16 hex digits of its source's hash. */
const BUILT = /^espeak-host-[0-9a-f]{16}$/;

/**
 * Removes the binaries of earlier sources from `dir`, all but `current`; a build still being
 * written by another process (its `.tmp` name) and any other file are left alone.
 */
export async function removeOlderBuilds(dir: string, current: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (BUILT.test(name) && path.join(dir, name) !== current) await rm(path.join(dir, name), { force: true });
  }
}

/**
 * Whether the native path can be had here, as far as a look without building tells: a binary of
 * this source built already, or a C compiler and the headers of libespeak-ng and libmp3lame.
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
  return (
    compiler !== null && existsSync('/usr/include/espeak-ng/speak_lib.h') && existsSync('/usr/include/lame/lame.h')
  );
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
