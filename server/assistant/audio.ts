/**
 * Audio for the voice assistant: the Speex resampler (bot speech 22050 -> 24000 Hz) and the
 * WebRTC voice activity detector (client microphone, 16 kHz), both compiled to WASM.
 */
import createFvad from '@echogarden/fvad-wasm';
import createSpeex from '@echogarden/speex-resampler-wasm';

interface WasmHeap {
  HEAP16: Int16Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
}

interface SpeexModule extends WasmHeap {
  _speex_resampler_init(channels: number, inRate: number, outRate: number, quality: number, errPtr: number): number;
  _speex_resampler_process_int(
    st: number,
    channel: number,
    inPtr: number,
    inLenPtr: number,
    outPtr: number,
    outLenPtr: number,
  ): number;
  _speex_resampler_get_input_latency(st: number): number;
  _speex_resampler_skip_zeros(st: number): number;
  _speex_resampler_destroy(st: number): void;
}

interface FvadModule extends WasmHeap {
  _fvad_new(): number;
  _fvad_free(inst: number): void;
  _fvad_set_mode(inst: number, mode: number): number;
  _fvad_set_sample_rate(inst: number, rate: number): number;
  _fvad_process(inst: number, framePtr: number, length: number): number;
}

let speexModule: Promise<SpeexModule> | undefined;
let fvadModule: Promise<FvadModule> | undefined;

const loadSpeex = (): Promise<SpeexModule> => (speexModule ??= (createSpeex as () => Promise<SpeexModule>)());
const loadFvad = (): Promise<FvadModule> => (fvadModule ??= (createFvad as () => Promise<FvadModule>)());

/** Loads both WASM modules (about 10 ms), so the first request does not pay for it. */
export async function warmUpAudio(): Promise<void> {
  await Promise.all([loadSpeex(), loadFvad()]);
}

/** Quality 5: Speex's default for VoIP, cheap enough for real time on one core. */
const RESAMPLER_QUALITY = 5;

/**
 * Resamples a whole piece of mono 16-bit PCM with the Speex resampler: its filter delay is
 * skipped at the start and flushed at the end, so the output is aligned and complete
 * (length = round(input * outRate / inRate)).
 */
export async function resample(input: Int16Array, inRate: number, outRate: number): Promise<Int16Array> {
  if (inRate === outRate || input.length === 0) return input.slice();
  const m = await loadSpeex();
  const errPtr = m._malloc(4);
  const st = m._speex_resampler_init(1, inRate, outRate, RESAMPLER_QUALITY, errPtr);
  const err = m.HEAP32[errPtr >> 2] ?? 0;
  m._free(errPtr);
  if (st === 0 || err !== 0) throw new Error(`Speex resampler failed to start (error ${err})`);
  const expected = Math.round((input.length * outRate) / inRate);
  const latency = m._speex_resampler_get_input_latency(st);
  const padded = new Int16Array(input.length + latency + 2);
  padded.set(input);
  const outCapacity = Math.ceil((padded.length * outRate) / inRate) + 16;
  const inPtr = m._malloc(padded.length * 2);
  const outPtr = m._malloc(outCapacity * 2);
  const lenPtr = m._malloc(8);
  try {
    m._speex_resampler_skip_zeros(st);
    m.HEAP16.set(padded, inPtr >> 1);
    m.HEAPU32[lenPtr >> 2] = padded.length;
    m.HEAPU32[(lenPtr >> 2) + 1] = outCapacity;
    const rc = m._speex_resampler_process_int(st, 0, inPtr, lenPtr, outPtr, lenPtr + 4);
    if (rc !== 0) throw new Error(`Speex resampler failed (error ${rc})`);
    const produced = m.HEAPU32[(lenPtr >> 2) + 1] ?? 0;
    const out = new Int16Array(expected);
    out.set(m.HEAP16.subarray(outPtr >> 1, (outPtr >> 1) + Math.min(produced, expected)));
    return out;
  } finally {
    m._free(inPtr);
    m._free(outPtr);
    m._free(lenPtr);
    m._speex_resampler_destroy(st);
  }
}

export type VadEvent = 'started' | 'stopped';

export interface VadOptions {
  /** Speech this long (seconds) starts a user turn; default 0.2. */
  startSeconds?: number;
  /** Silence this long (seconds) ends it; default 0.6. */
  stopSeconds?: number;
  /** libfvad mode 0-3; default 2 ("aggressive"). */
  mode?: 0 | 1 | 2 | 3;
}

/** 20 ms analysis frames at 16 kHz. */
const VAD_RATE = 16_000;
const VAD_FRAME = 320;

/**
 * Turn detection on 16 kHz mono PCM: `push` any chunk size, get 'started' after `startSeconds`
 * of (nearly) continuous speech and 'stopped' after `stopSeconds` of silence.
 */
export class VoiceActivityDetector {
  private readonly m: FvadModule;
  private readonly inst: number;
  private readonly framePtr: number;
  private readonly pending = new Int16Array(VAD_FRAME);
  private pendingLength = 0;
  private readonly startFrames: number;
  private readonly stopFrames: number;
  private speechRun = 0;
  private silenceRun = 0;
  private closed = false;
  /** Whether the user is in a turn (between 'started' and 'stopped'). */
  speaking = false;
  /** Audio time processed, in seconds. */
  processedSeconds = 0;

  private constructor(m: FvadModule, options: VadOptions) {
    this.m = m;
    this.inst = m._fvad_new();
    if (this.inst === 0) throw new Error('WebRTC VAD failed to start');
    m._fvad_set_mode(this.inst, options.mode ?? 2);
    m._fvad_set_sample_rate(this.inst, VAD_RATE);
    this.framePtr = m._malloc(VAD_FRAME * 2);
    const frameSeconds = VAD_FRAME / VAD_RATE;
    this.startFrames = Math.max(1, Math.round((options.startSeconds ?? 0.2) / frameSeconds));
    this.stopFrames = Math.max(1, Math.round((options.stopSeconds ?? 0.6) / frameSeconds));
  }

  static async create(options: VadOptions = {}): Promise<VoiceActivityDetector> {
    return new VoiceActivityDetector(await loadFvad(), options);
  }

  /** Feeds samples; returns the turn events they caused, in order. */
  push(samples: Int16Array): VadEvent[] {
    const events: VadEvent[] = [];
    if (this.closed) return events;
    let offset = 0;
    while (offset < samples.length) {
      const take = Math.min(VAD_FRAME - this.pendingLength, samples.length - offset);
      this.pending.set(samples.subarray(offset, offset + take), this.pendingLength);
      this.pendingLength += take;
      offset += take;
      if (this.pendingLength < VAD_FRAME) break;
      this.pendingLength = 0;
      const event = this.frame(this.pending);
      if (event !== null) events.push(event);
    }
    return events;
  }

  private frame(frame: Int16Array): VadEvent | null {
    this.m.HEAP16.set(frame, this.framePtr >> 1);
    const voiced = this.m._fvad_process(this.inst, this.framePtr, VAD_FRAME) === 1;
    this.processedSeconds += VAD_FRAME / VAD_RATE;
    if (voiced) {
      this.speechRun += 1;
      this.silenceRun = 0;
    } else {
      this.silenceRun += 1;
      // A short gap inside speech does not reset the run that leads to 'started'.
      if (this.silenceRun > 3) this.speechRun = 0;
    }
    if (!this.speaking && this.speechRun >= this.startFrames) {
      this.speaking = true;
      return 'started';
    }
    if (this.speaking && this.silenceRun >= this.stopFrames) {
      this.speaking = false;
      this.speechRun = 0;
      return 'stopped';
    }
    return null;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.m._free(this.framePtr);
    this.m._fvad_free(this.inst);
  }
}
