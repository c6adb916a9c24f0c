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
}

export interface RunResult {
  status: number;
  wav: Uint8Array | null;
  stderr: string;
}

export interface WasmRuntime {
  run(args: string[], text: string): RunResult;
  /** Milliseconds spent reading, compiling and instantiating the module. */
  readonly initMs: number;
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

export async function createWasmRuntime(): Promise<WasmRuntime> {
  const t0 = performance.now();
  const require = createRequire(import.meta.url);
  const jsPath = require.resolve('espeak-ng');
  const wasmPath = path.join(path.dirname(jsPath), 'espeak-ng.wasm');
  const compiled = await Wasm.compile(readFileSync(wasmPath));
  const { default: ESpeakNg } = await import('espeak-ng');

  let stderr = '';
  let exportsRef: WasmExports | undefined;
  const modulePromise = withoutStackTraces(() =>
    ESpeakNg({
      noInitialRun: true,
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
  const snapshot = snapshotMemory(new Uint8Array(ex.memory.buffer));
  const initMs = performance.now() - t0;
  const encoder = new TextEncoder();

  function run(args: string[], text: string): RunResult {
    return withoutStackTraces(() => {
      const memory = new Uint8Array(ex.memory.buffer);
      restoreMemory(memory, snapshot);
      // Memory grown by an earlier call is not in the snapshot: clear it too, so every call starts
      // from the same bytes (eSpeak may read heap it did not initialise).
      if (memory.length > snapshot.length) memory.fill(0, snapshot.length);
      stderr = '';
      mod.FS.writeFile('/in.txt', text);
      const argvStrings = ['espeak-ng', ...args, '-f', '/in.txt', '-w', '/out.wav'];
      const sp = ex.stackSave();
      let status: number;
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
        status = ex.__main_argc_argv(ptrs.length, argv);
      } catch (e) {
        // exit(n) inside the program throws Emscripten's ExitStatus { status }.
        const s = (e as { status?: unknown } | null)?.status;
        if (typeof s !== 'number') throw e;
        status = s;
      } finally {
        ex.stackRestore(sp);
        // Close whatever an early exit() left open (fds 0-2 are the std streams).
        for (const stream of mod.FS.streams) {
          if (stream && stream.fd > 2) {
            try {
              mod.FS.close(stream);
            } catch {
              /* already closed */
            }
          }
        }
      }
      let wav: Uint8Array | null = null;
      if (mod.FS.analyzePath('/out.wav').exists) {
        wav = mod.FS.readFile('/out.wav');
        mod.FS.unlink('/out.wav');
      }
      mod.FS.unlink('/in.txt');
      return { status, wav, stderr };
    });
  }

  return { run, initMs };
}
