/**
 * eSpeak-NG compiled to WebAssembly (the npm `espeak-ng` package): the runtime that espeak.ts
 * describes, on its own so that it can run in a worker thread (espeak-worker.mjs) as well as on
 * the calling thread. Built as an entry of its own beside the compiled server (dist-server/).
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ESpeakNgModule } from 'espeak-ng';
import type { HostWord } from './espeak-host';
import { hookSynthCallback, type WasmTable } from './espeak-wasm-events';

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
  __indirect_function_table: WasmTable;
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
   * there is one) or null to end; `done(pcm)` gets each text's 16-bit little-endian samples and
   * its word events (first samples counted from the text's first sample) at the moment eSpeak
   * asks for the following line, that is as soon as the text is spoken.
   */
  serve(args: string[], next: () => string | null, done: Delivery): ServeResult;
  /** Milliseconds spent reading, compiling and instantiating the module. */
  readonly initMs: number;
}

/** One text's speech as `serve` hands it over. */
export type Delivery = (pcm: Uint8Array, sampleRate: number, words: HostWord[]) => void;

/** What `-w` writes to in `serve`: a device of ours, so the samples come straight to JavaScript. */
const PCM_DEVICE = '/dev/lectio-pcm';
/** The WAV header eSpeak writes once, before the first samples. */
const WAV_HEADER_BYTES = 44;
/** eSpeak's CLI reads a line with fgets into 1,000 bytes: longer lines would be cut in two calls. */
export const MAX_LINE_BYTES = 998;

/** A text as one line of eSpeak's line mode: line breaks (and NULs) become spaces. */
function asOneLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ').replaceAll(String.fromCharCode(0), ' ');
}

/**
 * A text as eSpeak is handed it on both speech paths: one line (`asOneLine`: the same length, so
 * eSpeak's word positions still point into the text as given) ending with the line break that ends
 * its last clause as any line's does.
 */
export function asLine(text: string): string {
  return `${asOneLine(text)}\n`;
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

/** Puts memory back exactly as it was when the snapshot was taken (memory grown since is zeroed). */
function restoreMemory(memory: Uint8Array, snapshot: MemorySnapshot): void {
  let at = 0;
  for (const run of snapshot.runs) {
    memory.fill(0, at, run.offset);
    memory.set(run.bytes, run.offset);
    at = run.offset + run.bytes.length;
  }
  memory.fill(0, at, memory.length);
}

/** The eSpeak-NG WebAssembly module's bytes (18 MB, the voices' data included). */
function wasmBytes(): Uint8Array {
  const require = createRequire(import.meta.url);
  return readFileSync(path.join(path.dirname(require.resolve('espeak-ng')), 'espeak-ng.wasm'));
}

/** Where the WebAssembly build keeps eSpeak-NG's voice data in its own file system. */
const WASM_DATA_DIR = '/usr/local/share/espeak-ng-data';

/**
 * Writes the WebAssembly build's voice data (its `espeak-ng-data` folder, 19 MB) into
 * `target/espeak-ng-data`: the native host reads the very same files (espeak-host-build.ts).
 */
export async function copyVoiceData(target: string): Promise<void> {
  const { default: ESpeakNg } = await import('espeak-ng');
  const { FS } = await withoutStackTraces(() => ESpeakNg({ noInitialRun: true, print: () => {}, printErr: () => {} }));
  const copy = async (from: string, to: string): Promise<void> => {
    await mkdir(to, { recursive: true });
    for (const name of FS.readdir(from)) {
      if (name === '.' || name === '..') continue;
      const source = `${from}/${name}`;
      if (FS.isDir(FS.stat(source).mode)) await copy(source, path.join(to, name));
      else await writeFile(path.join(to, name), FS.readFile(source));
    }
  };
  await copy(WASM_DATA_DIR, path.join(target, 'espeak-ng-data'));
}

/** An instantiated module: its exports, file system, and what it wrote to stderr. */
interface Instance {
  ex: WasmExports;
  FS: ESpeakNgModule['FS'];
  stderr: { text: string };
}

async function instantiate(compiled: object): Promise<Instance> {
  const { default: ESpeakNg } = await import('espeak-ng');
  const stderr = { text: '' };
  let exportsRef: WasmExports | undefined;
  const mod: ESpeakNgModule = await withoutStackTraces(() =>
    ESpeakNg({
      noInitialRun: true,
      // A device of its own for stdin, whose reads `serve` answers.
      stdin: () => null,
      print: () => {},
      printErr: (line: string) => {
        stderr.text += line + '\n';
      },
      instantiateWasm(imports, receive) {
        // eSpeak seeds the noise of its breathy voices with the clock (time()) when it starts:
        // the clock reads 0 here, as the native host seeds it with 0, so a text sounds the same
        // on either path whenever it is spoken.
        const env = (imports as { env: Record<string, unknown> }).env;
        env.emscripten_date_now = () => 0;
        const instance = new Wasm.Instance(compiled, imports);
        exportsRef = instance.exports as unknown as WasmExports;
        receive(instance, compiled);
        return instance.exports;
      },
    }),
  );
  if (!exportsRef) throw new Error('espeak-ng WASM did not instantiate');
  return { ex: exportsRef, FS: mod.FS, stderr };
}

/** Runs the CLI's main() with `args` on memory as it was at `snapshot`; returns its exit status. */
function callMain({ ex, FS, stderr }: Instance, snapshot: MemorySnapshot, args: string[]): number {
  restoreMemory(new Uint8Array(ex.memory.buffer), snapshot);
  stderr.text = '';
  const encoder = new TextEncoder();
  const sp = ex.stackSave();
  try {
    const ptrs = ['espeak-ng', ...args].map((a) => {
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
    closeFiles(FS);
  }
}

/** Closes every file the program left open (fds 0-2 are the std streams). */
function closeFiles(FS: ESpeakNgModule['FS']): void {
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

/**
 * What eSpeak writes to the PCM device in one `serve`: a WAV header, then samples, text by text
 * (each text after the first is spoken from restored memory, so its header comes again).
 */
function pcmCollector() {
  let header: number[] = [];
  let sampleRate = 22050;
  let chunks: Uint8Array[] = [];
  let bytes = 0;
  return {
    write(data: Uint8Array): void {
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
    },
    /** The next write starts with a WAV header again. */
    expectHeader(): void {
      header = [];
    },
    /** The samples since the last take, in one array. */
    take(): { pcm: Uint8Array; sampleRate: number } {
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
      return { pcm, sampleRate };
    },
  };
}

/**
 * Compiles (or takes an already compiled module: compiled code is shared by every thread it is
 * posted to) and instantiates eSpeak-NG, ready for `serve`.
 */
export async function createWasmRuntime(module?: object): Promise<WasmRuntime> {
  const t0 = performance.now();
  const instance = await instantiate(module ?? (await Wasm.compile(wasmBytes())));
  const { ex, FS } = instance;

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
  const encoder = new TextEncoder();
  /** The words of the text being spoken, in order; `serve` takes them with its samples. */
  let words: HostWord[] = [];

  function serve(args: string[], next: () => string | null, done: Delivery): ServeResult {
    const collected = pcmCollector();
    sink = collected.write;
    let line: Uint8Array | null = null;
    let at = 0;
    let speaking = false;
    /** Memory as it was when eSpeak, set up with `args`, first asked for a line. */
    let beforeFirstLine: MemorySnapshot | null = null;
    // eSpeak asks for more input only once the line before is spoken: that is when its samples
    // are complete (once stdio's buffer is flushed) and handed over.
    reader = (buffer, offset, length) => {
      if (line === null || at >= line.length) {
        if (speaking) {
          ex.fflush(0);
          speaking = false;
          const { pcm, sampleRate } = collected.take();
          const spoken = words;
          words = [];
          done(pcm, sampleRate, spoken);
        }
        const text = next();
        if (text === null) {
          line = null;
          return 0;
        }
        // Every text is spoken from eSpeak's state before any speech, as a fresh eSpeak (and the
        // native path) speaks it: eSpeak carries state from one text to the next (its pitch
        // flutter's phase), which would make a text a few milliseconds longer or shorter
        // depending on what was said before. Here, inside the same read, the program's memory is
        // put back as it was at the first one (its call stack included), the output file it then
        // opens again is closed, and its header read again.
        const memory = new Uint8Array(ex.memory.buffer);
        if (beforeFirstLine === null) {
          beforeFirstLine = snapshotMemory(memory);
        } else {
          restoreMemory(memory, beforeFirstLine);
          closeFiles(FS);
          collected.expectHeader();
        }
        line = encoder.encode(asLine(text));
        at = 0;
        speaking = true;
        words = [];
      }
      const n = Math.min(length, line.length - at);
      buffer.set(line.subarray(at, at + n), offset);
      at += n;
      return n;
    };
    try {
      return withoutStackTraces(() => ({
        status: callMain(instance, snapshot, [...args, '-w', PCM_DEVICE]),
        stderr: instance.stderr.text,
      }));
    } finally {
      sink = null;
      reader = null;
    }
  }

  // The word events: eSpeak's synthesis callback gets a listener, found by trying a short text.
  hookSynthCallback(
    ex.__indirect_function_table,
    () => ex.memory.buffer,
    (block) => words.push(...block.words),
    () => {
      let samples = 0;
      let given = false;
      const out = serve(
        ['-v', 'en'],
        () => (given ? null : ((given = true), 'one two')),
        (pcm) => (samples = pcm.length / 2),
      );
      if (out.status !== 0) throw new Error(out.stderr);
      return samples;
    },
  );
  return { serve, initMs: performance.now() - t0 };
}
