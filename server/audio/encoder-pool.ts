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
  /** Set once the worker has started; a worker that dies before that is not respawned (it would fail again). */
  online = false;
  private readonly pending = new Map<string, Pending>();

  constructor(onDeath: (w: EncoderWorker) => void) {
    this.worker = new Worker(WORKER_URL);
    this.worker.on('message', (msg: WorkerReply | { ready: true }) => {
      if ('ready' in msg) {
        this.online = true;
        return;
      }
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
    const own = pcm.byteOffset === 0 && pcm.byteLength === pcm.buffer.byteLength && pcm.buffer instanceof ArrayBuffer
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
 * A fixed set of worker threads running lamejs. Each stream is pinned to the least busy worker
 * (one encoder per stream lives there), so encoding of many chapters runs on all cores while the
 * main thread keeps synthesising. `size` 0 encodes in-process (same bytes, no threads).
 * Memory: each warm worker costs roughly 50–70 MB RSS (V8 isolate + lamejs tables), so on a
 * many-core host pass an explicit size that fits the memory budget.
 */
export class EncoderPool {
  readonly size: number;
  private readonly workers: EncoderWorker[] = [];
  private nextId = 1;
  private closed = false;

  constructor(size: number = os.availableParallelism()) {
    if (!Number.isInteger(size) || size < 0) throw new RangeError(`Invalid encoder pool size ${size}`);
    this.size = size;
    for (let i = 0; i < size; i += 1) this.workers.push(this.spawn());
  }

  /** Opens an encoding stream (mono PCM at `sampleRate`, constant `kbps`). */
  openSession(sampleRate: number, kbps: number): EncoderSession {
    if (this.closed) throw new Error('Encoder pool is closed');
    assertEncodable(sampleRate, kbps);
    if (this.size === 0) return new InProcessEncoderSession(sampleRate, kbps);
    let best = this.workers[0]!;
    for (const w of this.workers) if (w.openStreams < best.openStreams) best = w;
    return new WorkerEncoderSession(best, this.nextId++, sampleRate, kbps);
  }

  /** Number of streams currently open per worker (for tests and metrics). */
  loads(): number[] {
    return this.workers.map((w) => w.openStreams);
  }

  /** Terminates the workers; streams still open fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private spawn(): EncoderWorker {
    return new EncoderWorker((dead) => {
      // Replace a crashed worker so new streams keep working (its own streams fail).
      const index = this.workers.indexOf(dead);
      if (index >= 0 && !this.closed && dead.online) this.workers[index] = this.spawn();
    });
  }
}
