/**
 * eSpeak-NG compiled to WebAssembly (the npm `espeak-ng` package): the runtime that espeak.ts
 * describes, on its own so that it can run in a worker thread (espeak-worker.mjs) as well as on
 * the calling thread. Built as an entry of its own beside the compiled server (dist-server/).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ESpeakNgModule } from 'espeak-ng';

// Minimal WebAssembly typings: the server's tsconfig has no DOM lib and @types/node lacks them.
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  Instance: new (module: object, imports: object) => { exports: object };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface WasmExports {
  memory: { buffer: ArrayBuffer };
  stackSave(): number;
  stackRestore(sp: number): void;
  stackAlloc(size: number): number;
  __main_argc_argv(argc: number, argv: number): number;
  fflush(file: number): number;
}

/** How `serve` ended: eSpeak's exit status and what it wrote to stderr. */
export interface ServeResult {
  status: number;
  stderr: string;
}

export interface WasmRuntime {
  /**
   * eSpeak's line-by-line mode, for many calls with the same `args` (voice and rate) at the cost
   * of one start: `espeak-ng ARGS -w <device>` reads its text from stdin one line at a time.
   * `next()` gives the next text (called when eSpeak asks for more input, so it may block until
   * there is one) or null to end; `done(pcm)` gets each text's 16-bit little-endian samples at
   * the moment eSpeak asks for the following line, that is as soon as the text is spoken.
   */
  serve(args: string[], next: () => string | null, done: (pcm: Uint8Array, sampleRate: number) => void): ServeResult;
  /** Milliseconds spent reading, compiling and instantiating the module. */
  readonly initMs: number;
}

/** What `-w` writes to in `serve`: a device of ours, so the samples come straight to JavaScript. */
const PCM_DEVICE = '/dev/lectio-pcm';
/** The WAV header eSpeak writes once, before the first samples. */
const WAV_HEADER_BYTES = 44;
/** eSpeak's CLI reads a line with fgets into 1,000 bytes: longer lines would be cut in two calls. */
export const MAX_LINE_BYTES = 998;

/** A text as one line of eSpeak's line mode: line breaks (and NULs) become spaces. */
export function asOneLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ').replaceAll(String.fromCharCode(0), ' ');
}

/** Stack traces are expensive and the Emscripten FS throws thousands of ErrnoErrors. */
function withoutStackTraces<T>(fn: () => T): T {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = saved;
  }
}

/** A copy of linear memory that stores runs of non-zero 64 KiB pages only (about half is zero). */
interface MemorySnapshot {
  length: number;
  runs: { offset: number; bytes: Uint8Array }[];
}

const SNAPSHOT_PAGE = 64 * 1024;

function snapshotMemory(memory: Uint8Array): MemorySnapshot {
  const runs: MemorySnapshot['runs'] = [];
  let start = -1;
  const isZero = (page: Uint8Array): boolean => {
    const words = new Uint32Array(page.buffer, page.byteOffset, page.byteLength / 4);
    for (const w of words) if (w !== 0) return false;
    return true;
  };
  for (let at = 0; at <= memory.length; at += SNAPSHOT_PAGE) {
    const zero = at === memory.length || isZero(memory.subarray(at, at + SNAPSHOT_PAGE));
    if (!zero && start < 0) start = at;
    if (zero && start >= 0) {
      runs.push({ offset: start, bytes: memory.slice(start, at) });
      start = -1;
    }
  }
  return { length: memory.length, runs };
}

/** Puts `memory[0, snapshot.length)` back exactly as it was when the snapshot was taken. */
function restoreMemory(memory: Uint8Array, snapshot: MemorySnapshot): void {
  let at = 0;
  for (const run of snapshot.runs) {
    memory.fill(0, at, run.offset);
    memory.set(run.bytes, run.offset);
    at = run.offset + run.bytes.length;
  }
  memory.fill(0, at, snapshot.length);
}

/** The eSpeak-NG WebAssembly module's bytes (18 MB, the voices' data included). */
function wasmBytes(): Uint8Array {
  const require = createRequire(import.meta.url);
  return readFileSync(path.join(path.dirname(require.resolve('espeak-ng')), 'espeak-ng.wasm'));
}

/**
 * Compiles (or takes an already compiled module: compiled code is shared by every thread it is
 * posted to) and instantiates eSpeak-NG, ready for `serve`.
 */
export async function createWasmRuntime(module?: object): Promise<WasmRuntime> {
  const t0 = performance.now();
  const compiled = module ?? (await Wasm.compile(wasmBytes()));
  const { default: ESpeakNg } = await import('espeak-ng');

  let stderr = '';
  let exportsRef: WasmExports | undefined;
  const modulePromise = withoutStackTraces(() =>
    ESpeakNg({
      noInitialRun: true,
      // A device of its own for stdin, whose reads `serve` answers (see `lineReader`).
      stdin: () => null,
      print: () => {},
      printErr: (line: string) => {
        stderr += line + '\n';
      },
      instantiateWasm(imports, receive) {
        const instance = new Wasm.Instance(compiled, imports);
        exportsRef = instance.exports as unknown as WasmExports;
        receive(instance, compiled);
        return instance.exports;
      },
    }),
  );
  const mod: ESpeakNgModule = await modulePromise;
  if (!exportsRef) throw new Error('espeak-ng WASM did not instantiate');
  const ex: WasmExports = exportsRef;
  const FS = mod.FS;

  // `serve`'s plumbing: what eSpeak writes to PCM_DEVICE goes to `sink` (a copy: the heap is
  // reused), and its reads of stdin are answered by `reader`.
  let sink: ((bytes: Uint8Array) => void) | null = null;
  let reader: ((buffer: Int8Array, offset: number, length: number) => number) | null = null;
  const pcmDevice = FS.makedev(99, 0);
  FS.registerDevice(pcmDevice, {
    read: () => 0,
    write(_stream, buffer, offset, length) {
      sink?.(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length).slice());
      return length;
    },
  });
  FS.mkdev(PCM_DEVICE, 0o666, pcmDevice);
  const stdinOps = FS.streams[0]?.stream_ops;
  if (!stdinOps) throw new Error('espeak-ng WASM has no stdin stream');
  stdinOps.read = (_stream, buffer, offset, length) => (reader ? reader(buffer, offset, length) : 0);

  const snapshot = snapshotMemory(new Uint8Array(ex.memory.buffer));
  const initMs = performance.now() - t0;
  const encoder = new TextEncoder();

  /** Runs the CLI's main() with `args` on memory as it was before the first run; returns its exit status. */
  function main(args: string[]): number {
    const memory = new Uint8Array(ex.memory.buffer);
    restoreMemory(memory, snapshot);
    stderr = '';
    const argvStrings = ['espeak-ng', ...args];
    const sp = ex.stackSave();
    try {
      const ptrs = argvStrings.map((a) => {
        const bytes = encoder.encode(a + '\0');
        const p = ex.stackAlloc(bytes.length);
        new Uint8Array(ex.memory.buffer).set(bytes, p);
        return p;
      });
      const argv = ex.stackAlloc((ptrs.length + 1) * 4);
      const heap32 = new Uint32Array(ex.memory.buffer);
      ptrs.forEach((p, i) => (heap32[(argv >> 2) + i] = p));
      heap32[(argv >> 2) + ptrs.length] = 0;
      return ex.__main_argc_argv(ptrs.length, argv);
    } catch (e) {
      // exit(n) inside the program throws Emscripten's ExitStatus { status }.
      const s = (e as { status?: unknown } | null)?.status;
      if (typeof s !== 'number') throw e;
      return s;
    } finally {
      ex.stackRestore(sp);
      // Close whatever the run left open (fds 0-2 are the std streams).
      for (const stream of FS.streams) {
        if (stream && stream.fd > 2) {
          try {
            FS.close(stream);
          } catch {
            /* already closed */
          }
        }
      }
    }
  }

  function serve(
    args: string[],
    next: () => string | null,
    done: (pcm: Uint8Array, sampleRate: number) => void,
  ): ServeResult {
    let header: number[] = [];
    let sampleRate = 22050;
    let chunks: Uint8Array[] = [];
    let bytes = 0;
    sink = (data) => {
      let body = data;
      if (header.length < WAV_HEADER_BYTES) {
        const take = Math.min(WAV_HEADER_BYTES - header.length, body.length);
        header.push(...body.subarray(0, take));
        body = body.subarray(take);
        if (header.length === WAV_HEADER_BYTES) {
          sampleRate = header[24]! | (header[25]! << 8) | (header[26]! << 16) | (header[27]! << 24);
        }
      }
      if (body.length > 0) {
        chunks.push(body);
        bytes += body.length;
      }
    };
    const deliver = () => {
      const pcm = chunks.length === 1 ? chunks[0]! : new Uint8Array(bytes);
      if (chunks.length !== 1) {
        let at = 0;
        for (const c of chunks) {
          pcm.set(c, at);
          at += c.length;
        }
      }
      chunks = [];
      bytes = 0;
      done(pcm, sampleRate);
    };
    let line: Uint8Array | null = null;
    let at = 0;
    let speaking = false;
    // eSpeak asks for more input only once the line before is spoken: that is when its samples
    // are complete (once stdio's buffer is flushed) and handed over.
    reader = (buffer, offset, length) => {
      if (line === null || at >= line.length) {
        if (speaking) {
          ex.fflush(0);
          speaking = false;
          deliver();
        }
        const text = next();
        if (text === null) {
          line = null;
          return 0;
        }
        line = encoder.encode(asOneLine(text) + '\n');
        at = 0;
        speaking = true;
      }
      const n = Math.min(length, line.length - at);
      buffer.set(line.subarray(at, at + n), offset);
      at += n;
      return n;
    };
    try {
      return withoutStackTraces(() => ({ status: main([...args, '-w', PCM_DEVICE]), stderr }));
    } finally {
      sink = null;
      reader = null;
      header = [];
    }
  }

  return { serve, initMs };
}
