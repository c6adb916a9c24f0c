import type { StorageWriter } from '../storage/types';
import type { EncoderPool } from './encoder-pool';
import { assertEncodable, defaultKbps, InProcessEncoderSession, type EncoderSession } from './encoder-session';
import { releasePcm } from './pcm-memory';

export { defaultKbps } from './encoder-session';

/** PCM is handed to the encoder in blocks of whole frames: 1152 samples (MPEG-1) = 2 × 576 (MPEG-2). */
export const FRAME_ALIGN = 1152;
const DEFAULT_BLOCK_FRAMES = 16; // ≈ 0.8 s at 22.05 kHz, 36 KB of PCM per block
const DEFAULT_MAX_IN_FLIGHT = 4;

export type Mp3Sink = StorageWriter | ((chunk: Uint8Array) => Promise<void>);

export interface Mp3WriterOptions {
  sampleRate: number;
  /** Constant bitrate; defaults to `defaultKbps(sampleRate)` (48 at 22.05 kHz, 64 at 24 kHz). */
  kbps?: number;
  /** Where MP3 bytes go, in order. A StorageWriter is committed by `finish()` and aborted by `abort()`. */
  sink: Mp3Sink;
  /** Encode in this pool's worker threads; without it, encoding runs on the calling thread. */
  pool?: EncoderPool;
  /** Blocks (of FRAME_ALIGN × blockFrames samples) encoded or being written at once; `write` waits above it. */
  maxInFlight?: number;
  /** Block size in units of 1152 samples. */
  blockFrames?: number;
}

export interface Mp3WriteResult {
  /** Exact duration of the PCM that was written: sampleCount / sampleRate. */
  durationSeconds: number;
  sampleCount: number;
  /** MP3 bytes handed to the sink. */
  bytes: number;
}

export interface Mp3Writer {
  readonly sampleRate: number;
  readonly kbps: number;
  /**
   * Queues samples (copied at once, so the caller may reuse its array). Resolves once they are
   * accepted and the in-flight queue is below its bound: await it to get back-pressure.
   * Calls that are not awaited still keep their order.
   * `{ handOver: true }` skips that copy and the cutting into blocks: the caller gives the array
   * away and never reads or changes it again (its buffer may be transferred to an encoder thread).
   */
  write(samples: Int16Array, options?: { handOver?: boolean }): Promise<void>;
  /** Encodes what is buffered, flushes the encoder, waits for the sink (and commits a StorageWriter). */
  finish(): Promise<Mp3WriteResult>;
  /**
   * Drops everything; a StorageWriter sink is aborted so no file appears. Called automatically
   * when the encoder or the sink fails (the failing `write`/`finish` rejects with that error).
   */
  abort(): Promise<void>;
}

function isStorageWriter(sink: Mp3Sink): sink is StorageWriter {
  return typeof sink === 'object' && sink !== null && typeof sink.commit === 'function';
}

/** A writer's settings from its options: the bitrate, block size and encoder session it uses. */
function writerSettings(opts: Mp3WriterOptions) {
  const sampleRate = opts.sampleRate;
  const kbps = opts.kbps ?? defaultKbps(sampleRate);
  assertEncodable(sampleRate, kbps);
  const sink = opts.sink;
  return {
    sampleRate,
    kbps,
    sink,
    blockSamples: FRAME_ALIGN * (opts.blockFrames ?? DEFAULT_BLOCK_FRAMES),
    maxInFlight: Math.max(1, opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT),
    sinkWrite: (isStorageWriter(sink) ? (chunk) => sink.write(chunk) : sink) as (chunk: Uint8Array) => Promise<void>,
    session: (opts.pool
      ? opts.pool.openSession(sampleRate, kbps)
      : new InProcessEncoderSession(sampleRate, kbps)) as EncoderSession,
  };
}

/** Streams mono 16-bit PCM into a constant-bitrate MP3 without holding the whole file in memory. */
export function createMp3Writer(opts: Mp3WriterOptions): Mp3Writer {
  const { sampleRate, kbps, sink, blockSamples, maxInFlight, sinkWrite, session } = writerSettings(opts);

  let block = new Int16Array(blockSamples);
  let filled = 0;
  let sampleCount = 0;
  let bytes = 0;
  let state: 'open' | 'finishing' | 'done' | 'aborted' = 'open';
  let failure: Error | null = null;
  /** Resolves when every block dispatched so far has reached the sink, in order. */
  let tail: Promise<void> = Promise.resolve();
  /** One promise per dispatched block that is not yet written; settles when it is. */
  const inFlight: Promise<void>[] = [];

  function dispatch(encoded: Promise<Uint8Array>): void {
    encoded.catch(() => undefined); // handled through `tail`; avoid an unhandled-rejection report
    const written = tail.then(async () => {
      const data = await encoded;
      if (data.byteLength > 0 && state !== 'aborted') {
        await sinkWrite(data);
        bytes += data.byteLength;
      }
    });
    tail = written.catch((error: unknown) => {
      failure ??= error instanceof Error ? error : new Error(String(error));
    });
    inFlight.push(tail);
  }

  /** Drops the encoder stream and the sink's temp file (idempotent). */
  async function release(): Promise<void> {
    if (state === 'aborted' || state === 'done') return;
    state = 'aborted';
    session.close();
    await tail;
    if (isStorageWriter(sink)) await sink.abort().catch(() => undefined);
  }

  async function drainTo(limit: number): Promise<void> {
    while (inFlight.length > limit) await inFlight.shift();
    if (failure) {
      // An encoder or sink failure ends the stream: nothing may appear under the key.
      await release();
      throw failure;
    }
  }

  async function assertOpen(): Promise<void> {
    if (failure) {
      await release();
      throw failure;
    }
    if (state !== 'open') throw new Error(`MP3 writer is ${state === 'aborted' ? 'aborted' : 'finished'}`);
  }

  /** Calls to write() run one after another, so samples keep their order even if not awaited. */
  let writing: Promise<void> = Promise.resolve();

  return {
    sampleRate,
    kbps,

    write(samples: Int16Array, options?: { handOver?: boolean }): Promise<void> {
      // Copy at once unless handed over: the caller may reuse its array as soon as this call
      // returns (the PCM is copied into whole-frame blocks later, while earlier writes finish).
      const handOver = options?.handOver === true;
      const data = samples instanceof Int16Array && !handOver ? samples.slice() : samples;
      const next = writing.then(() => (handOver ? passOn(data) : writeNow(data)));
      writing = next.catch(() => undefined);
      return next;
    },

    async finish(): Promise<Mp3WriteResult> {
      await writing;
      return finishNow();
    },

    abort: release,
  };

  async function writeNow(samples: Int16Array): Promise<void> {
    await assertOpen();
    if (!(samples instanceof Int16Array)) throw new TypeError('MP3 writer expects an Int16Array of mono PCM');
    let offset = 0;
    while (offset < samples.length) {
      const take = Math.min(blockSamples - filled, samples.length - offset);
      block.set(samples.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      sampleCount += take;
      if (filled === blockSamples) {
        const full = block;
        block = new Int16Array(blockSamples);
        filled = 0;
        dispatch(session.encode(full));
        await drainTo(maxInFlight - 1);
        await assertOpen();
      }
    }
  }

  /**
   * A block handed over goes to the encoder as it is (LAME takes any number of samples): no copy
   * into frame-sized blocks, and a worker thread gets its buffer transferred when the block owns it.
   */
  async function passOn(samples: Int16Array): Promise<void> {
    await assertOpen();
    if (!(samples instanceof Int16Array)) throw new TypeError('MP3 writer expects an Int16Array of mono PCM');
    if (samples.length === 0) return;
    if (filled > 0) {
      dispatch(session.encode(block.slice(0, filled)));
      filled = 0;
    }
    sampleCount += samples.length;
    const encoded = session.encode(samples);
    dispatch(encoded);
    // Taken by the encoder (written to it, copied, or transferred to its thread): a block of
    // collected speech goes back to be reused for the next piece (./pcm-memory.ts).
    const done = () => releasePcm(samples);
    encoded.then(done, done);
    await drainTo(maxInFlight - 1);
    await assertOpen();
  }

  async function finishNow(): Promise<Mp3WriteResult> {
    await assertOpen();
    state = 'finishing';
    try {
      if (filled > 0) {
        dispatch(session.encode(block.slice(0, filled)));
        filled = 0;
      }
      dispatch(session.flush());
      await drainTo(0);
      if (isStorageWriter(sink)) await sink.commit();
      state = 'done';
      return { durationSeconds: sampleCount / sampleRate, sampleCount, bytes };
    } catch (error) {
      await release();
      throw error;
    }
  }
}
