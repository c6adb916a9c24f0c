/**
 * A connection's microphone audio: checked (16 kHz mono 16-bit PCM), run through voice activity
 * detection, and cut into utterances, each handed on when the listener stops speaking.
 */
import { MIC_SAMPLE_RATE, pcmFromBytes } from '../../proto/audio';
import { VoiceActivityDetector } from './audio';

/** Longest utterance kept for speech-to-text (seconds). */
const MAX_UTTERANCE_SECONDS = 30;

export interface MicrophoneEvents {
  /** The listener started speaking (the bot stops: barge-in). */
  started(): void;
  /** The listener stopped speaking: what they said, at MIC_SAMPLE_RATE. */
  stopped(utterance: Int16Array): void;
  /** Audio the client should not have sent. */
  error(message: string): void;
}

export class Microphone {
  private vad: VoiceActivityDetector | null = null;
  private vadLoading: Promise<VoiceActivityDetector> | null = null;
  private pendingPcm: Int16Array[] = [];
  private utterance: Int16Array[] = [];
  private utteranceSamples = 0;
  private lastAudioError = 0;
  private closed = false;

  constructor(private readonly events: MicrophoneEvents) {}

  /** One audio frame from the client. */
  hear(bytes: Uint8Array, sampleRate: number, numChannels: number): void {
    if (sampleRate !== MIC_SAMPLE_RATE || numChannels !== 1) {
      const now = Date.now();
      // One error a second at most: a misconfigured client sends ~30 frames a second.
      if (now - this.lastAudioError >= 1000) {
        this.lastAudioError = now;
        const got = numChannels === 1 ? `${sampleRate} Hz` : `${sampleRate} Hz, ${numChannels} channels`;
        this.events.error(`Audio must be 16000 Hz mono 16-bit PCM (got ${got})`);
      }
      return;
    }
    if (bytes.byteLength % 2 !== 0) {
      this.events.error('Malformed frame: 16-bit PCM audio must have an even number of bytes');
      return;
    }
    const pcm = pcmFromBytes(bytes).slice();
    if (this.vad !== null) {
      this.onPcm(pcm);
      return;
    }
    // The detector loads once (a few ms); audio arriving meanwhile is queued in order.
    this.pendingPcm.push(pcm);
    this.vadLoading ??= VoiceActivityDetector.create().then((vad) => {
      if (this.closed) {
        vad.close();
        return vad;
      }
      this.vad = vad;
      const queued = this.pendingPcm;
      this.pendingPcm = [];
      for (const chunk of queued) this.onPcm(chunk);
      return vad;
    });
  }

  close(): void {
    this.closed = true;
    this.vad?.close();
  }

  private onPcm(pcm: Int16Array): void {
    const vad = this.vad;
    if (vad === null || this.closed) return;
    const wasSpeaking = vad.speaking;
    const events = vad.push(pcm);
    if (wasSpeaking || events.includes('started')) this.keep(pcm);
    for (const event of events) {
      if (event === 'started') this.events.started();
      else this.events.stopped(this.takeUtterance());
    }
  }

  private keep(pcm: Int16Array): void {
    if (this.utteranceSamples >= MAX_UTTERANCE_SECONDS * MIC_SAMPLE_RATE) return;
    this.utterance.push(pcm);
    this.utteranceSamples += pcm.length;
  }

  private takeUtterance(): Int16Array {
    const out = new Int16Array(this.utteranceSamples);
    let offset = 0;
    for (const chunk of this.utterance) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    this.utterance = [];
    this.utteranceSamples = 0;
    return out;
  }
}
