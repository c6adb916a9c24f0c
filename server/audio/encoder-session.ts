import { encodeLame, finishLame, openLame, type LameEncoder } from './lame.mjs';

/** One MP3 stream being encoded (mono, 16-bit PCM in, MP3 bytes out, in order). */
export interface EncoderSession {
  /**
   * Encodes a block of PCM. The array's buffer may be transferred to a worker (detached):
   * the caller must not touch it afterwards. Results resolve in call order.
   */
  encode(pcm: Int16Array): Promise<Uint8Array>;
  /** Ends the stream and returns its final bytes. The session cannot be used afterwards. */
  flush(): Promise<Uint8Array>;
  /** Drops the stream without flushing (used when a write is aborted). */
  close(): void;
}

export const SUPPORTED_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
const MPEG1_KBPS = [32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_KBPS = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160];

/**
 * Default constant bitrate for mono speech: 48 kbps at 22.05 kHz (eSpeak), 64 kbps at 24 kHz
 * (cloud voices), 32 kbps at 16 kHz and below, 64 kbps at 32 kHz, 96 kbps at 44.1/48 kHz.
 */
export function defaultKbps(sampleRate: number): number {
  if (sampleRate <= 16000) return 32;
  if (sampleRate <= 22050) return 48;
  if (sampleRate <= 32000) return 64;
  return 96;
}

/** Throws a readable error unless LAME can encode this rate/bitrate as is (no resampling). */
export function assertEncodable(sampleRate: number, kbps: number): void {
  if (!(SUPPORTED_SAMPLE_RATES as readonly number[]).includes(sampleRate)) {
    throw new RangeError(`Unsupported sample rate ${sampleRate} Hz (supported: ${SUPPORTED_SAMPLE_RATES.join(', ')})`);
  }
  const allowed = sampleRate >= 32000 ? MPEG1_KBPS : MPEG2_KBPS;
  if (!allowed.includes(kbps)) {
    throw new RangeError(`Unsupported bitrate ${kbps} kbps at ${sampleRate} Hz (allowed: ${allowed.join(', ')})`);
  }
}

/** Encodes on the calling thread (pool size 0, or no pool). */
export class InProcessEncoderSession implements EncoderSession {
  private readonly encoder: Promise<LameEncoder>;
  private finished = false;

  constructor(sampleRate: number, kbps: number) {
    assertEncodable(sampleRate, kbps);
    this.encoder = openLame(sampleRate, kbps);
    this.encoder.catch(() => undefined); // reported by the first encode or flush
  }

  // Reactions to one promise run in registration order, so results keep the call order.
  encode(pcm: Int16Array): Promise<Uint8Array> {
    if (this.finished) return Promise.reject(new Error('MP3 stream is already finished'));
    return this.encoder.then((e) => encodeLame(e, pcm));
  }

  flush(): Promise<Uint8Array> {
    if (this.finished) return Promise.reject(new Error('MP3 stream is already finished'));
    this.finished = true;
    return this.encoder.then((e) => finishLame(e));
  }

  close(): void {
    this.finished = true;
  }
}
