/**
 * Offline engine: eSpeak-NG.
 *
 * Two backends, chosen once per engine:
 * - native: an `espeak-ng` binary on PATH (or `nativeBinary`), run per call as
 *   `espeak-ng --stdout -b 1 -v VOICE -s RATE` with the text on stdin; the WAV comes on stdout.
 *   Calls go through a small long-lived shell (launcher.ts), so the server never forks itself
 *   per call, and several calls may run at once (one per core).
 * - wasm: the npm `espeak-ng` package (Emscripten build of the CLI, voice data embedded in the
 *   18 MB .wasm). The build only exposes the CLI `main()`, run once at instantiation with
 *   `Module.arguments`, and its output read back from the in-memory FS (`Module.FS.readFile`).
 *   Re-instantiating per call costs ~0.4-1 s, so instead we instantiate ONCE with
 *   `noInitialRun: true` (compiling the module ourselves through `instantiateWasm`, which also hands
 *   us the raw wasm exports), snapshot the linear memory (its non-zero pages), and per call:
 *   restore the snapshot (the C globals, getopt state and heap are then exactly as before the
 *   first run), write the text to `/in.txt`, and call the exported `__main_argc_argv` with
 *   `espeak-ng -b 1 -v VOICE -s RATE -f /in.txt -w /out.wav` (argv built with stackAlloc), then
 *   read and delete `/out.wav`. Calls are synchronous (~10-30 ms per sentence) and therefore
 *   naturally serialized.
 */
import { accessSync, constants as fsConstants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ESpeakNgModule } from 'espeak-ng';
import { TtsError, type Speech, type TtsEngine } from './types';
import { getLauncher } from './launcher';
import { parseWav } from './wav';

export type CloudProvider = 'openai' | 'elevenlabs';
export type EspeakBackend = 'native' | 'wasm';

// ---------------------------------------------------------------------------------------------
// Stand-in voices

/** eSpeak voices standing in for the cloud voices: US female for alloy, UK male for adam. */
export const STAND_IN_VOICES = {
  openai: { female: 'en-us+f3', male: 'en-us+m3' },
  elevenlabs: { female: 'en-gb+f4', male: 'en-gb+m3' },
} as const;

const OPENAI_MALE = new Set(['echo', 'onyx', 'fable', 'ash', 'ballad', 'verse', 'cedar']);
const ELEVENLABS_FEMALE = new Set([
  'rachel', '21m00tcm4tlvdq8ikwam', 'bella', 'domi', 'elli', 'dorothy', 'charlotte', 'alice',
  'matilda', 'sarah', 'laura', 'lily', 'jessica',
]);

/**
 * The eSpeak voice that stands in for `voiceId` of `provider` when that provider has no API key.
 * openai -> US English (alloy and the other female voices: en-us+f3; male voices: en-us+m3);
 * elevenlabs -> UK English (adam and other voices: en-gb+m3; known female voices: en-gb+f4).
 */
export function offlineVoiceFor(provider: CloudProvider, voiceId?: string): string {
  const v = (voiceId ?? '').trim().toLowerCase();
  if (provider === 'openai') {
    return OPENAI_MALE.has(v) ? STAND_IN_VOICES.openai.male : STAND_IN_VOICES.openai.female;
  }
  return ELEVENLABS_FEMALE.has(v) ? STAND_IN_VOICES.elevenlabs.female : STAND_IN_VOICES.elevenlabs.male;
}

/** Accepts an eSpeak voice name ("en-us+f3") or a cloud voice name ("alloy", "adam"). */
function resolveVoice(voiceId: string): string {
  const v = voiceId.trim();
  const lower = v.toLowerCase();
  if (lower === 'alloy') return offlineVoiceFor('openai', 'alloy');
  if (lower === 'adam') return offlineVoiceFor('elevenlabs', 'adam');
  if (!/^[A-Za-z0-9_-]+(?:\+[A-Za-z0-9_-]+)?$/.test(v)) {
    throw new TtsError(`eSpeak-NG voice name "${voiceId}" is not valid`, {
      retryable: false,
      code: 'invalid_input',
      engine: 'espeak-ng',
    });
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// WASM backend

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

interface RunResult {
  status: number;
  wav: Uint8Array | null;
  stderr: string;
}

export interface WasmRuntime {
  run(args: string[], text: string): RunResult;
  /** Milliseconds spent reading, compiling and instantiating the module. */
  readonly initMs: number;
}

let wasmRuntime: Promise<WasmRuntime> | undefined;

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

async function createWasmRuntime(): Promise<WasmRuntime> {
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

/** The shared WASM runtime, created on first use. */
export function getWasmRuntime(): Promise<WasmRuntime> {
  wasmRuntime ??= createWasmRuntime().catch((e: unknown) => {
    wasmRuntime = undefined;
    throw e;
  });
  return wasmRuntime;
}

// ---------------------------------------------------------------------------------------------
// Native backend

let nativeDetected: string | null | undefined;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Path of an `espeak-ng` binary on PATH, or null. Looked up once per process. */
export function detectNativeEspeak(): string | null {
  if (nativeDetected === undefined) {
    nativeDetected = null;
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, 'espeak-ng');
      if (isExecutable(candidate)) {
        nativeDetected = candidate;
        break;
      }
    }
  }
  return nativeDetected;
}

/** Runs the native binary through the shared launcher (no fork of the server per call). */
async function runNative(binary: string, args: string[], text: string, signal?: AbortSignal): Promise<RunResult> {
  const out = await getLauncher().run(binary, ['--stdout', ...args], text, signal);
  return { status: out.status, wav: out.stdout.length > 0 ? out.stdout : null, stderr: out.stderr };
}

// ---------------------------------------------------------------------------------------------
// Engine

export interface EspeakOptions {
  /** 'auto' (default): native when an espeak-ng binary is on PATH, else WASM. */
  backend?: 'auto' | EspeakBackend;
  /** Explicit native binary (implies backend 'native' unless backend is 'wasm'). */
  nativeBinary?: string;
  /** Speaking rate in words per minute (eSpeak default 175). */
  rate?: number;
  /**
   * Max characters per call (default 300: a few sentences). Each call has a fixed cost of ~40 ms
   * (restoring the WASM memory snapshot), so one call per sentence would make synthesis, not MP3
   * encoding, the bottleneck; a few sentences per call keep timings within a few seconds.
   */
  maxCharsPerRequest?: number;
}

export interface EspeakEngine extends TtsEngine {
  readonly name: 'espeak-ng';
  readonly backend: EspeakBackend;
}

function abortedError(signal: AbortSignal): TtsError {
  return new TtsError('Speech synthesis was cancelled', {
    retryable: false,
    code: 'aborted',
    engine: 'espeak-ng',
    cause: signal.reason,
  });
}

export function createEspeakEngine(options: EspeakOptions = {}): EspeakEngine {
  const rate = Math.round(options.rate ?? 175);
  if (!(rate >= 80 && rate <= 450)) throw new RangeError(`eSpeak rate ${rate} is outside 80-450 wpm`);
  const maxChars = options.maxCharsPerRequest ?? 300;
  let nativeBinary: string | null = null;
  if (options.backend !== 'wasm') {
    nativeBinary = options.nativeBinary ?? detectNativeEspeak();
    if (options.backend === 'native' && !nativeBinary) {
      throw new Error('espeak-ng backend "native" requested but no espeak-ng binary is on PATH');
    }
  }
  const backend: EspeakBackend = nativeBinary ? 'native' : 'wasm';

  async function synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech> {
    if (signal?.aborted) throw abortedError(signal);
    if (text.trim() === '') {
      throw new TtsError('Nothing to synthesize: the text is empty', {
        retryable: false,
        code: 'invalid_input',
        engine: 'espeak-ng',
      });
    }
    if (text.length > maxChars) {
      throw new TtsError(
        `Text too long for eSpeak-NG: ${text.length} characters, the limit is ${maxChars} per request`,
        { retryable: false, code: 'invalid_input', engine: 'espeak-ng' },
      );
    }
    const voice = resolveVoice(voiceId);
    const args = ['-b', '1', '-v', voice, '-s', String(rate)];
    let result: RunResult;
    try {
      if (nativeBinary) {
        result = await runNative(nativeBinary, args, text, signal);
      } else {
        const runtime = await getWasmRuntime();
        // Let pending I/O (and aborts) through between synchronous synthesis calls.
        await new Promise<void>((r) => setImmediate(r));
        if (signal?.aborted) throw abortedError(signal);
        result = runtime.run(args, text);
      }
    } catch (e) {
      if (e instanceof TtsError) throw e;
      if (signal?.aborted) throw abortedError(signal);
      throw new TtsError(`eSpeak-NG failed: ${e instanceof Error ? e.message : String(e)}`, {
        retryable: false,
        code: 'engine',
        engine: 'espeak-ng',
        cause: e,
      });
    }
    if (signal?.aborted) throw abortedError(signal);
    if (result.status !== 0 || !result.wav) {
      const detail = result.stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.includes('keepRuntimeAlive'))
        .join(' ');
      const noVoice = /voice does not exist/i.test(detail);
      throw new TtsError(
        noVoice
          ? `eSpeak-NG has no voice "${voice}"`
          : `eSpeak-NG failed (exit status ${result.status})${detail ? `: ${detail}` : ''}`,
        { retryable: false, code: noVoice ? 'invalid_input' : 'engine', engine: 'espeak-ng' },
      );
    }
    try {
      return parseWav(result.wav);
    } catch (e) {
      throw new TtsError(`eSpeak-NG produced unreadable audio: ${(e as Error).message}`, {
        retryable: false,
        code: 'engine',
        engine: 'espeak-ng',
        cause: e,
      });
    }
  }

  return { name: 'espeak-ng', maxCharsPerRequest: maxChars, backend, synthesize };
}

let sharedEngine: EspeakEngine | undefined;

/** The process-wide offline engine with default options. */
export function getOfflineEngine(): EspeakEngine {
  sharedEngine ??= createEspeakEngine();
  return sharedEngine;
}
