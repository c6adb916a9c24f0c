/**
 * Bot speech output: text is synthesized sentence by sentence (the first sentence's audio goes
 * out as soon as it exists), resampled to 24 kHz and sent in 40 ms frames paced at real time.
 * Frames are scheduled by absolute time (t0 + n x 40 ms), so timer jitter never accumulates.
 */
import { splitIntoChunks } from '../tts/chunking';
import { BOT_SAMPLE_RATE } from '../../proto/audio';
import { OUTPUT_FRAME_MS, OUTPUT_FRAME_SAMPLES, encodeAudio } from './protocol';

/** Speech for one sentence, already at BOT_SAMPLE_RATE. */
export type Synthesizer = (text: string, signal: AbortSignal) => Promise<Int16Array>;

export interface SpeakerSink {
  /** Sends one encoded frame. */
  send(frame: Uint8Array): void;
  /** Sends one RTVI message. */
  message(type: string, data?: unknown): void;
}

export type SpeakOutcome = 'done' | 'interrupted';

/** Sentences of at most 300 characters that contain something to say. */
export function speakableSentences(text: string): string[] {
  return splitIntoChunks(text, 300)
    .flatMap((chunk) => chunk.sentences.map((s) => text.slice(s.start, s.end)))
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class Speaker {
  private current: { controller: AbortController; wake: () => void } | null = null;
  /** Whether bot audio is going out (between bot-started-speaking and bot-stopped-speaking). */
  speaking = false;
  /** Frames sent since creation (for tests and metrics). */
  framesSent = 0;

  constructor(
    private readonly sink: SpeakerSink,
    private readonly synthesize: Synthesizer,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  get busy(): boolean {
    return this.current !== null;
  }

  /**
   * Speaks `text`: bot-tts-started, then per sentence bot-tts-text + bot-output as its audio
   * starts, bot-started-speaking before the first frame, bot-stopped-speaking when the last one
   * has played, then bot-tts-stopped. Resolves 'interrupted' when interrupt() cut it short.
   */
  async say(text: string, onFirstAudio?: () => void): Promise<SpeakOutcome> {
    this.interrupt();
    const sentences = speakableSentences(text);
    if (sentences.length === 0) return 'done';
    const controller = new AbortController();
    const { signal } = controller;
    let wake: () => void = () => undefined;
    this.current = { controller, wake: () => wake() };

    // Synthesis runs ahead of playback, one sentence after another.
    const audio = sentences.map(() => deferred<Int16Array>());
    void (async () => {
      for (const [i, sentence] of sentences.entries()) {
        if (signal.aborted) return;
        try {
          audio[i]!.resolve(await this.synthesize(sentence, signal));
        } catch (error) {
          audio[i]!.reject(error);
          return;
        }
      }
    })();

    const sleepUntil = (target: number) =>
      new Promise<void>((resolve) => {
        const delay = target - this.clock();
        if (delay <= 0 || signal.aborted) return resolve();
        const timer = setTimeout(done, delay);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        wake = done;
      });

    this.sink.message('bot-tts-started');
    let t0 = -1;
    let sent = 0;
    try {
      for (const [i, sentence] of sentences.entries()) {
        const pcm = await Promise.race([
          audio[i]!.promise,
          new Promise<null>((r) => signal.addEventListener('abort', () => r(null))),
        ]);
        if (pcm === null || signal.aborted) return 'interrupted';
        if (t0 < 0) {
          t0 = this.clock();
          this.speaking = true;
          this.sink.message('bot-started-speaking');
          onFirstAudio?.();
        } else if (this.clock() > t0 + sent * OUTPUT_FRAME_MS) {
          // Synthesis fell behind playback: re-anchor instead of bursting to catch up.
          t0 = this.clock() - sent * OUTPUT_FRAME_MS;
        }
        this.sink.message('bot-tts-text', { text: sentence });
        this.sink.message('bot-output', { text: sentence, aggregated_by: 'sentence', will_be_spoken: true });
        for (let offset = 0; offset < pcm.length; offset += OUTPUT_FRAME_SAMPLES) {
          await sleepUntil(t0 + sent * OUTPUT_FRAME_MS);
          if (signal.aborted) return 'interrupted';
          let frame = pcm.subarray(offset, offset + OUTPUT_FRAME_SAMPLES);
          if (frame.length < OUTPUT_FRAME_SAMPLES) {
            const padded = new Int16Array(OUTPUT_FRAME_SAMPLES);
            padded.set(frame);
            frame = padded;
          }
          this.sink.send(encodeAudio(frame, BOT_SAMPLE_RATE));
          sent += 1;
          this.framesSent += 1;
        }
      }
      // The last frame is still playing on the client.
      await sleepUntil(t0 + sent * OUTPUT_FRAME_MS);
      if (signal.aborted) return 'interrupted';
      if (this.speaking) this.sink.message('bot-stopped-speaking');
      this.speaking = false;
      this.sink.message('bot-tts-stopped');
      return 'done';
    } finally {
      controller.abort();
      if (this.current?.controller === controller) this.current = null;
    }
  }

  /**
   * Stops the current speech at once (no further frame is sent). Returns whether audio was going
   * out; the caller tells the client (bot-interrupted, bot-stopped-speaking).
   */
  interrupt(): boolean {
    const current = this.current;
    if (current === null) return false;
    this.current = null;
    const wasSpeaking = this.speaking;
    this.speaking = false;
    current.controller.abort();
    current.wake();
    return wasSpeaking;
  }
}
