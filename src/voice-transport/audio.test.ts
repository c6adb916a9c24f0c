import { describe, expect, it } from 'vitest';
import {
  Chunker,
  createDownsampler,
  floatToInt16,
  int16ToFloat,
  MIC_PROCESSOR_NAME,
  micWorkletSource,
  PlaybackScheduler,
  rms,
} from './audio';

describe('audio: pure parts', () => {
  it('downsamples 48 kHz to 16 kHz by averaging each period, across block boundaries', () => {
    const down = createDownsampler(48000, 16000);
    const input = Float32Array.from({ length: 128 }, (_, i) => i);
    const a = down(input.subarray(0, 100));
    const b = down(input.subarray(100));
    expect(a.length + b.length).toBe(42); // 128 / 3, the remainder waits for the next block
    expect(a[0]).toBeCloseTo(1); // mean of 0, 1, 2
    expect(b[0]).toBeCloseTo(100); // mean of 99, 100, 101: the state carried over
  });

  it('converts floats to Int16 with clipping, and back', () => {
    expect([...floatToInt16(Float32Array.of(0, 1, -1, 2, -2, 0.5))]).toEqual([0, 32767, -32768, 32767, -32768, 16384]);
    expect([...int16ToFloat(Int16Array.of(-32768, 0, 16384))]).toEqual([-1, 0, 0.5]);
  });

  it('computes RMS levels in 0..1 for floats and Int16', () => {
    expect(rms(new Float32Array(64))).toBe(0);
    expect(rms(Float32Array.of(0.5, -0.5))).toBeCloseTo(0.5);
    expect(rms(Int16Array.of(-32768, -32768))).toBe(1);
    expect(rms(new Int16Array())).toBe(0);
  });

  it('cuts samples into 512-sample chunks', () => {
    const chunker = new Chunker(512);
    expect(chunker.push(new Int16Array(300))).toHaveLength(0);
    const chunks = chunker.push(Int16Array.from({ length: 800 }, (_, i) => i));
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.[300]).toBe(0);
    expect(chunks[1]?.[0]).toBe(212);
  });

  it('schedules bot chunks back to back with a lead, and restarts after an underrun or stop', () => {
    const s = new PlaybackScheduler(0.08);
    expect(s.schedule(10, 0.04)).toBeCloseTo(10.08);
    expect(s.schedule(10.01, 0.04)).toBeCloseTo(10.12);
    expect(s.buffered(10.01)).toBeCloseTo(0.15);
    expect(s.schedule(20, 0.04)).toBeCloseTo(20.08); // underrun: a fresh lead, never in the past
    s.reset();
    expect(s.schedule(20.05, 0.04)).toBeCloseTo(20.13);
  });

  it('the worklet downsamples to 16 kHz Int16 and posts 512-sample chunks', () => {
    const posted: Int16Array[] = [];
    let Processor: (new (options: unknown) => { process(inputs: Float32Array[][]): boolean }) | undefined;
    class FakeWorkletProcessor {
      port = { postMessage: (chunk: Int16Array) => posted.push(chunk) };
    }
    new Function('AudioWorkletProcessor', 'registerProcessor', 'sampleRate', micWorkletSource)(
      FakeWorkletProcessor,
      (name: string, ctor: typeof Processor) => {
        expect(name).toBe(MIC_PROCESSOR_NAME);
        Processor = ctor;
      },
      48000,
    );
    const node = new Processor!({ processorOptions: { outRate: 16000, chunkSize: 512 } });
    for (let block = 0; block < 24; block++) node.process([[new Float32Array(128).fill(0.5)]]); // 3072 in -> 1024 out
    expect(posted).toHaveLength(2);
    expect(posted[0]).toHaveLength(512);
    expect(posted[1]?.every((s) => s === 16384)).toBe(true);
  });
});
