/**
 * Memory for speech that is given back as soon as it has been encoded. A long conversion produces
 * some 40 KB of PCM per second of speech; allocated as ordinary ArrayBuffers, each piece's memory
 * stays with the process until V8's next full garbage collection, long after the encoder has taken
 * it (30 MB and more at once while a book converts). A resizable ArrayBuffer keeps its memory in a
 * mapping of its own that `resize(0)` hands back to the system at once, so the kept-running
 * eSpeak-NG host (server/tts/espeak-host.ts) collects each piece of speech in one, and the MP3
 * writer (./mp3.ts) releases it once the encoder has taken it.
 */

/** The ES2024 resizable ArrayBuffer (Node 20 has it; the server's TypeScript library is ES2023). */
interface ResizableArrayBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

const ResizableArrayBufferConstructor = ArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => ResizableArrayBuffer;

/** Address space set aside per piece (not memory: pages are only used as the speech fills them). */
const RESERVED_BYTES = 64 * 1024 * 1024;

/** Mono 16-bit PCM arriving in chunks of any size, collected in one resizable buffer. */
export class GrowingPcm {
  private buffer: ResizableArrayBuffer;
  private bytes = 0;

  /** `reservedBytes`: address space set aside for one piece before it moves to a larger reservation. */
  constructor(private readonly reservedBytes = RESERVED_BYTES) {
    this.buffer = new ResizableArrayBufferConstructor(0, { maxByteLength: reservedBytes });
  }

  /** Copies a chunk in at the end (the chunk may then be dropped at once). */
  append(chunk: Uint8Array): void {
    const needed = this.bytes + chunk.length;
    if (needed > this.buffer.byteLength) {
      if (needed > this.buffer.maxByteLength) {
        // Longer than any 300-character piece of speech; moved to a larger reservation.
        const larger = new ResizableArrayBufferConstructor(needed, { maxByteLength: needed * 2 });
        new Uint8Array(larger).set(new Uint8Array(this.buffer, 0, this.bytes));
        this.buffer.resize(0);
        this.buffer = larger;
      } else {
        this.buffer.resize(Math.min(this.buffer.maxByteLength, Math.max(needed, this.buffer.byteLength * 2)));
      }
    }
    new Uint8Array(this.buffer, this.bytes, chunk.length).set(chunk);
    this.bytes = needed;
  }

  /** The samples collected (a whole number of them), in their own buffer; the collector starts empty. */
  take(): Int16Array {
    const buffer = this.buffer;
    const samples = this.bytes >> 1;
    buffer.resize(samples * 2);
    this.buffer = new ResizableArrayBufferConstructor(0, { maxByteLength: this.reservedBytes });
    this.bytes = 0;
    return new Int16Array(buffer, 0, samples);
  }

  /** Gives the memory collected so far back (a request dropped or failed). */
  clear(): void {
    this.buffer.resize(0);
    this.bytes = 0;
  }
}

/**
 * Gives a block's memory back now if it lives in a resizable buffer (a GrowingPcm's), once nobody
 * reads it any more. A buffer transferred to an encoder thread is that thread's: nothing happens.
 */
export function releasePcm(samples: Int16Array): void {
  const buffer = samples.buffer as ResizableArrayBuffer;
  if (buffer.resizable !== true || buffer.byteLength === 0) return;
  try {
    buffer.resize(0);
  } catch {
    // detached (transferred): not ours to release
  }
}
