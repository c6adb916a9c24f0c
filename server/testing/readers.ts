/**
 * FOR TESTS ONLY: the real readers the downloads are checked with: ffprobe (M4B and MP3), Debian's
 * epubcheck (EPUB), unzip (ZIP). A missing one fails the test with what to install, never skips it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { findExecutable } from '../executables';

const run = promisify(execFile);
export const EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar';

function need(name: string, install: string): string {
  const found = findExecutable(name);
  if (found === null) throw new Error(`${name} is not installed: these tests read the downloads with it (${install})`);
  return found;
}

export interface Probe {
  format: { format_name: string; duration: string; tags?: Record<string, string> };
  streams: {
    codec_name: string;
    codec_type: string;
    /** Bits per second, as ffprobe prints it (a decimal string). */
    bit_rate?: string;
    disposition?: { attached_pic?: number };
  }[];
  chapters: { start_time: string; end_time: string; tags?: { title?: string } }[];
}

/** ffprobe's view of a media file: container, streams (attached pictures included), chapters, tags. */
export async function ffprobe(file: string): Promise<Probe> {
  const bin = need('ffprobe', 'sudo apt-get install -y ffmpeg');
  const { stdout } = await run(
    bin,
    ['-v', 'error', '-show_format', '-show_streams', '-show_chapters', '-of', 'json', file],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Probe;
}

/** Tags with lower-case keys (MP4 and ID3 spell some differently). */
export function tagsOf(probe: Probe): Record<string, string> {
  return Object.fromEntries(Object.entries(probe.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

/** The version of the ID3v2 tag a file starts with ('2.4.0'), or null: ffprobe reads the tag but does not say which version it is. */
export function id3Version(file: Buffer): string | null {
  if (file.length < 10 || file.subarray(0, 3).toString('latin1') !== 'ID3') return null;
  return `2.${file[3]}.${file[4]}`;
}

/** Bytes of the ID3v2 tag a file starts with (header included; its size is four 7-bit bytes), 0 without one. */
export function id3Length(file: Buffer): number {
  if (id3Version(file) === null) return 0;
  return 10 + ((file[6]! << 21) | (file[7]! << 14) | (file[8]! << 7) | file[9]!);
}

/** epubcheck's report: exit code and output (errors are lines starting with ERROR or FATAL). */
export async function epubcheck(file: string): Promise<{ ok: boolean; output: string }> {
  const java = need('java', 'sudo apt-get install -y epubcheck, which brings a Java runtime');
  if (!existsSync(EPUBCHECK_JAR)) {
    throw new Error(
      `${EPUBCHECK_JAR} is missing: these tests validate the EPUB with it (sudo apt-get install -y epubcheck)`,
    );
  }
  try {
    const { stdout, stderr } = await run(java, ['-jar', EPUBCHECK_JAR, '--failonwarnings', file], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}\n${e.stderr ?? ''}` };
  }
}

/** The names in a ZIP archive, as Info-ZIP's unzip lists them. */
export async function unzipList(file: string): Promise<string[]> {
  const bin = need('unzip', 'sudo apt-get install -y unzip');
  const { stdout } = await run(bin, ['-Z1', file], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').filter((line) => line !== '');
}

/** One entry of a ZIP archive, extracted by unzip. */
export async function unzipEntry(file: string, name: string): Promise<Buffer> {
  const bin = need('unzip', 'sudo apt-get install -y unzip');
  // unzip reads its member names as wildcards: escape them.
  const pattern = name.replace(/[[\]*?\\]/g, (c) => `\\${c}`);
  const { stdout } = await run(bin, ['-p', file, pattern], { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** A media file's audio decoded by ffmpeg: mono 32-bit float samples at `sampleRate`, as a player hears it. */
export async function decodeAudio(file: string, sampleRate = 16_000): Promise<Float32Array> {
  const bin = need('ffmpeg', 'sudo apt-get install -y ffmpeg');
  const { stdout } = await run(
    bin,
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(sampleRate), '-f', 'f32le', '-'],
    {
      encoding: 'buffer',
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  return new Float32Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 4));
}
