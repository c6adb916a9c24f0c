/**
 * Builds `espeak-host` (espeak-host.c, eSpeak-NG kept running) with the machine's C compiler
 * against Debian's libespeak-ng, once, into a cache folder git ignores (`cacheFolder`):
 * `node_modules/.cache/lectio/espeak-host-<hash of the source>`. The hash keys the binary, so an
 * edited source builds anew; the compiler writes to a name of its own and the result is renamed
 * into place, so several processes starting at once never run a half-written binary. Without a
 * compiler or the library's headers (package libespeak-ng-dev) there is no host, and the native
 * voice keeps running one `espeak-ng` per request. With libmp3lame's headers too (package
 * libmp3lame-dev) the host also encodes MP3 (`encodes`); without them it is built without, and the
 * server encodes with `lame` processes as before. A new build removes the binaries of earlier
 * sources from the folder (about 20 KB each); a process still running one keeps it until it exits.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants, existsSync } from 'node:fs';
import { access, lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lowerPriority } from '../audio/lame-native';
import { findExecutable } from '../executables';

/** The host's source: beside this module in server/tts/, and beside the bundle in dist-server/. */
const SOURCE_URL = new URL('./espeak-host.c', import.meta.url);
const COMPILE_FLAGS = ['-O2', '-std=c99', '-D_POSIX_C_SOURCE=200809L'];

/** A built host (`encodes`: it was built with LAME and encodes MP3 itself), or why there is none. */
export type EspeakHostBuild = { binary: string; encodes: boolean } | { binary: null; reason: string };

/** The variants tried, the one that encodes first: [extra compiler flags, libraries]. */
const VARIANTS: { flags: string[]; libraries: string[]; encodes: boolean }[] = [
  { flags: ['-DLECTIO_WITH_LAME'], libraries: ['-lespeak-ng', '-lmp3lame'], encodes: true },
  { flags: [], libraries: ['-lespeak-ng'], encodes: false },
];

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

async function build(searchPath: string): Promise<EspeakHostBuild> {
  const compiler = findExecutable('cc', searchPath) ?? findExecutable('gcc', searchPath);
  if (compiler === null) return { binary: null, reason: 'no C compiler (cc or gcc) on PATH' };
  let source: Buffer;
  try {
    source = await readFile(SOURCE_URL);
  } catch (error) {
    return { binary: null, reason: `its source is missing (${(error as Error).message})` };
  }
  let dir: string;
  try {
    dir = await cacheFolder();
  } catch (error) {
    return { binary: null, reason: `no cache folder: ${(error as Error).message}` };
  }
  let failure = '';
  for (const variant of VARIANTS) {
    const flags = [...COMPILE_FLAGS, ...variant.flags];
    const hash = createHash('sha256').update(source).update(flags.join(' ')).digest('hex').slice(0, 16);
    const binary = path.join(dir, `espeak-host-${hash}`);
    try {
      await access(binary, fsConstants.X_OK);
      return { binary, encodes: variant.encodes };
    } catch {
      /* not built yet */
    }
    const partial = `${binary}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      const out = await compile(compiler, [...flags, '-o', partial, fileURLToPath(SOURCE_URL), ...variant.libraries]);
      if (out.status === 0) {
        await rename(partial, binary);
        await removeOlderBuilds(dir, binary);
        return { binary, encodes: variant.encodes };
      }
      // Without LAME's headers the next variant builds without it; eSpeak's missing ends the search.
      const first = out.stderr.split('\n').find((l) => /error|cannot find|not found/i.test(l)) ?? out.stderr;
      const detail = first.trim().slice(0, 300);
      const headers = /speak_lib\.h|lespeak-ng/.test(out.stderr) ? ' (install the libespeak-ng-dev package)' : '';
      failure = `it did not compile${headers}: ${detail}`;
      if (headers !== '') break;
    } finally {
      await rm(partial, { force: true });
    }
  }
  return { binary: null, reason: failure };
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
