/** MPEG audio (Layer III) frame-header parsing: enough to verify, measure and concatenate our MP3s. */

export interface Mp3FrameHeader {
  /** 1 = MPEG-1, 2 = MPEG-2, 2.5 = MPEG-2.5. */
  version: 1 | 2 | 2.5;
  sampleRate: number;
  bitrateKbps: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  /** Whole frame length in bytes, header included. */
  frameLength: number;
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

/** Parses a Layer III frame header at `offset`, or returns null if there is none. */
export function parseFrameHeader(bytes: Uint8Array, offset = 0): Mp3FrameHeader | null {
  if (offset + 4 > bytes.length) return null;
  const b0 = bytes[offset]!;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  const b3 = bytes[offset + 3]!;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  if (versionBits === 1 || layerBits !== 1) return null; // reserved version, or not Layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null; // free format / reserved
  const sampleRate = SAMPLE_RATES[versionBits]![rateIndex]!;
  const mpeg1 = versionBits === 3;
  const bitrateKbps = (mpeg1 ? BITRATES_V1_L3 : BITRATES_V2_L3)[bitrateIndex]!;
  const padding = (b2 >> 1) & 1;
  const samplesPerFrame = mpeg1 ? 1152 : 576;
  const frameLength = Math.floor(((samplesPerFrame / 8) * bitrateKbps * 1000) / sampleRate) + padding;
  return {
    version: mpeg1 ? 1 : versionBits === 2 ? 2 : 2.5,
    sampleRate,
    bitrateKbps,
    channels: b3 >> 6 === 3 ? 1 : 2,
    samplesPerFrame,
    frameLength,
  };
}

/** Size of an ID3v2 tag starting at `offset` (header + body + optional footer), or 0 if none. Needs 10 bytes. */
export function id3v2Size(bytes: Uint8Array, offset = 0): number {
  if (offset + 10 > bytes.length) return 0;
  if (bytes[offset] !== 0x49 || bytes[offset + 1] !== 0x44 || bytes[offset + 2] !== 0x33) return 0; // "ID3"
  const s = [bytes[offset + 6]!, bytes[offset + 7]!, bytes[offset + 8]!, bytes[offset + 9]!];
  if (s.some((b) => b & 0x80)) return 0;
  const body = (s[0]! << 21) | (s[1]! << 14) | (s[2]! << 7) | s[3]!;
  const footer = bytes[offset + 5]! & 0x10 ? 10 : 0;
  return 10 + body + footer;
}

/** True if the frame is a Xing/Info/VBRI metadata frame (carries no audio the listener hears). */
export function isInfoFrame(frame: Uint8Array, header: Mp3FrameHeader): boolean {
  const sideInfo = header.version === 1 ? (header.channels === 1 ? 17 : 32) : header.channels === 1 ? 9 : 17;
  const tagAt = 4 + sideInfo;
  const tag = String.fromCharCode(...frame.subarray(tagAt, tagAt + 4));
  if (tag === 'Xing' || tag === 'Info') return true;
  return String.fromCharCode(...frame.subarray(36, 40)) === 'VBRI';
}

export interface Mp3ScanEvents {
  /** Called with each complete audio frame (a view into the scanner's buffer: copy it to keep it). */
  onFrame?: (frame: Uint8Array, header: Mp3FrameHeader) => void;
}

/**
 * Incremental frame scanner. Feed it byte chunks in order; it finds frames, skips ID3v2 tags,
 * ID3v1 / APE trailers, Xing/Info frames and any junk (re-synchronising on the next plausible frame).
 * A candidate frame counts only if the next frame header follows it directly (or the data ends).
 */
export class Mp3FrameScanner {
  frames = 0;
  samples = 0;
  sampleRate = 0;
  audioBytes = 0;
  skippedBytes = 0;
  private buffer: Uint8Array = new Uint8Array(0);
  private skipRemaining = 0;
  private readonly events: Mp3ScanEvents;

  constructor(events: Mp3ScanEvents = {}) {
    this.events = events;
  }

  get durationSeconds(): number {
    return this.sampleRate === 0 ? 0 : this.samples / this.sampleRate;
  }

  push(chunk: Uint8Array): void {
    if (this.skipRemaining > 0) {
      const skip = Math.min(this.skipRemaining, chunk.length);
      this.skipRemaining -= skip;
      this.skippedBytes += skip;
      chunk = chunk.subarray(skip);
    }
    if (chunk.length === 0) return;
    if (this.buffer.length === 0) {
      this.buffer = chunk;
    } else {
      const merged = new Uint8Array(this.buffer.length + chunk.length);
      merged.set(this.buffer);
      merged.set(chunk, this.buffer.length);
      this.buffer = merged;
    }
    this.scan(false);
  }

  /** Processes what is left once all data has been pushed. */
  end(): void {
    this.scan(true);
    this.skippedBytes += this.buffer.length;
    this.buffer = new Uint8Array(0);
  }

  private scan(final: boolean): void {
    const buf = this.buffer;
    let pos = 0;
    while (pos < buf.length) {
      if (buf[pos] === 0x49 && pos + 10 > buf.length && !final) break; // maybe an ID3 header: wait
      const tag = id3v2Size(buf, pos);
      if (tag > 0) {
        if (pos + tag > buf.length) {
          this.skipRemaining = pos + tag - buf.length;
          this.skippedBytes += buf.length - pos;
          pos = buf.length;
          break;
        }
        pos += tag;
        this.skippedBytes += tag;
        continue;
      }
      if (pos + 4 > buf.length && !final) break;
      const header = parseFrameHeader(buf, pos);
      if (header === null) {
        pos += 1;
        this.skippedBytes += 1;
        continue;
      }
      const next = pos + header.frameLength;
      if (next > buf.length) {
        if (final) {
          this.skippedBytes += buf.length - pos; // truncated last frame
          pos = buf.length;
        }
        break;
      }
      if (next + 4 > buf.length && !final) break; // need the next header to confirm
      // At the very end there is no next header to check against: accept the frame.
      const confirmed = next + 4 > buf.length ? true : this.follows(buf, next, header);
      if (!confirmed) {
        pos += 1;
        this.skippedBytes += 1;
        continue;
      }
      const frame = buf.subarray(pos, next);
      if (this.frames === 0 && this.samples === 0 && isInfoFrame(frame, header)) {
        this.skippedBytes += header.frameLength;
      } else {
        if (this.sampleRate !== 0 && header.sampleRate !== this.sampleRate) {
          throw new Error(`MP3 sample rate changes from ${this.sampleRate} Hz to ${header.sampleRate} Hz`);
        }
        this.sampleRate = header.sampleRate;
        this.frames += 1;
        this.samples += header.samplesPerFrame;
        this.audioBytes += header.frameLength;
        this.events.onFrame?.(frame, header);
      }
      pos = next;
    }
    this.buffer = pos >= buf.length ? new Uint8Array(0) : buf.slice(pos);
  }

  /** True if what follows a frame is another compatible frame header or a known trailer/tag. */
  private follows(buf: Uint8Array, next: number, header: Mp3FrameHeader): boolean {
    const after = parseFrameHeader(buf, next);
    if (after) return after.sampleRate === header.sampleRate && after.version === header.version;
    const t = String.fromCharCode(buf[next]!, buf[next + 1]!, buf[next + 2]!);
    return t === 'TAG' || t === 'ID3' || t === 'APE';
  }
}

export interface Mp3Info {
  frames: number;
  samples: number;
  sampleRate: number;
  durationSeconds: number;
  audioBytes: number;
  skippedBytes: number;
}

/** Parses a whole MP3 held in memory. */
export function parseMp3(bytes: Uint8Array): Mp3Info {
  const scanner = new Mp3FrameScanner();
  scanner.push(bytes);
  scanner.end();
  return infoOf(scanner);
}

function infoOf(scanner: Mp3FrameScanner): Mp3Info {
  return {
    frames: scanner.frames,
    samples: scanner.samples,
    sampleRate: scanner.sampleRate,
    durationSeconds: scanner.durationSeconds,
    audioBytes: scanner.audioBytes,
    skippedBytes: scanner.skippedBytes,
  };
}

/** Parses an MP3 from a stream (or any async iterable of chunks) without holding it in memory. */
export async function parseMp3Stream(source: AsyncIterable<Uint8Array> | NodeJS.ReadableStream): Promise<Mp3Info> {
  const scanner = new Mp3FrameScanner();
  for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
    scanner.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  }
  scanner.end();
  return infoOf(scanner);
}
