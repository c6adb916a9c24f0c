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
import { Worker } from 'node:worker_threads';
import { createWasmRuntime, type RunResult, type WasmRuntime } from './espeak-wasm';
import { findExecutable } from '../executables';
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
  'rachel',
  '21m00tcm4tlvdq8ikwam',
  'bella',
  'domi',
  'elli',
  'dorothy',
  'charlotte',
  'alice',
  'matilda',
  'sarah',
  'laura',
  'lily',
  'jessica',
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
// WASM backend: in a worker thread (espeak-worker.mjs), so synthesis never holds the event loop

let wasmRuntime: Promise<WasmRuntime> | undefined;

/** The WASM runtime on the calling thread (benchmarks), created on first use. */
export function getWasmRuntime(): Promise<WasmRuntime> {
  wasmRuntime ??= createWasmRuntime().catch((e: unknown) => {
    wasmRuntime = undefined;
    throw e;
  });
  return wasmRuntime;
}

/** espeak-wasm.ts beside this file when run from source, espeak-wasm.mjs beside the compiled server. */
const WASM_MODULE_URL = new URL(
  import.meta.url.endsWith('.ts') ? './espeak-wasm.ts' : './espeak-wasm.mjs',
  import.meta.url,
).href;
const WASM_WORKER_URL = new URL('./espeak-worker.mjs', import.meta.url);

interface WorkerReply extends Partial<RunResult> {
  id?: number;
  error?: string;
}

/**
 * One worker thread holding the WASM runtime for the whole process, started on first use. Calls
 * queue in the worker (each is synchronous there); an aborted call stops waiting at once. A
 * crashed worker fails its calls and the next call starts a fresh one. The thread does not keep
 * the process alive while idle.
 */
class WasmWorker {
  private worker: Worker | null = null;
  private next = 1;
  private readonly pending = new Map<number, { resolve(r: RunResult): void; reject(e: Error): void }>();

  run(args: string[], text: string, signal?: AbortSignal): Promise<RunResult> {
    const worker = this.start();
    const id = this.next++;
    return new Promise<RunResult>((resolve, reject) => {
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        if (this.pending.size === 0) worker.unref();
      };
      const onAbort = () => {
        done();
        reject(new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      worker.ref();
      worker.postMessage({ id, args, text });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WASM_WORKER_URL, { workerData: { moduleUrl: WASM_MODULE_URL } });
    worker.unref();
    worker.on('message', (msg: WorkerReply) => {
      const entry = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!entry) return;
      if (msg.error !== undefined) entry.reject(new Error(msg.error));
      else entry.resolve({ status: msg.status ?? 1, wav: msg.wav ?? null, stderr: msg.stderr ?? '' });
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const entry of [...this.pending.values()]) entry.reject(error);
    };
    worker.on('error', (error) => fail(new Error(`the eSpeak worker failed: ${error.message}`)));
    worker.on('exit', (code) => fail(new Error(`the eSpeak worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

let wasmWorker: WasmWorker | undefined;

// ---------------------------------------------------------------------------------------------
// Native backend

let nativeDetected: string | null | undefined;

/** Path of an `espeak-ng` binary on PATH, or null. Looked up once per process. */
export function detectNativeEspeak(): string | null {
  if (nativeDetected === undefined) nativeDetected = findExecutable('espeak-ng');
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
        wasmWorker ??= new WasmWorker();
        result = await wasmWorker.run(args, text, signal);
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
