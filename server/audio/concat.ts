import type { FileStorage } from '../storage/types';
import { Mp3FrameScanner, parseMp3, parseMp3Stream, type Mp3FrameHeader } from './mp3-frames';

/**
 * Joins chapter MP3s into one file by concatenating their audio frames. Valid because every
 * chapter was written by our writer with the same settings, and the first frame of a stream never
 * borrows from the bit reservoir, so no frame depends on the previous file. ID3 tags, Xing/Info frames and junk are
 * dropped. The target appears atomically when complete; on any error nothing is left under it.
 * Returns the number of bytes written.
 */
export interface ConcatOptions {
  /** Called after each source with its frame count and samples (frames × samples per frame): where the next one starts. */
  onSource?(index: number, info: { frames: number; samples: number }): void;
}

export async function concatMp3(
  storage: FileStorage,
  sourceKeys: string[],
  targetKey: string,
  options: ConcatOptions = {},
): Promise<number> {
  if (sourceKeys.length === 0) throw new Error('concatMp3 needs at least one source file');
  if (sourceKeys.includes(targetKey)) throw new Error(`concatMp3 target ${targetKey} is also a source`);
  const writer = await storage.createWriter(targetKey);
  let format: { sampleRate: number; version: number; channels: number } | null = null;
  try {
    for (const [index, key] of sourceKeys.entries()) {
      if ((await storage.stat(key)) === null) throw new Error(`Cannot join audio: ${key} does not exist`);
      let frames: Uint8Array[] = [];
      let frameBytes = 0;
      const scanner = new Mp3FrameScanner({
        onFrame(frame: Uint8Array, header: Mp3FrameHeader) {
          if (format === null) {
            format = { sampleRate: header.sampleRate, version: header.version, channels: header.channels };
          } else if (
            header.sampleRate !== format.sampleRate ||
            header.version !== format.version ||
            header.channels !== format.channels
          ) {
            throw new Error(
              `Cannot join audio: ${key} is ${header.sampleRate} Hz/${header.channels} ch but earlier files are ${format.sampleRate} Hz/${format.channels} ch`,
            );
          }
          frames.push(frame);
          frameBytes += frame.byteLength;
        },
      });
      const emit = async (): Promise<void> => {
        if (frameBytes === 0) return;
        const out = new Uint8Array(frameBytes);
        let at = 0;
        for (const f of frames) {
          out.set(f, at);
          at += f.byteLength;
        }
        frames = [];
        frameBytes = 0;
        await writer.write(out);
      };
      for await (const chunk of storage.read(key) as AsyncIterable<Uint8Array>) {
        scanner.push(chunk);
        await emit();
      }
      scanner.end();
      await emit();
      if (scanner.frames === 0) throw new Error(`Cannot join audio: ${key} contains no MP3 frames`);
      options.onSource?.(index, { frames: scanner.frames, samples: scanner.samples });
    }
    const { size } = await writer.commit();
    return size;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Duration of an MP3 by summing its frames' durations (what a player shows for a CBR file without an Info tag). */
export async function mp3DurationSeconds(
  source: Uint8Array | AsyncIterable<Uint8Array> | NodeJS.ReadableStream,
): Promise<number> {
  const info = source instanceof Uint8Array ? parseMp3(source) : await parseMp3Stream(source);
  return info.durationSeconds;
}
