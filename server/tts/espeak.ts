/**
 * Offline engine: eSpeak-NG.
 *
 * Two backends, chosen once per engine:
 * - native: an `espeak-ng` binary on PATH (or `nativeBinary`), run per call as
 *   `espeak-ng --stdout -b 1 -v VOICE -s RATE` with the text on stdin; the WAV comes on stdout.
 *   Calls go through a small long-lived shell (launcher.ts), so the server never forks itself
 *   per call, and several calls may run at once (one per core).
 * - wasm: the npm `espeak-ng` package (Emscripten build of the CLI, voice data embedded in the
 *   18 MB .wasm), in a pool of worker threads, one per CPU (espeak-pool.ts, espeak-worker.mjs).
 *   The build only exposes the CLI's `main()`. Each thread instantiates it once with
 *   `noInitialRun`, snapshots its linear memory, and runs the CLI's line-by-line mode: `main()`
 *   with the voice and rate and no text reads stdin one line per call, and stdin is a device of
 *   ours that hands eSpeak the next request's text when it asks for more, which is also the moment
 *   the request before is fully spoken (espeak-wasm.ts `serve`). So a request costs its synthesis
 *   only; the memory snapshot is restored only when a thread changes voice or rate. A request is
 *   one line: line breaks become spaces, and at most 332 characters fit (fgets reads 1,000 bytes).
 */
import { EspeakWasmPool } from './espeak-pool';
import { MAX_LINE_BYTES } from './espeak-wasm';
import { findExecutable } from '../executables';
import { TtsError, type EncodedSpeechStream, type Speech, type TtsEngine } from './types';
import { getLauncher } from './launcher';
import { espeakHostBinary } from './espeak-host-build';
import { EspeakHostPool, HostFailure, HostSpeechError } from './espeak-host';
import { hostWordTimings } from './espeak-words';
import { parseWav, pcm16leToSamples } from './wav';

/** One call's outcome: a WAV file (native), or samples and their rate (WebAssembly). */
interface RunResult {
  status: number;
  wav: Uint8Array | null;
  pcm?: Uint8Array;
  sampleRate?: number;
  stderr: string;
}

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
// WASM backend: a pool of worker threads (espeak-pool.ts), so synthesis never holds the event loop

let wasmPool: EspeakWasmPool | undefined;

/** The process's eSpeak WebAssembly threads (one per CPU), started as synthesis needs them. */
export function getEspeakWasmPool(): EspeakWasmPool {
  wasmPool ??= new EspeakWasmPool();
  return wasmPool;
}

/** Ends the eSpeak WebAssembly threads (the server's shutdown); they start again if used. */
export async function closeEspeakWasmPool(): Promise<void> {
  await wasmPool?.close();
}

async function runWasm(args: string[], text: string, signal?: AbortSignal): Promise<RunResult> {
  const r = await getEspeakWasmPool().say(args, text, signal);
  if (r.pcm === null) return { status: r.status, wav: null, stderr: r.stderr };
  return { status: 0, wav: null, pcm: r.pcm, sampleRate: r.sampleRate, stderr: '' };
}

// ---------------------------------------------------------------------------------------------
// Native backend

let nativeDetected: string | null | undefined;

/** Path of an `espeak-ng` binary in the directories of `searchPath` (default PATH, looked up once per process), or null. */
export function detectNativeEspeak(searchPath?: string): string | null {
  if (searchPath !== undefined) return findExecutable('espeak-ng', searchPath);
  if (nativeDetected === undefined) nativeDetected = findExecutable('espeak-ng');
  return nativeDetected;
}

/** Runs the native binary through the shared launcher (no fork of the server per call). */
async function runNative(binary: string, args: string[], text: string, signal?: AbortSignal): Promise<RunResult> {
  const out = await getLauncher().run(binary, ['--stdout', ...args], text, signal);
  return { status: out.status, wav: out.stdout.length > 0 ? out.stdout : null, stderr: out.stderr };
}

// The native backend's kept-running hosts (espeak-host.ts), when one could be built: a request
// then costs its synthesis only, and its words come timed.
let hostPool: Promise<EspeakHostPool | null> | undefined;
/** The hosts were built with LAME: they encode MP3 themselves (espeak-host.c). */
let hostsEncode = false;
let hostsDisabled = false;
let hostsWanted = true;
/**
 * The pool started last: killed if the process exits without closing it (its hosts would exit
 * anyway once their stdin closes).
 */
let runningPool: EspeakHostPool | null = null;

/**
 * Whether the native backend keeps eSpeak-NG running (ESPEAK_KEEP_RUNNING, default yes) or starts
 * `espeak-ng` per request. Returns the pending build when hosts are wanted, so the caller can say
 * why there are none.
 */
export function keepNativeEspeakRunning(on: boolean): ReturnType<typeof espeakHostBinary> | null {
  hostsWanted = on;
  return on ? espeakHostBinary() : null;
}

function getHostPool(): Promise<EspeakHostPool | null> {
  if (hostsDisabled || !hostsWanted) return Promise.resolve(null);
  hostPool ??= espeakHostBinary().then((build) => {
    if (build.binary === null) return null;
    hostsEncode = build.encodes;
    const pool = new EspeakHostPool(build.binary);
    if (runningPool === null) process.once('exit', () => runningPool?.killAll());
    runningPool = pool;
    return pool;
  });
  return hostPool;
}

/** Ends the native eSpeak-NG hosts and waits for them (the server's shutdown); they start again if used. */
export async function closeEspeakHosts(): Promise<void> {
  const pending = hostPool;
  hostPool = undefined;
  await (await pending)?.close();
}

/** Process ids of the running native eSpeak-NG hosts (none before the first request or without a host). */
export async function espeakHostPids(): Promise<number[]> {
  return (await hostPool)?.pids ?? [];
}

/** A host's failure as the engine's: eSpeak's own error, the host stopping (retryable), an abort. */
function hostError(e: unknown, voice: string, signal?: AbortSignal): TtsError {
  if (signal?.aborted) return abortedError(signal);
  if (e instanceof HostSpeechError) {
    const noVoice = /voice does not exist/i.test(e.message);
    return new TtsError(noVoice ? `eSpeak-NG has no voice "${voice}"` : `eSpeak-NG failed: ${e.message}`, {
      retryable: false,
      code: noVoice ? 'invalid_input' : 'engine',
      engine: 'espeak-ng',
    });
  }
  return new TtsError(`eSpeak-NG failed: ${(e as Error).message}`, {
    retryable: e instanceof HostFailure,
    code: 'engine',
    engine: 'espeak-ng',
    cause: e,
  });
}

/** Speaks through a host; null when there is none (or it cannot start): the caller runs `espeak-ng`. */
async function speakHosted(voice: string, rate: number, text: string, signal?: AbortSignal): Promise<Speech | null> {
  const pool = await getHostPool();
  if (pool === null) return null;
  let out;
  try {
    out = await pool.say(voice, rate, text, signal);
  } catch (e) {
    if (!signal?.aborted && pool.startFailed) {
      // The binary cannot run here (removed, or a folder mounted noexec): one process per request.
      hostsDisabled = true;
      return null;
    }
    throw hostError(e, voice, signal);
  }
  if (out.error !== undefined) throw hostError(new HostSpeechError(out.error), voice);
  const words = hostWordTimings(text, out.words, out.samples.length, out.sampleRate);
  return { samples: out.samples, sampleRate: out.sampleRate, words };
}

/**
 * An MP3 stream encoded in a host (one built with LAME), speaking `voice` at `rate`; null when
 * there is no such host, so the caller encodes PCM itself. Requests are checked as `synthesize`'s.
 */
async function hostedStream(
  voice: string,
  rate: number,
  kbpsFor: (sampleRate: number) => number,
  check: (text: string) => void,
  signal?: AbortSignal,
): Promise<EncodedSpeechStream | null> {
  const pool = await getHostPool();
  if (pool === null || !hostsEncode) return null;
  let stream;
  try {
    stream = await pool.openStream(kbpsFor, signal);
  } catch (e) {
    if (!signal?.aborted && pool.startFailed) {
      hostsDisabled = true;
      return null;
    }
    // The host refused a stream (all its streams in use): this run encodes PCM as without LAME.
    if (!signal?.aborted && e instanceof HostSpeechError) return null;
    throw hostError(e, voice, signal);
  }
  return {
    sampleRate: stream.sampleRate,
    async speak(text, speakSignal) {
      if (speakSignal?.aborted) throw abortedError(speakSignal);
      check(text);
      try {
        const out = await stream.speak(voice, rate, text, speakSignal);
        const words = hostWordTimings(text, out.words, out.samples, out.sampleRate);
        return { mp3: out.mp3, samples: out.samples, sampleRate: out.sampleRate, words };
      } catch (e) {
        throw hostError(e, voice, speakSignal);
      }
    },
    async finish() {
      try {
        return await stream.finish();
      } catch (e) {
        throw hostError(e, voice);
      }
    },
    close: () => stream.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// Engine

export interface EspeakOptions {
  /** 'auto' (default): native when an espeak-ng binary is on PATH, else WASM. */
  backend?: 'auto' | EspeakBackend;
  /** Explicit native binary (implies backend 'native' unless backend is 'wasm'). */
  nativeBinary?: string;
  /** Directories to look for `espeak-ng` in, PATH-style (default: PATH). */
  searchPath?: string;
  /** Speaking rate in words per minute (eSpeak default 175). */
  rate?: number;
  /**
   * Max characters per call (default 300: a few sentences). Each call has a fixed cost of ~40 ms
   * (restoring the WASM memory snapshot), so one call per sentence would make synthesis, not MP3
   * encoding, the bottleneck; a few sentences per call keep timings within a few seconds.
   */
  maxCharsPerRequest?: number;
  /**
   * Native backend: speak through kept-running `espeak-host` processes when one can be built
   * (default: yes, unless `nativeBinary` names the binary to run); otherwise `espeak-ng` per request.
   */
  nativeHost?: boolean;
  /**
   * Native backend with hosts built with LAME: offer MP3 streams the hosts encode themselves
   * (`openEncodedStream`; default yes). Off, the hosts return PCM and the caller encodes it.
   */
  encodeInHost?: boolean;
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
  // A WebAssembly call is one line of eSpeak's line mode: at most 3 UTF-8 bytes per UTF-16 unit.
  if (!(maxChars >= 1 && maxChars * 3 <= MAX_LINE_BYTES)) {
    throw new RangeError(`eSpeak maxCharsPerRequest ${maxChars} is outside 1-${Math.floor(MAX_LINE_BYTES / 3)}`);
  }
  let nativeBinary: string | null = null;
  if (options.backend !== 'wasm') {
    nativeBinary = options.nativeBinary ?? detectNativeEspeak(options.searchPath);
    if (options.backend === 'native' && !nativeBinary) {
      throw new Error(
        'eSpeak-NG engine "native" requested but no espeak-ng binary is on PATH (install the espeak-ng package)',
      );
    }
  }
  const backend: EspeakBackend = nativeBinary ? 'native' : 'wasm';
  const hosted = backend === 'native' && (options.nativeHost ?? options.nativeBinary === undefined);

  /** Throws the engine's error for a text no request may carry. */
  function checkText(text: string): void {
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
  }

  async function synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech> {
    if (signal?.aborted) throw abortedError(signal);
    checkText(text);
    const voice = resolveVoice(voiceId);
    if (hosted) {
      const speech = await speakHosted(voice, rate, text, signal);
      if (speech !== null) return speech;
    }
    const args = ['-b', '1', '-v', voice, '-s', String(rate)];
    let result: RunResult;
    try {
      result = nativeBinary ? await runNative(nativeBinary, args, text, signal) : await runWasm(args, text, signal);
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
    if (result.pcm !== undefined && result.sampleRate !== undefined) {
      return { samples: pcm16leToSamples(result.pcm), sampleRate: result.sampleRate };
    }
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

  async function openEncodedStream(
    voiceId: string,
    kbpsFor: (sampleRate: number) => number,
    signal?: AbortSignal,
  ): Promise<EncodedSpeechStream | null> {
    if (!hosted || options.encodeInHost === false) return null;
    return hostedStream(resolveVoice(voiceId), rate, kbpsFor, checkText, signal);
  }

  // Two requests of each text at once keep its voice busy while the one before is handed on.
  return { name: 'espeak-ng', maxCharsPerRequest: maxChars, concurrency: 2, backend, synthesize, openEncodedStream };
}

let sharedEngine: EspeakEngine | undefined;
let sharedBackend: 'auto' | EspeakBackend = 'auto';

/**
 * Chooses the process's offline engine (ESPEAK_ENGINE): 'auto', 'native' or 'wasm'. Throws when
 * 'native' is asked for and no espeak-ng binary is on PATH, so a server started so says why.
 */
export function useOfflineBackend(choice: 'auto' | EspeakBackend, searchPath = process.env.PATH ?? ''): EspeakEngine {
  if (sharedEngine === undefined || sharedBackend !== choice || choice !== 'wasm') {
    sharedEngine = createEspeakEngine({ backend: choice, searchPath });
    sharedBackend = choice;
  }
  return sharedEngine;
}

/** The process-wide offline engine (the backend `useOfflineBackend` chose, else 'auto'). */
export function getOfflineEngine(): EspeakEngine {
  sharedEngine ??= createEspeakEngine({ backend: sharedBackend });
  return sharedEngine;
}
