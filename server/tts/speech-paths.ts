/**
 * The offline voice's two ways to speak and encode, one chosen when the process starts
 * (`chooseSpeechPath`, ESPEAK_ENGINE) and handed to the engine (espeak.ts) as an object:
 *
 * - native: eSpeak-NG kept running in a few `espeak-host` processes (espeak-host.c, one per CPU),
 *   built with the machine's C compiler against eSpeak-NG 1.52 and libmp3lame (espeak-host-build.ts),
 *   which also encode the MP3 themselves, so only MP3 comes back for a conversion.
 * - portable: eSpeak-NG compiled to WebAssembly in worker threads (espeak-pool.ts), its PCM
 *   encoded by LAME compiled to WebAssembly in the encoder threads (../audio/encoder-pool.ts).
 *   Needs nothing but Node.
 *
 * Both run the same eSpeak-NG (1.52) on the same voice data, so a text sounds the same sample for
 * sample on either path, and both give eSpeak's own word events, turned into word timings by the
 * same code (espeak-words.ts).
 */
import { EspeakHostPool, HostFailure, HostSpeechError, type HostWord } from './espeak-host';
import { espeakHostBinary, type EspeakHostBuild } from './espeak-host-build';
import { EspeakWasmPool } from './espeak-pool';
import { asLine } from './espeak-wasm';
import { TtsError } from './types';
import { pcm16leToSamples } from './wav';

export type SpeechPathName = 'native' | 'portable';
/** ESPEAK_ENGINE: 'auto' is native where it can be built, else portable. */
export type SpeechPathChoice = 'auto' | SpeechPathName;

/** One request's speech: samples, their rate, and eSpeak's word events. */
export interface PathSpeech {
  samples: Int16Array;
  sampleRate: number;
  words: HostWord[];
}

/** One request's speech encoded into a stream: its MP3 bytes, how many samples, eSpeak's word events. */
export interface PathEncoded {
  mp3: Uint8Array;
  samples: number;
  sampleRate: number;
  words: HostWord[];
}

/** An MP3 stream the path encodes where the speech is made (the native path). */
export interface PathStream {
  readonly sampleRate: number;
  speak(voice: string, rate: number, text: string, signal?: AbortSignal): Promise<PathEncoded>;
  finish(): Promise<Uint8Array>;
  close(): void;
}

export interface SpeechPath {
  readonly name: SpeechPathName;
  /** What encodes the offline voice's MP3 on this path (job metadata, logs). */
  readonly encoder: string;
  /** Speaks one request; eSpeak's failures come as the engine's TtsErrors. */
  say(voice: string, rate: number, text: string, signal?: AbortSignal): Promise<PathSpeech>;
  /** The native path: an MP3 stream encoded in a host (constant bitrate `kbpsFor(sample rate)`). */
  openStream?(kbpsFor: (sampleRate: number) => number, signal?: AbortSignal): Promise<PathStream>;
  /** Process ids of the native hosts running (none on the portable path). */
  pids(): number[];
  /** Ends the hosts or threads and waits for them (the server's shutdown). */
  close(): Promise<void>;
}

export function abortedError(signal: AbortSignal): TtsError {
  return new TtsError('Speech synthesis was cancelled', {
    retryable: false,
    code: 'aborted',
    engine: 'espeak-ng',
    cause: signal.reason,
  });
}

/** eSpeak's own complaint as the engine's error: an unknown voice is the caller's mistake. */
function speechError(message: string, voice: string): TtsError {
  const noVoice = /voice does not exist/i.test(message);
  return new TtsError(noVoice ? `eSpeak-NG has no voice "${voice}"` : `eSpeak-NG failed: ${message}`, {
    retryable: false,
    code: noVoice ? 'invalid_input' : 'engine',
    engine: 'espeak-ng',
  });
}

/** A host's failure as the engine's: eSpeak's own error, the host stopping (retryable), an abort. */
function hostError(e: unknown, voice: string, signal?: AbortSignal): TtsError {
  if (signal?.aborted) return abortedError(signal);
  if (e instanceof TtsError) return e;
  if (e instanceof HostSpeechError) return speechError(e.message, voice);
  return new TtsError(`eSpeak-NG failed: ${(e as Error).message}`, {
    retryable: e instanceof HostFailure,
    code: 'engine',
    engine: 'espeak-ng',
    cause: e,
  });
}

/** The native path over `binary` (an `espeak-host` built with LAME). Texts are spoken as lines (`asLine`). */
export function nativeSpeechPath(binary: string, hosts?: number): SpeechPath {
  const pool = new EspeakHostPool(binary, hosts);
  const onExit = () => pool.killAll();
  // Hosts exit once their stdin closes; this only spares them the wait when the process exits.
  process.once('exit', onExit);
  return {
    name: 'native',
    encoder: 'LAME (libmp3lame) in the eSpeak-NG host',
    async say(voice, rate, text, signal) {
      let out;
      try {
        out = await pool.say(voice, rate, asLine(text), signal);
      } catch (e) {
        throw hostError(e, voice, signal);
      }
      if (out.error !== undefined) throw speechError(out.error, voice);
      return { samples: out.samples, sampleRate: out.sampleRate, words: out.words };
    },
    async openStream(kbpsFor, signal) {
      let stream;
      try {
        stream = await pool.openStream(kbpsFor, signal);
      } catch (e) {
        throw hostError(e, 'the stream', signal);
      }
      return {
        sampleRate: stream.sampleRate,
        async speak(voice, rate, text, speakSignal) {
          if (speakSignal?.aborted) throw abortedError(speakSignal);
          try {
            return await stream.speak(voice, rate, asLine(text), speakSignal);
          } catch (e) {
            throw hostError(e, voice, speakSignal);
          }
        },
        async finish() {
          try {
            return await stream.finish();
          } catch (e) {
            throw hostError(e, 'the stream');
          }
        },
        close: () => stream.close(),
      };
    },
    pids: () => pool.pids,
    async close() {
      process.removeListener('exit', onExit);
      await pool.close();
    },
  };
}

/** The portable path: eSpeak-NG WebAssembly in `threads` worker threads (default one per CPU). */
export function portableSpeechPath(threads?: number): SpeechPath {
  const pool = new EspeakWasmPool(threads);
  return {
    name: 'portable',
    encoder: 'LAME WebAssembly, worker threads',
    async say(voice, rate, text, signal) {
      let r;
      try {
        r = await pool.say(['-b', '1', '-v', voice, '-s', String(rate)], text, signal);
      } catch (e) {
        if (signal?.aborted) throw abortedError(signal);
        throw new TtsError(`eSpeak-NG failed: ${e instanceof Error ? e.message : String(e)}`, {
          retryable: false,
          code: 'engine',
          engine: 'espeak-ng',
          cause: e,
        });
      }
      if (signal?.aborted) throw abortedError(signal);
      if (r.pcm === null) {
        const detail = r.stderr
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l && !l.includes('keepRuntimeAlive'))
          .join(' ');
        throw speechError(detail || `exit status ${r.status}`, voice);
      }
      return { samples: pcm16leToSamples(r.pcm), sampleRate: r.sampleRate, words: r.words };
    },
    pids: () => [],
    close: () => pool.close(),
  };
}

/**
 * Chooses the offline voice's path once, at start: 'native' builds (or finds built) the host with
 * LAME and fails saying why when it cannot; 'portable' never tries; 'auto' is native when the host
 * builds, else portable, and `onFallback` hears why not.
 */
export async function chooseSpeechPath(
  choice: SpeechPathChoice,
  onFallback: (reason: string) => void = () => undefined,
  buildHost: () => Promise<EspeakHostBuild> = () => espeakHostBinary(),
): Promise<SpeechPath> {
  if (choice === 'portable') return portableSpeechPath();
  const build = await buildHost();
  if (build.binary !== null) return nativeSpeechPath(build.binary);
  if (choice === 'native') {
    throw new Error(`ESPEAK_ENGINE=native, but the native speech path cannot run here: ${build.reason}`);
  }
  onFallback(build.reason);
  return portableSpeechPath();
}
