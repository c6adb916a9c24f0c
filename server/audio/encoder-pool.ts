import * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import { assertEncodable, InProcessEncoderSession, type EncoderSession } from './encoder-session';

export type { EncoderSession } from './encoder-session';

const WORKER_URL = new URL('./mp3-worker.mjs', import.meta.url);

interface Pending {
  resolve: (data: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface WorkerReply {
  id: number;
  seq: number;
  data?: Uint8Array;
  error?: string;
}

class EncoderWorker {
  readonly worker: Worker;
  openStreams = 0;
  dead: Error | null = null;
  private readonly pending = new Map<string, Pending>();

  /** Requests sent and not yet answered: the worker's backlog. */
  get queued(): number {
    return this.pending.size;
  }

  constructor(onDeath: (w: EncoderWorker) => void) {
    this.worker = new Worker(WORKER_URL);
    this.worker.on('message', (msg: WorkerReply) => {
      const key = `${msg.id}:${msg.seq}`;
      const entry = this.pending.get(key);
      if (!entry) return;
      this.pending.delete(key);
      if (msg.error !== undefined) entry.reject(new Error(`MP3 encoding failed: ${msg.error}`));
      else entry.resolve(msg.data ?? new Uint8Array(0));
    });
    const die = (error: Error): void => {
      if (this.dead) return;
      this.dead = error;
      for (const entry of this.pending.values()) entry.reject(error);
      this.pending.clear();
      onDeath(this);
    };
    this.worker.on('error', (error) => die(new Error(`MP3 encoder worker crashed: ${error.message}`)));
    this.worker.on('exit', (code) => die(new Error(`MP3 encoder worker exited (code ${code})`)));
  }

  request(id: number, seq: number, message: object, transfer: ArrayBuffer[] = []): Promise<Uint8Array> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise<Uint8Array>((resolve, reject) => {
      this.pending.set(`${id}:${seq}`, { resolve, reject });
      this.worker.postMessage(message, transfer);
    });
  }

  post(message: object): void {
    if (!this.dead) this.worker.postMessage(message);
  }
}

class WorkerEncoderSession implements EncoderSession {
  private seq = 0;
  private finished = false;
  private readonly owner: EncoderWorker;
  private readonly id: number;

  constructor(owner: EncoderWorker, id: number, sampleRate: number, kbps: number) {
    this.owner = owner;
    this.id = id;
    owner.openStreams += 1;
    owner.post({ op: 'open', id, sampleRate, kbps });
  }

  encode(pcm: Int16Array): Promise<Uint8Array> {
    if (this.finished) return Promise.reject(new Error('MP3 stream is already finished'));
    // Transfer requires the array to own its whole (non-shared) buffer; otherwise send a copy.
    const own =
      pcm.byteOffset === 0 && pcm.byteLength === pcm.buffer.byteLength && pcm.buffer instanceof ArrayBuffer
        ? pcm
        : pcm.slice();
    const seq = this.seq++;
    return this.owner.request(this.id, seq, { op: 'encode', id: this.id, seq, pcm: own }, [own.buffer as ArrayBuffer]);
  }

  flush(): Promise<Uint8Array> {
    if (this.finished) return Promise.reject(new Error('MP3 stream is already finished'));
    this.release();
    const seq = this.seq++;
    return this.owner.request(this.id, seq, { op: 'flush', id: this.id, seq });
  }

  close(): void {
    if (this.finished) return;
    this.release();
    this.owner.post({ op: 'close', id: this.id });
  }

  private release(): void {
    this.finished = true;
    this.owner.openStreams -= 1;
  }
}

/**
 * MP3 encoders for the conversions of one process: up to `size` worker threads running LAME
 * compiled to WebAssembly, started when work first needs them. A stream goes to an idle worker,
 * else to a new one while fewer than `size` run, else to the one with the shortest backlog; it
 * stays there (its encoder lives there). So the chapters of a book encode on all cores while the
 * main thread keeps synthesising. `size` 0 encodes on the calling thread with the same LAME (same
 * bytes, no threads). The offline voice's native path encodes in its own hosts and does not come
 * here; cloud voices and the portable path do.
 * Memory: each worker costs roughly 20–30 MB RSS (a V8 isolate plus one LAME instance per
 * stream), so on a many-core host pass an explicit size that fits the memory budget.
 */
export class EncoderPool {
  readonly size: number;
  private readonly workers: EncoderWorker[] = [];
  private nextId = 1;
  private closed = false;

  constructor(size: number = os.availableParallelism()) {
    if (!Number.isInteger(size) || size < 0) throw new RangeError(`Invalid encoder pool size ${size}`);
    this.size = size;
  }

  /** Streams that encode truly at once: one per worker thread. */
  get parallelism(): number {
    return Math.max(1, this.size);
  }

  /** What encodes this pool's streams, for job metadata and logs. */
  describe(): string {
    return this.size > 0 ? `LAME WebAssembly, worker threads (${this.size})` : 'LAME WebAssembly, in-process';
  }

  /** Opens an encoding stream (mono PCM at `sampleRate`, constant `kbps`). */
  openSession(sampleRate: number, kbps: number): EncoderSession {
    if (this.closed) throw new Error('Encoder pool is closed');
    assertEncodable(sampleRate, kbps);
    if (this.size === 0) return new InProcessEncoderSession(sampleRate, kbps);
    return new WorkerEncoderSession(this.pick(), this.nextId++, sampleRate, kbps);
  }

  /** Number of streams currently open per running worker (for tests and metrics). */
  loads(): number[] {
    return this.workers.map((w) => w.openStreams);
  }

  /** Worker threads currently running. */
  get running(): number {
    return this.workers.length;
  }

  /** Terminates the workers; streams still open fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private pick(): EncoderWorker {
    const idle = this.workers.find((w) => w.openStreams === 0 && w.queued === 0);
    if (idle) return idle;
    if (this.workers.length < this.size) {
      const fresh = new EncoderWorker((dead) => {
        // A crashed worker's own streams fail; new streams go to the others or a fresh one.
        const index = this.workers.indexOf(dead);
        if (index >= 0) this.workers.splice(index, 1);
      });
      this.workers.push(fresh);
      return fresh;
    }
    let best = this.workers[0]!;
    for (const w of this.workers) {
      if (w.queued < best.queued || (w.queued === best.queued && w.openStreams < best.openStreams)) best = w;
    }
    return best;
  }
}
