import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { pipecat } from './gen/frames.js';

const { Frame } = pipecat;

// One sample of every frame kind, shaped as docs/voice-protocol.md describes them.
const pcm = new Uint8Array(Int16Array.from([0, 1200, -1200, 32767, -32768]).buffer);
const samples = {
  text: { text: { id: 7, name: 'TextFrame#7', text: 'Who is Mr. Rochester?' } },
  audioWithPts: { audio: { id: 3, name: 'audio', audio: pcm, sampleRate: 24000, numChannels: 1, pts: 1_500_000 } },
  micAudio: { audio: { id: 0, name: 'audio', audio: pcm, sampleRate: 16000, numChannels: 1 } },
  transcription: {
    transcription: {
      id: 11,
      name: 'TranscriptionFrame#11',
      text: 'who is jane',
      userId: 'u-1',
      timestamp: '2026-11-22T16:00:00.000Z',
    },
  },
  message: {
    message: {
      data: JSON.stringify({ label: 'rtvi-ai', type: 'client-ready', id: 'abc123', data: { version: '2.1.0' } }),
    },
  },
  interruption: { interruption: { id: 12, name: 'InterruptionFrame#12' } },
} as const;

function plain(frame: pipecat.Frame) {
  return Frame.toObject(frame, { longs: Number, bytes: Array, defaults: false, oneofs: true });
}

describe('realtime frames (proto/frames.proto)', () => {
  for (const [kind, sample] of Object.entries(samples)) {
    it(`round-trips a ${kind} frame`, () => {
      const bytes = Frame.encode(Frame.create(sample)).finish();
      const decoded = Frame.decode(bytes);
      const expectedKind = Object.keys(sample)[0];
      expect(decoded.frame).toBe(expectedKind);
      expect(plain(decoded)).toEqual(plain(Frame.fromObject(sample)));
    });
  }

  it('keeps audio bytes exactly and leaves pts unset on microphone audio', () => {
    const decoded = Frame.decode(Frame.encode(Frame.create(samples.micAudio)).finish());
    expect(Array.from(decoded.audio!.audio!)).toEqual(Array.from(pcm));
    expect(decoded.audio!.sampleRate).toBe(16000);
    expect(Object.prototype.hasOwnProperty.call(decoded.audio, 'pts') && decoded.audio!.pts != null).toBe(false);
  });

  it('encodes exactly as the runtime schema does', () => {
    const root = protobuf.parse(readFileSync(new URL('./frames.proto', import.meta.url), 'utf8')).root;
    const RuntimeFrame = root.lookupType('pipecat.Frame');
    for (const sample of Object.values(samples)) {
      const staticBytes = Frame.encode(Frame.create(sample)).finish();
      const runtimeBytes = RuntimeFrame.encode(RuntimeFrame.fromObject(sample)).finish();
      expect(Buffer.from(runtimeBytes).equals(Buffer.from(staticBytes))).toBe(true);
    }
  });

  it('lets a client that predates interruption frames skip them without failing', () => {
    // An older schema: the same Frame without field 5.
    const legacy = protobuf
      .parse(
        `syntax = "proto3"; package old;
      message TextFrame { uint64 id = 1; string name = 2; string text = 3; }
      message Frame { oneof frame { TextFrame text = 1; } }`,
      )
      .root.lookupType('old.Frame');
    const bytes = Frame.encode(Frame.create(samples.interruption)).finish();
    const decoded = legacy.decode(bytes) as unknown as { frame?: string };
    expect(decoded.frame).toBeUndefined();
  });

  it('rejects a malformed frame with an error instead of returning garbage', () => {
    expect(() => Frame.decode(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]))).toThrow();
  });
});
