import { BOT_SAMPLE_RATE, LEVEL_INTERVAL_MS, MIC_CHUNK_SAMPLES, MIC_SAMPLE_RATE } from './constants';

/**
 * Audio I/O for the voice assistant, behind the AudioIO interface so the store, its tests and the
 * stories use a fake (src/testing/voice-fakes.ts) and only the browser build touches Web Audio.
 *
 * - Microphone: an AudioWorklet downsamples to 16 kHz, converts to Int16 and posts 512-sample chunks.
 * - Playback: bot PCM (24 kHz) is scheduled back to back with a small lead (jitter buffer); stop()
 *   drops everything queued at once (interruptions).
 * - Levels: local (mic) and remote (bot) RMS in 0..1, sampled every 100 ms.
 */
export interface AudioLevels {
  local: number;
  remote: number;
}

export interface AudioIO {
  /** Asks for the microphone and starts posting 16 kHz Int16 mono chunks. */
  startMic(onChunk: (pcm: Int16Array) => void): Promise<void>;
  stopMic(): void;
  /** Queues bot audio for playback. */
  play(pcm: Int16Array, sampleRate: number): void;
  /** Drops all queued and playing bot audio now. */
  stopPlayback(): void;
  onLevels(listener: (levels: AudioLevels) => void): () => void;
  /**
   * Whether bot audio is really playing (queued audio in a running context): true when the first
   * buffer starts, false when the last one ends or playback stops. A suspended context (autoplay
   * refused) plays nothing, so it never says true.
   */
  onPlaying(listener: (playing: boolean) => void): () => void;
  close(): Promise<void>;
}

// --- pure parts (unit-tested) ------------------------------------------------------------------

/**
 * A streaming box-filter downsampler: each output sample is the mean of the input samples that
 * fall in its period, so there is a little anti-aliasing and no state is lost between blocks.
 * The worklet below runs the same algorithm.
 */
export function createDownsampler(inRate: number, outRate: number): (input: Float32Array) => Float32Array {
  const ratio = inRate / outRate;
  let sum = 0;
  let count = 0;
  let position = 0;
  return (input) => {
    const out = new Float32Array(Math.ceil((input.length + position) / ratio) + 1);
    let n = 0;
    for (let i = 0; i < input.length; i++) {
      sum += input[i] ?? 0;
      count += 1;
      position += 1;
      if (position >= ratio) {
        out[n++] = sum / count;
        position -= ratio;
        sum = 0;
        count = 0;
      }
    }
    return out.subarray(0, n);
  };
}

export function floatToInt16(input: Float32Array): Int16Array {
  const out = new Int16Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const s = Math.max(-1, Math.min(1, input[i] ?? 0));
    out[i] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
  }
  return out;
}

export function int16ToFloat(input: Int16Array): Float32Array {
  const out = new Float32Array(input.length);
  for (let i = 0; i < input.length; i++) out[i] = (input[i] ?? 0) / 0x8000;
  return out;
}

/** Root mean square, 0..1, of float (-1..1) or Int16 samples. */
export function rms(samples: Float32Array | Int16Array): number {
  if (!samples.length) return 0;
  const scale = samples instanceof Int16Array ? 0x8000 : 1;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = (samples[i] ?? 0) / scale;
    sum += v * v;
  }
  return Math.min(1, Math.sqrt(sum / samples.length));
}

/** Collects samples into fixed-size chunks. */
export class Chunker {
  private buffer: Int16Array;
  private filled = 0;
  constructor(private readonly size: number = MIC_CHUNK_SAMPLES) {
    this.buffer = new Int16Array(size);
  }

  push(samples: Int16Array): Int16Array[] {
    const chunks: Int16Array[] = [];
    let offset = 0;
    while (offset < samples.length) {
      const take = Math.min(this.size - this.filled, samples.length - offset);
      this.buffer.set(samples.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.size) {
        chunks.push(this.buffer);
        this.buffer = new Int16Array(this.size);
        this.filled = 0;
      }
    }
    return chunks;
  }
}

/** Default lead between "now" and the first scheduled bot chunk (absorbs network jitter). */
export const PLAYBACK_LEAD_SECONDS = 0.08;

/**
 * Jitter-buffer timing: chunks play back to back; after an underrun (or at the start) the next
 * chunk starts `lead` seconds from now, so a late chunk never plays in the past.
 */
export class PlaybackScheduler {
  private nextTime = 0;
  constructor(private readonly lead: number = PLAYBACK_LEAD_SECONDS) {}

  /** Start time (context seconds) for a chunk of `duration` seconds arriving at `now`. */
  schedule(now: number, duration: number): number {
    const start = this.nextTime < now + 0.005 ? now + this.lead : this.nextTime;
    this.nextTime = start + duration;
    return start;
  }

  /** Seconds of audio queued after `now`. */
  buffered(now: number): number {
    return Math.max(0, this.nextTime - now);
  }

  reset(): void {
    this.nextTime = 0;
  }
}

// --- the microphone worklet ----------------------------------------------------------------------

export const MIC_PROCESSOR_NAME = 'lectio-mic-processor';

/**
 * The worklet source (a Blob URL at run time, so no extra file has to be served). `sampleRate`
 * is the worklet global with the context's rate. Same algorithm as createDownsampler/floatToInt16.
 */
export const micWorkletSource = `
class LectioMicProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const opts = (options && options.processorOptions) || {};
    this.outRate = opts.outRate || ${MIC_SAMPLE_RATE};
    this.chunkSize = opts.chunkSize || ${MIC_CHUNK_SAMPLES};
    this.ratio = sampleRate / this.outRate;
    this.sum = 0; this.count = 0; this.position = 0;
    this.chunk = new Int16Array(this.chunkSize); this.filled = 0;
  }
  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input) return true;
    for (let i = 0; i < input.length; i++) {
      this.sum += input[i]; this.count += 1; this.position += 1;
      if (this.position >= this.ratio) {
        let s = this.sum / this.count;
        this.position -= this.ratio; this.sum = 0; this.count = 0;
        s = Math.max(-1, Math.min(1, s));
        this.chunk[this.filled++] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
        if (this.filled === this.chunkSize) {
          this.port.postMessage(this.chunk, [this.chunk.buffer]);
          this.chunk = new Int16Array(this.chunkSize); this.filled = 0;
        }
      }
    }
    return true;
  }
}
registerProcessor('${MIC_PROCESSOR_NAME}', LectioMicProcessor);
`;

// --- the browser implementation ------------------------------------------------------------------

export interface BrowserAudioIOOptions {
  /** Injected for tests; default: the browser's. */
  createContext?: (options: AudioContextOptions) => AudioContext;
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  lead?: number;
}

export class BrowserAudioIO implements AudioIO {
  private readonly createContext: (options: AudioContextOptions) => AudioContext;
  private readonly getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  private readonly scheduler: PlaybackScheduler;

  private playCtx: AudioContext | null = null;
  private analyser: AnalyserNode | null = null;
  private readonly sources = new Set<AudioBufferSourceNode>();

  private micCtx: AudioContext | null = null;
  private micStream: MediaStream | null = null;
  private micNode: AudioWorkletNode | null = null;
  private localLevel = 0;
  private micGeneration = 0;

  private readonly levelListeners = new Set<(levels: AudioLevels) => void>();
  private levelTimer: ReturnType<typeof setInterval> | null = null;

  constructor(options: BrowserAudioIOOptions = {}) {
    this.createContext = options.createContext ?? ((o) => new AudioContext(o));
    this.getUserMedia = options.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c));
    this.scheduler = new PlaybackScheduler(options.lead);
  }

  async startMic(onChunk: (pcm: Int16Array) => void): Promise<void> {
    this.stopMic();
    const generation = ++this.micGeneration;
    const stream = await this.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    // stopMic() (or a newer startMic) ran while the permission prompt was open.
    if (generation !== this.micGeneration) {
      stream.getTracks().forEach((track) => track.stop());
      return;
    }
    const ctx = this.createContext({});
    this.micStream = stream;
    this.micCtx = ctx;
    const url = URL.createObjectURL(new Blob([micWorkletSource], { type: 'text/javascript' }));
    try {
      await ctx.audioWorklet.addModule(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    if (generation !== this.micGeneration) return;
    const node = new AudioWorkletNode(ctx, MIC_PROCESSOR_NAME, {
      processorOptions: { outRate: MIC_SAMPLE_RATE, chunkSize: MIC_CHUNK_SAMPLES },
    });
    node.port.onmessage = (event: MessageEvent<Int16Array>) => {
      this.localLevel = Math.max(this.localLevel * 0.5, rms(event.data));
      onChunk(event.data);
    };
    ctx.createMediaStreamSource(stream).connect(node);
    this.micNode = node;
    this.startLevels();
  }

  stopMic(): void {
    this.micGeneration += 1;
    this.micNode?.port.close();
    this.micNode?.disconnect();
    this.micStream?.getTracks().forEach((track) => track.stop());
    void this.micCtx?.close().catch(() => {});
    this.micNode = null;
    this.micStream = null;
    this.micCtx = null;
    this.localLevel = 0;
  }

  private readonly playingListeners = new Set<(playing: boolean) => void>();
  private playing = false;

  private setPlaying(): void {
    const playing = this.sources.size > 0 && this.playCtx?.state === 'running';
    if (playing === this.playing) return;
    this.playing = playing;
    for (const listener of this.playingListeners) listener(playing);
  }

  onPlaying(listener: (playing: boolean) => void): () => void {
    this.playingListeners.add(listener);
    return () => this.playingListeners.delete(listener);
  }

  play(pcm: Int16Array, sampleRate: number = BOT_SAMPLE_RATE): void {
    if (!pcm.length) return;
    const ctx = this.playbackContext();
    const buffer = ctx.createBuffer(1, pcm.length, sampleRate);
    buffer.getChannelData(0).set(int16ToFloat(pcm));
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(this.analyser!);
    source.onended = () => {
      this.sources.delete(source);
      this.setPlaying();
    };
    this.sources.add(source);
    this.setPlaying();
    source.start(this.scheduler.schedule(ctx.currentTime, buffer.duration));
    this.startLevels();
  }

  stopPlayback(): void {
    for (const source of this.sources) {
      try {
        source.stop();
      } catch {
        // Never started.
      }
      source.disconnect();
    }
    this.sources.clear();
    this.scheduler.reset();
    this.setPlaying();
  }

  onLevels(listener: (levels: AudioLevels) => void): () => void {
    this.levelListeners.add(listener);
    return () => this.levelListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.stopMic();
    this.stopPlayback();
    if (this.levelTimer) clearInterval(this.levelTimer);
    this.levelTimer = null;
    const ctx = this.playCtx;
    this.playCtx = null;
    this.analyser = null;
    await ctx?.close().catch(() => {});
  }

  private playbackContext(): AudioContext {
    if (!this.playCtx) {
      this.playCtx = this.createContext({ sampleRate: BOT_SAMPLE_RATE, latencyHint: 'interactive' });
      this.analyser = this.playCtx.createAnalyser();
      this.analyser.fftSize = 1024;
      this.analyser.connect(this.playCtx.destination);
      // A context the browser held suspended starts playing once it resumes.
      this.playCtx.onstatechange = () => this.setPlaying();
    }
    if (this.playCtx.state === 'suspended') void this.playCtx.resume();
    return this.playCtx;
  }

  private startLevels(): void {
    if (this.levelTimer) return;
    const samples = new Float32Array(1024);
    this.levelTimer = setInterval(() => {
      let remote = 0;
      if (this.analyser && this.sources.size) {
        this.analyser.getFloatTimeDomainData(samples);
        remote = rms(samples);
      }
      const levels = { local: this.micNode ? this.localLevel : 0, remote };
      this.localLevel *= 0.5;
      for (const listener of this.levelListeners) listener(levels);
    }, LEVEL_INTERVAL_MS);
  }
}
