/**
 * The conversion bench's reference: the native tools piped by hand, `espeak-ng --stdout | lame`,
 * the text cut in one part per CPU and all parts at once, with Lectio's voice, rate and MP3
 * settings. What this machine can do with native tools on all its cores; Lectio's two speech paths
 * are measured against it (bench/conversion.ts). The server never runs these programs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultKbps } from '../server/audio/mp3';
import { parseMp3 } from '../server/audio/mp3-frames';
import { findExecutable } from '../server/executables';
import { reapedChildrenCpuSeconds } from './compiled-server';

const VOICE = 'en-us+f3'; // the stand-in for the default voice (alloy)
const RATE_WPM = 175;
const SAMPLE_RATE = 22_050;

/** The reference's programs on PATH, or null for each that is missing. */
export function pipelinePrograms(): { espeak: string | null; lame: string | null } {
  return { espeak: findExecutable('espeak-ng'), lame: findExecutable('lame') };
}

/** `lame` reading raw mono 16-bit PCM on stdin, constant bitrate at the input rate, no Info frame. */
function lameArguments(sampleRate: number, kbps: number): string[] {
  const khz = String(sampleRate / 1000);
  return ['-r', '-s', khz, '--bitwidth', '16', '--signed', '--little-endian', '-m', 'm', '--cbr'].concat([
    '-b',
    String(kbps),
    '--resample',
    khz,
    '-t',
    '--quiet',
  ]);
}

/** Cuts `text` into `n` parts of about equal length at sentence ends. */
function parts(text: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= n; i += 1) {
    let end = i === n ? text.length : text.indexOf('. ', Math.round((text.length * i) / n));
    if (end < 0) end = text.length;
    else if (i < n) end += 1;
    out.push(text.slice(start, end).trim());
    start = end;
  }
  return out.filter((p) => p !== '');
}

export interface NativeRun {
  audio: number;
  wall: number;
  /** CPU seconds the pipelines used. */
  cpu: number;
  processes: number;
}

/** One part through `espeak-ng --stdout | lame` into `mp3`. */
function pipeline(espeak: string, lame: string, textFile: string, mp3: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const args = ['--stdout', '-b', '1', '-v', VOICE, '-s', String(RATE_WPM), '-f', textFile];
    const voice = spawn(espeak, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const lameArgs = lameArguments(SAMPLE_RATE, defaultKbps(SAMPLE_RATE));
    const encoder = spawn(lame, [...lameArgs, '-', mp3], { stdio: ['pipe', 'ignore', 'ignore'] });
    // espeak-ng writes a WAV header with an unknown length; lame reads the raw PCM after it.
    let header = 44;
    voice.stdout.on('data', (chunk: Buffer) => {
      const body = header > 0 ? chunk.subarray(Math.min(header, chunk.length)) : chunk;
      header -= Math.min(header, chunk.length);
      if (body.length > 0 && !encoder.stdin.write(body)) {
        voice.stdout.pause();
        encoder.stdin.once('drain', () => voice.stdout.resume());
      }
    });
    voice.stdout.on('end', () => encoder.stdin.end());
    voice.on('error', reject);
    encoder.on('error', reject);
    encoder.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`lame exited with ${code}`))));
  });
}

/** espeak-ng | lame for each part, all parts at once; null when either program is missing. */
export async function nativeReference(text: string): Promise<NativeRun | null> {
  const { espeak, lame } = pipelinePrograms();
  if (espeak === null || lame === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'lectio-native-'));
  try {
    const pieces = parts(text, os.availableParallelism());
    pieces.forEach((p, i) => writeFileSync(join(dir, `${i}.txt`), p));
    const started = performance.now();
    const cpuBefore = reapedChildrenCpuSeconds();
    await Promise.all(pieces.map((_, i) => pipeline(espeak, lame, join(dir, `${i}.txt`), join(dir, `${i}.mp3`))));
    const wall = (performance.now() - started) / 1000;
    const cpu = reapedChildrenCpuSeconds() - cpuBefore;
    const audio = pieces.reduce((n, _, i) => n + parseMp3(readFileSync(join(dir, `${i}.mp3`))).durationSeconds, 0);
    return { audio, wall, cpu, processes: pieces.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
