/**
 * Native MP3 encoding: a `lame` binary (LAME 3.100, Debian package `lame`) on PATH, one process per
 * stream, raw PCM in on stdin and MP3 frames out on stdout. About 2.5x faster per core than the
 * WebAssembly build and it runs beside the server process, so encoding never holds the event loop
 * or a worker thread; the WebAssembly encoder (lame.mjs) stays the fallback when no binary exists.
 *
 * The settings match the WebAssembly encoder: mono, constant bitrate, LAME's default quality
 * (-q 3), bit reservoir on, output at the input rate (`--resample` pins it: LAME may otherwise pick
 * a lower rate for a low bitrate), and no Xing/Info frame (`-t`), so chapter files concatenate
 * frame by frame and every frame is audio.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { findExecutable } from '../executables';
import { assertEncodable, type EncoderSession } from './encoder-session';

let detected: string | null | undefined;

/** Path of a `lame` binary in the directories of `searchPath` (default PATH, looked up once per process), or null. */
export function detectNativeLame(searchPath?: string): string | null {
  if (searchPath !== undefined) return findExecutable('lame', searchPath);
  if (detected === undefined) detected = findExecutable('lame');
  return detected;
}

/**
 * Encoding is batch work: it runs at a lower scheduling priority (nice 10) than the server, so
 * when the cores are busy the API still answers at once; on an otherwise idle machine it makes
 * no difference, as the encoder gets every cycle the server does not need.
 */
export const BATCH_NICE = 10;

export function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, BATCH_NICE);
  } catch {
    /* not permitted here: run at the normal priority */
  }
}

/** The command-line arguments for a mono CBR stream of raw little-endian 16-bit PCM (stdin to stdout). */
export function lameArguments(sampleRate: number, kbps: number): string[] {
  const khz = String(sampleRate / 1000); // 22050 -> "22.05", 24000 -> "24"
  return [
    '-r',
    '-s',
    khz,
    '--bitwidth',
    '16',
    '--signed',
    '--little-endian',
    '-m',
    'm',
    '--cbr',
    '-b',
    String(kbps),
    '--resample',
    khz,
    '-t',
    '--quiet',
    '-',
    '-',
  ];
}

/**
 * One MP3 stream encoded by a `lame` process. `encode` resolves, once stdin has taken the PCM,
 * with the MP3 bytes the process has produced so far (possibly none: LAME buffers a few frames);
 * `flush` closes stdin and resolves with the rest when the process exits. So the bytes of all
 * calls, in call order, are the whole file.
 */
export class NativeLameSession implements EncoderSession {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly exited: Promise<void>;
  private output: Buffer[] = [];
  private outputBytes = 0;
  private stderr = '';
  private failure: Error | null = null;
  private finished = false;
  /** Set by close(): the process is killed on purpose, its exit status is no failure. */
  private finishedByClose = false;

  constructor(binary: string, sampleRate: number, kbps: number) {
    assertEncodable(sampleRate, kbps);
    this.child = spawn(binary, lameArguments(sampleRate, kbps), { stdio: ['pipe', 'pipe', 'pipe'] });
    lowerPriority(this.child.pid);
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.output.push(chunk);
      this.outputBytes += chunk.length;
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 4000) this.stderr += chunk.toString();
    });
    // EPIPE when lame exits early: the write that hit it reports lame's exit status instead.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise<void>((resolve) => {
      this.child.on('error', (error) => {
        this.fail(new Error(`MP3 encoding failed: cannot run ${binary} (${error.message})`));
        resolve();
      });
      // 'close' comes after stdout has ended, so every byte has been collected.
      this.child.on('close', (code, signal) => {
        if (code !== 0 && !this.finishedByClose) {
          const detail = this.stderr
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l && !/libsndfile|fseek|Compile without/.test(l))
            .join(' ');
          this.fail(
            new Error(
              `MP3 encoding failed: lame exited with ${signal ?? `status ${code}`}${detail ? `: ${detail}` : ''}`,
            ),
          );
        }
        resolve();
      });
    });
  }

  encode(pcm: Int16Array): Promise<Uint8Array> {
    if (this.finished) return Promise.reject(new Error('MP3 stream is already finished'));
    if (this.failure) return Promise.reject(this.failure);
    // A view of the caller's block, no copy: the block is not touched again by the writer.
    const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    return new Promise<Uint8Array>((resolve, reject) => {
      this.child.stdin.write(bytes, (error) => {
        if (!error && !this.failure) {
          resolve(this.take());
          return;
        }
        // lame stopped reading: its exit status and message say why.
        void this.exited.then(() =>
          reject(
            this.failure ?? new Error(`MP3 encoding failed: lame stopped reading (${error?.message ?? 'closed'})`),
          ),
        );
      });
    });
  }

  async flush(): Promise<Uint8Array> {
    if (this.finished) throw new Error('MP3 stream is already finished');
    this.finished = true;
    this.child.stdin.end();
    await this.exited;
    if (this.failure) throw this.failure;
    return this.take();
  }

  close(): void {
    if (this.finishedByClose) return;
    this.finished = true;
    this.finishedByClose = true;
    this.child.stdin.destroy();
    this.child.kill('SIGKILL');
  }

  private take(): Uint8Array {
    const out = this.output.length === 1 ? this.output[0]! : Buffer.concat(this.output, this.outputBytes);
    this.output = [];
    this.outputBytes = 0;
    return out;
  }

  private fail(error: Error): void {
    this.failure ??= error;
  }
}
