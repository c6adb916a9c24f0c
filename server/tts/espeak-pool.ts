/**
 * eSpeak-NG WebAssembly on every core: up to `size` worker threads (default one per CPU), each
 * with an instance of its own running eSpeak's line-by-line mode (espeak-worker.mjs), so the
 * synthesis of several texts (a long text's runs, a book's chapters) goes on at once, beside the
 * MP3 encoder threads. The module is compiled once, on first use, and its compiled code shared by
 * every thread. A request goes to the thread already speaking with its voice and rate with the
 * shortest queue (a thread switching voice restarts eSpeak, about 25 ms), starting a thread while
 * fewer than `size` run. The samples come back as a transferred buffer, never copied on the way.
 * Idle threads do not keep the process alive; `close()` ends them.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { HostWord } from './espeak-host';

/** espeak-wasm.ts beside this file when run from source, espeak-wasm.mjs beside the compiled server. */
const WASM_MODULE_URL = new URL(
  import.meta.url.endsWith('.ts') ? './espeak-wasm.ts' : './espeak-wasm.mjs',
  import.meta.url,
).href;
const WORKER_URL = new URL('./espeak-worker.mjs', import.meta.url);

/** What one request gives: samples, their rate and eSpeak's word events, or its exit status and messages. */
export interface PoolResult {
  status: number;
  pcm: Uint8Array | null;
  sampleRate: number;
  words: HostWord[];
  stderr: string;
}

interface Reply {
  id?: number;
  pcm?: ArrayBuffer;
  sampleRate?: number;
  words?: HostWord[];
  status?: number;
  stderr?: string;
  error?: string;
  ready?: boolean;
}

interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: Promise<object> | undefined;

/** The module compiled once per process (off the main thread: WebAssembly.compile is asynchronous). */
function compiledModule(): Promise<object> {
  compiled ??= (async () => {
    const require = createRequire(import.meta.url);
    const bytes = await readFile(path.join(path.dirname(require.resolve('espeak-ng')), 'espeak-ng.wasm'));
    return Wasm.compile(bytes);
  })().catch((error: unknown) => {
    compiled = undefined;
    throw error;
  });
  return compiled;
}

class Lane {
  readonly worker: Worker;
  /** The voice and rate of the last request sent (what the thread's eSpeak speaks with). */
  lastArgs = '';
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private next = 1;
  private readonly pending = new Map<number, { resolve(r: PoolResult): void; reject(e: Error): void }>();
  dead: Error | null = null;

  constructor(wasmModule: object, onDeath: (lane: Lane) => void) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_URL, {
      workerData: { moduleUrl: WASM_MODULE_URL, wasmModule, port: port2, signal: this.signal.buffer },
      transferList: [port2],
    });
    this.worker.unref();
    this.port.unref();
    this.port.on('message', (msg: Reply) => {
      const entry = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!entry) return;
      this.settle(msg.id!);
      if (msg.error !== undefined) entry.reject(new Error(msg.error));
      else {
        entry.resolve({
          status: msg.pcm ? 0 : (msg.status ?? 1),
          pcm: msg.pcm ? new Uint8Array(msg.pcm) : null,
          sampleRate: msg.sampleRate ?? 0,
          words: msg.words ?? [],
          stderr: msg.stderr ?? '',
        });
      }
    });
    const die = (error: Error) => {
      if (this.dead) return;
      this.dead = error;
      for (const entry of this.pending.values()) entry.reject(error);
      this.pending.clear();
      this.hold(false);
      onDeath(this);
    };
    this.worker.on('error', (error) => die(new Error(`the eSpeak worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => die(new Error(`the eSpeak worker stopped (exit code ${code})`)));
  }

  /** Requests sent and not answered yet. */
  get queued(): number {
    return this.pending.size;
  }

  say(args: string[], text: string, signal?: AbortSignal): Promise<PoolResult> {
    if (this.dead) return Promise.reject(this.dead);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.next++;
    this.lastArgs = JSON.stringify(args);
    return new Promise<PoolResult>((resolve, reject) => {
      const onAbort = () => {
        // The thread still speaks it (a few tens of milliseconds); nobody waits for it.
        this.pending.get(id)?.reject(new Error('aborted'));
        this.settle(id);
      };
      if (this.pending.size === 0) this.hold(true);
      this.pending.set(id, {
        resolve: (r) => (signal?.removeEventListener('abort', onAbort), resolve(r)),
        reject: (e) => (signal?.removeEventListener('abort', onAbort), reject(e)),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.post({ type: 'say', id, args, text });
    });
  }

  async close(): Promise<void> {
    this.post({ type: 'close' });
    await this.worker.terminate();
  }

  private post(message: object): void {
    this.port.postMessage(message);
    Atomics.add(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }

  private settle(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.hold(false);
  }

  /** Keeps the process alive while requests wait for this thread, and only then. */
  private hold(on: boolean): void {
    if (on) {
      this.worker.ref();
      this.port.ref();
    } else {
      this.worker.unref();
      this.port.unref();
    }
  }
}

export class EspeakWasmPool {
  readonly size: number;
  private readonly lanes: Lane[] = [];

  constructor(size: number = os.availableParallelism()) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Invalid eSpeak pool size ${size}`);
    this.size = size;
  }

  /** Threads running now. */
  get running(): number {
    return this.lanes.length;
  }

  /** Speaks `text` with eSpeak's command-line `args` (voice, rate, encoding) on one of the threads. */
  async say(args: string[], text: string, signal?: AbortSignal): Promise<PoolResult> {
    const lane = await this.pick(JSON.stringify(args));
    return lane.say(args, text, signal);
  }

  /** Ends every thread; requests still waiting fail. The pool starts threads again when used. */
  async close(): Promise<void> {
    const lanes = this.lanes.splice(0);
    await Promise.all(lanes.map((l) => l.close().catch(() => undefined)));
  }

  private async pick(args: string): Promise<Lane> {
    // Same voice first (no restart), then the shortest queue.
    const cost = (l: Lane) => l.queued * 2 + (l.lastArgs === args ? 0 : 1);
    let best: Lane | undefined;
    for (const lane of this.lanes) if (best === undefined || cost(lane) < cost(best)) best = lane;
    if (best !== undefined && (best.queued === 0 || this.lanes.length >= this.size)) return best;
    const wasmModule = await compiledModule();
    if (this.lanes.length >= this.size) return this.pick(args); // another call started one meanwhile
    const lane = new Lane(wasmModule, (dead) => {
      const index = this.lanes.indexOf(dead);
      if (index >= 0) this.lanes.splice(index, 1);
    });
    this.lanes.push(lane);
    return lane;
  }
}
