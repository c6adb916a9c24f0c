/**
 * Memory for speech, reused from one piece to the next. A long conversion produces some 40 KB of
 * PCM per second of speech. Each piece waits a little for its encoder, long enough for V8 to move
 * an ordinary ArrayBuffer to its old generation, so it stayed in memory until the next full
 * collection (30 MB and more at once while a book converted). Resizable buffers shrunk to nothing
 * once encoded gave that memory back at once, but V8 counts every growth of one as new external
 * memory and a shrink not at all, so it ran a full collection every few megabytes of speech
 * (about 25 while 50,000 characters converted: a second or two of CPU). Fixed blocks of ordinary
 * memory cost their whole size in resident memory however little of them a piece used. So the
 * kept-running eSpeak-NG host (server/tts/espeak-host.ts) collects each piece in a block of
 * PcmBlocks: a resizable buffer that grows to what its pieces need (pages are only used as they
 * are written) and is never shrunk while in use, so V8 counts each block's memory once; the MP3
 * writer (./mp3.ts) hands the block back once its encoder has taken it, and the next piece is
 * collected in it (docs/adr/0023-offline-voice-variants-and-speech-buffers.md).
 */

/** The ES2024 resizable ArrayBuffer (Node 20 has it; the server's TypeScript library is ES2023). */
interface ResizableArrayBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

const ResizableArrayBufferConstructor = ArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => ResizableArrayBuffer;

/** A block holds up to this much: 47 s of speech at 22,050 Hz (300 characters read slowly still fit). */
const BLOCK_BYTES = 2 * 1024 * 1024;
/** Free blocks kept for the next pieces (the pieces in flight at once are fewer). */
const MAX_FREE_BLOCKS = 8;
/** Free blocks are let go after this long without a piece of speech (the server is idle). */
const IDLE_MS = 30_000;

/** The pool each block came from, so a block handed back finds its way home. */
const owners = new WeakMap<ArrayBuffer, PcmBlocks>();

/** Blocks for pieces of speech (resizable up to `blockBytes`), handed out and taken back for reuse. */
export class PcmBlocks {
  private readonly free: ResizableArrayBuffer[] = [];
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly blockBytes = BLOCK_BYTES,
    private readonly maxFree = MAX_FREE_BLOCKS,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Free blocks waiting for a piece. */
  get available(): number {
    return this.free.length;
  }

  /** A block to collect a piece in: a reused one (as large as it grew) or a new, empty one. */
  get(): ResizableArrayBuffer {
    this.idleTimer?.refresh();
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    const block = new ResizableArrayBufferConstructor(0, { maxByteLength: this.blockBytes });
    owners.set(block, this);
    return block;
  }

  /** Takes a block back for the next piece (anything else, or a block already back, is left alone). */
  giveBack(buffer: ArrayBuffer): void {
    const block = buffer as ResizableArrayBuffer;
    // Not ours, or transferred to an encoder thread (a detached buffer's maximum is 0).
    if (owners.get(block) !== this || block.maxByteLength !== this.blockBytes) return;
    if (this.free.includes(block)) return;
    if (this.free.length >= this.maxFree) {
      block.resize(0); // not kept: its pages go back now
      return;
    }
    this.free.push(block);
    // Let the free blocks go once no speech has come for idleMs (each piece starts the wait again).
    if (this.idleTimer !== null) {
      this.idleTimer.refresh();
      return;
    }
    this.idleTimer = setTimeout(() => this.letFreeBlocksGo(), this.idleMs);
    this.idleTimer.unref();
  }

  /** Gives the free blocks' pages back now (blocks in use are kept; later pieces start new ones). */
  letFreeBlocksGo(): void {
    for (const free of this.free) free.resize(0);
    this.free.length = 0;
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}

/** The blocks every piece of speech in this thread is collected in. */
const sharedBlocks = new PcmBlocks();

/**
 * Gives back the free blocks of this thread's speech now rather than after IDLE_MS: a book whose
 * chapters are all spoken is analysed next, and its analysis's thread is the book's peak.
 */
export function letFreeSpeechBlocksGo(): void {
  sharedBlocks.letFreeBlocksGo();
}

/** Mono 16-bit PCM arriving in chunks of any size, collected in one block. */
export class GrowingPcm {
  private buffer: ArrayBuffer | null = null;
  private bytes = 0;

  constructor(private readonly blocks: PcmBlocks = sharedBlocks) {}

  /** Copies a chunk in at the end (the chunk may then be dropped at once). */
  append(chunk: Uint8Array): void {
    const needed = this.bytes + chunk.length;
    this.buffer ??= this.blocks.get();
    if (needed > this.buffer.byteLength) this.grow(needed);
    new Uint8Array(this.buffer, this.bytes, chunk.length).set(chunk);
    this.bytes = needed;
  }

  private grow(needed: number): void {
    const buffer = this.buffer as ResizableArrayBuffer;
    const max = buffer.maxByteLength;
    if (needed <= max) {
      buffer.resize(Math.min(max, Math.max(needed, buffer.byteLength * 2)));
      return;
    }
    // A piece longer than a block (rare) goes on in ordinary memory, growing by doubling.
    const larger = new ArrayBuffer(Math.max(needed, buffer.byteLength * 2));
    new Uint8Array(larger).set(new Uint8Array(buffer, 0, this.bytes));
    this.blocks.giveBack(buffer);
    this.buffer = larger;
  }

  /**
   * The samples collected (a whole number of them), a view of their block, which now belongs to
   * the caller (releasePcm hands it back); the collector starts empty.
   */
  take(): Int16Array {
    const samples = this.buffer === null ? new Int16Array(0) : new Int16Array(this.buffer, 0, this.bytes >> 1);
    this.buffer = null;
    this.bytes = 0;
    return samples;
  }

  /** Drops what was collected (a request dropped or failed); its block goes back. */
  clear(): void {
    if (this.buffer !== null) this.blocks.giveBack(this.buffer);
    this.buffer = null;
    this.bytes = 0;
  }
}

/**
 * Hands a piece's block back for the next piece, once nobody reads these samples any more. Other
 * arrays, and a block transferred to an encoder thread (that thread's now), are left alone.
 */
export function releasePcm(samples: Int16Array): void {
  const buffer = samples.buffer;
  if (buffer instanceof ArrayBuffer) owners.get(buffer)?.giveBack(buffer);
}
