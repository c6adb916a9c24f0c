export interface LameEncoder {
  configure(params: { channels: 1; sampleRate: number; bitrate: number }): void;
  encode(samples: readonly Float32Array[]): Uint8Array;
  finalize(): Uint8Array;
}
export function openLame(sampleRate: number, kbps: number): Promise<LameEncoder>;
export function encodeLame(encoder: LameEncoder, pcm: Int16Array): Uint8Array;
export function finishLame(encoder: LameEncoder): Uint8Array;
