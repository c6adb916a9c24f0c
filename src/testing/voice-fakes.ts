import type { AudioIO, AudioLevels } from '../voice-transport/audio';
import { rtvi, type RTVIMessage } from '../voice-transport/rtvi';
import {
  connectionCanceledError,
  connectionUrlFrom,
  Transport,
  TransportError,
  type BotAudio,
} from '../voice-transport/transport';

/**
 * In-memory stand-ins for the transport and the audio I/O, for stories and store tests: no socket,
 * no AudioContext, and a scripted bot that answers typed questions.
 */
export interface FakeTransportOptions {
  /** 'ready' (default): connects at once; 'never': stays connecting; { fail }: the connect fails. */
  connect?: 'ready' | 'never' | { fail: string };
  /** The bot's answer to a typed question (streamed as bot-llm-text tokens). */
  answer?: (question: string) => string;
  /** Milliseconds before the bot answers; `null`: it never answers (the page stays thinking). */
  answerDelayMs?: number | null;
  /**
   * After the text, the bot speaks (bot-started-speaking) for this many milliseconds, then stops;
   * `null`: it keeps speaking. Default 0: it starts and stops at once.
   */
  speakMs?: number | null;
  /** Server messages ({t, d}) the bot sends before each answer, e.g. assistant-fallback or open-book. */
  serverMessages?: (question: string) => { t: string; d: unknown }[];
}

export function defaultAnswer(question: string): string {
  return `You asked: "${question}". In this chapter, the narrator insists he is sane while describing the old man's eye.`;
}

export class FakeTransport extends Transport {
  readonly sent: RTVIMessage[] = [];
  readonly audio: Int16Array[] = [];
  connectParams: unknown = null;
  private pending: { reject: (error: Error) => void } | null = null;
  private readonly options: FakeTransportOptions;

  constructor(options: FakeTransportOptions = {}) {
    super();
    this.options = options;
  }

  async initialize(): Promise<void> {
    this.setState('initializing');
    this.setState('initialized');
  }

  connect(params: unknown): Promise<void> {
    try {
      connectionUrlFrom(params);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    this.connectParams = params;
    this.setState('initializing');
    this.setState('initialized');
    this.setState('connecting');
    const mode = this.options.connect ?? 'ready';
    if (mode === 'never') return new Promise((_resolve, reject) => (this.pending = { reject }));
    if (typeof mode === 'object') {
      const error = new TransportError(mode.fail);
      this.setState('error');
      this.emit('error', error);
      return Promise.reject(error);
    }
    this.setState('connected');
    this.setState('ready');
    this.emit('message', rtvi('bot-ready', { version: '2.1.0', about: { library: 'fake-bot' } }));
    return Promise.resolve();
  }

  async disconnect(): Promise<void> {
    this.stopFrames();
    this.setState('disconnecting');
    this.pending?.reject(connectionCanceledError());
    this.pending = null;
    this.setState('disconnected');
  }

  sendMessage(msg: RTVIMessage): void {
    if (this.state !== 'ready') throw new TransportError(`websocket not ready to send ${msg.type}`, { fatal: false });
    this.sent.push(msg);
    if (msg.type === 'send-text') {
      const question = String((msg.data as { content?: unknown }).content ?? '');
      const delay = this.options.answerDelayMs === undefined ? 50 : this.options.answerDelayMs;
      if (delay === null) return;
      setTimeout(() => {
        for (const message of this.options.serverMessages?.(question) ?? [])
          this.serverSends(rtvi('server-message', message));
        this.botSays((this.options.answer ?? defaultAnswer)(question));
        this.botSpeaks(this.options.speakMs === undefined ? 0 : this.options.speakMs);
      }, delay);
    }
  }

  sendAudio(pcm: Int16Array): void {
    if (this.micEnabled) this.audio.push(pcm);
  }

  async sendClientMessage(t: string, d?: unknown): Promise<unknown> {
    this.sendMessage(rtvi('client-message', { t, d }));
    return { t, d };
  }

  // --- what the "server" does, for stories and tests -------------------------------------------

  serverSends(msg: RTVIMessage): void {
    this.emit('message', msg);
  }

  /** A whole bot turn: llm started, the text in word tokens, llm stopped. */
  botSays(text: string): void {
    if (this.state !== 'ready') return;
    this.emit('message', rtvi('bot-llm-started'));
    for (const token of text.split(/(?=\s)/)) this.emit('message', rtvi('bot-llm-text', { text: token }));
    this.emit('message', rtvi('bot-llm-stopped'));
  }

  /** bot-started-speaking, then bot-stopped-speaking after `ms` (never when null). */
  botSpeaks(ms: number | null): void {
    if (this.state !== 'ready') return;
    this.emit('message', rtvi('bot-started-speaking'));
    // Bot speech in 40 ms frames (24 kHz), paced like the server's, until it stops or is cut off.
    const frame = () => this.emit('botAudio', { pcm: new Int16Array(960), sampleRate: 24000, numChannels: 1 });
    this.stopFrames();
    frame();
    const timer = setInterval(() => (this.state === 'ready' ? frame() : this.stopFrames()), 40);
    this.frames = timer;
    if (ms === null) return;
    const stop = () => {
      if (this.frames === timer) this.stopFrames();
      if (this.state !== 'ready') return;
      this.emit('message', rtvi('bot-stopped-speaking'));
      this.emit('message', rtvi('bot-tts-stopped'));
    };
    if (ms === 0) stop();
    else setTimeout(stop, ms);
  }

  userSays(text: string, final = true): void {
    this.emit(
      'message',
      rtvi('user-transcription', { text, final, user_id: 'user', timestamp: new Date().toISOString() }),
    );
  }

  botAudio(audio: BotAudio): void {
    this.emit('botAudio', audio);
  }

  interrupt(): void {
    this.stopFrames();
    this.emit('interruption');
  }

  private frames: ReturnType<typeof setInterval> | null = null;

  private stopFrames(): void {
    if (this.frames !== null) clearInterval(this.frames);
    this.frames = null;
  }

  fail(message: string): void {
    this.setState('error');
    this.emit('error', new TransportError(message));
  }
}

/** How long after its last frame the fake's audio has played out. */
const PLAYED_OUT_MS = 120;

export class FakeAudioIO implements AudioIO {
  micOn = false;
  played: Int16Array[] = [];
  stops = 0;
  closed = false;
  private onChunk: ((pcm: Int16Array) => void) | null = null;
  private readonly listeners = new Set<(levels: AudioLevels) => void>();

  constructor(private readonly micError: Error | null = null) {}

  async startMic(onChunk: (pcm: Int16Array) => void): Promise<void> {
    if (this.micError) throw this.micError;
    this.micOn = true;
    this.onChunk = onChunk;
  }

  stopMic(): void {
    this.micOn = false;
    this.onChunk = null;
  }

  private readonly playingListeners = new Set<(playing: boolean) => void>();

  /** Bot audio plays at once (a running context); `blocked` plays nothing (autoplay refused). */
  blocked = false;

  private playedOut: ReturnType<typeof setTimeout> | null = null;

  private setPlaying(playing: boolean): void {
    for (const listener of this.playingListeners) listener(playing);
  }

  play(pcm: Int16Array): void {
    this.played.push(pcm);
    if (this.blocked) return;
    this.setPlaying(true);
    // Played out shortly after the last frame, as a real queue drains.
    if (this.playedOut !== null) clearTimeout(this.playedOut);
    this.playedOut = setTimeout(() => {
      this.playedOut = null;
      this.setPlaying(false);
    }, PLAYED_OUT_MS);
  }

  stopPlayback(): void {
    this.stops += 1;
    this.played = [];
    if (this.playedOut !== null) clearTimeout(this.playedOut);
    this.playedOut = null;
    this.setPlaying(false);
  }

  onPlaying(listener: (playing: boolean) => void): () => void {
    this.playingListeners.add(listener);
    return () => this.playingListeners.delete(listener);
  }

  onLevels(listener: (levels: AudioLevels) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.stopMic();
    this.stopPlayback();
    this.closed = true;
  }

  /** Test helpers: a mic chunk, a level sample. */
  speak(pcm: Int16Array): void {
    this.onChunk?.(pcm);
  }

  emitLevels(levels: AudioLevels): void {
    for (const listener of this.listeners) listener(levels);
  }
}
