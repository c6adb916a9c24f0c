/**
 * ffmpeg for the downloads: AAC encoding of the M4B and image conversion of the cover. A fresh
 * machine has the static build that ships inside the `@ffmpeg-installer/ffmpeg` npm package
 * (FFmpeg 4.1, nothing downloaded at install); an `ffmpeg` on PATH (Debian's package) is used
 * instead when there is one, as it is usually newer (EXPORT_FFMPEG chooses). Every process runs at
 * a lower priority than the server, is killed when its work is aborted, and is always waited for.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { findExecutable } from '../executables';
import { lowerPriority } from '../audio/priority';

export type FfmpegChoice = 'auto' | 'native' | 'bundled';

export interface Ffmpeg {
  path: string;
  /** 'native' (on PATH) or 'bundled' (the npm package's static build). */
  kind: 'native' | 'bundled';
}

/** The ffmpeg bundled with the npm package, or null on a platform it has no build for. */
function bundledFfmpeg(): string | null {
  try {
    const require = createRequire(import.meta.url);
    return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return null;
  }
}

export class FfmpegMissingError extends Error {
  constructor(choice: FfmpegChoice) {
    super(
      choice === 'native'
        ? 'EXPORT_FFMPEG=native needs an ffmpeg on PATH (sudo apt-get install -y ffmpeg)'
        : 'No ffmpeg: the @ffmpeg-installer/ffmpeg package has no build for this platform; install ffmpeg (sudo apt-get install -y ffmpeg)',
    );
    this.name = 'FfmpegMissingError';
  }
}

/** Finds the ffmpeg to run for `choice`; throws FfmpegMissingError when there is none. */
export function locateFfmpeg(choice: FfmpegChoice = 'auto', searchPath?: string): Ffmpeg {
  if (choice !== 'bundled') {
    const native = findExecutable('ffmpeg', searchPath);
    if (native !== null) return { path: native, kind: 'native' };
    if (choice === 'native') throw new FfmpegMissingError(choice);
  }
  const bundled = bundledFfmpeg();
  if (bundled === null) throw new FfmpegMissingError(choice);
  return { path: bundled, kind: 'bundled' };
}

export interface RunOptions {
  /** Fed to ffmpeg's stdin (`-i pipe:0`). */
  stdin?: Readable;
  signal?: AbortSignal;
  /** Seconds of output written so far, from `-progress pipe:1`. */
  onProgress?: (seconds: number) => void;
}

/**
 * Runs ffmpeg with `args` (the input and output options; `-nostdin`-style flags are added here) and
 * resolves when it exits with 0. Rejects with the last lines of its error output otherwise, or
 * with the signal's reason when aborted (the process is killed and waited for).
 */
export async function runFfmpeg(ffmpeg: Ffmpeg, args: string[], options: RunOptions = {}): Promise<void> {
  options.signal?.throwIfAborted();
  const child = spawn(
    ffmpeg.path,
    ['-hide_banner', '-loglevel', 'error', '-progress', 'pipe:1', '-nostats', '-y', ...args],
    { stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] },
  );
  lowerPriority(child.pid);
  let stderr = '';
  if (child.stdout === null || child.stderr === null) throw new Error('ffmpeg started without its output pipes');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
      if (match) options.onProgress?.(Number(match[1]) / 1e6);
    }
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  const kill = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', kill, { once: true });
  let feeding: Promise<void> = Promise.resolve();
  if (options.stdin !== undefined && child.stdin !== null) {
    // ffmpeg may stop reading early (it has what it needs, or it failed): that is not our error.
    feeding = pipeline(options.stdin, child.stdin).catch(() => undefined);
  }
  try {
    const code = await exited;
    await feeding;
    options.signal?.throwIfAborted();
    if (code !== 0) {
      const detail = stderr.trim().split('\n').slice(-3).join(' ');
      throw new Error(`ffmpeg failed (exit ${code}): ${detail || 'no message'}`);
    }
  } finally {
    options.signal?.removeEventListener('abort', kill);
    if (child.exitCode === null && child.signalCode === null) {
      kill();
      await exited.catch(() => undefined);
    }
  }
}
