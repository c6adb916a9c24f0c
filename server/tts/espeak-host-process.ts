/**
 * One `espeak-host` process (espeak-host.c) of the pool in espeak-host.ts: spawned once and waited
 * for, one request at a time over its stdin/stdout, its frames read however the pipe cuts them.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { GrowingPcm } from '../audio/pcm-memory';
import { lowerPriority } from '../audio/priority';

/** The folder holding the voice data (`espeak-ng-data/`) a host binary reads: its one argument. */
export function hostDataFolder(binary: string): string {
  return `${binary}.data`;
}

/** A word event of eSpeak: position and length in code points of the text (position from 1), first sample. */
export interface HostWord {
  position: number;
  length: number;
  sample: number;
}

/** The host stopped or could not start: the request failed through no fault of its own. */
export class HostFailure extends Error {
  override readonly name = 'HostFailure';
}

/** One reply of a host: everything between a request and its 'E' frame. */
export interface Reply {
  samples: Int16Array;
  sampleCount: number;
  sampleRate: number;
  words: HostWord[];
  mp3: Buffer;
  error?: string;
}

export interface Request {
  /** 'S' speak, 'O' open a stream, 'F' finish it, 'C' close it (espeak-host.c). */
  command: 'S' | 'O' | 'F' | 'C';
  /** The stream it belongs to; 0: none (speech comes back as samples). */
  stream: number;
  voice: string;
  rate: number;
  text: string;
  kbps: number;
  /** Its place in the order requests arrived: a free host takes the oldest. */
  order: number;
  /** The caller stopped waiting: the host finishes and the result is dropped. */
  dropped: boolean;
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

type HostChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** The frame type of speech samples ('A'); the others: 'W' a word, 'X' an error, 'E' the end. */
const AUDIO_FRAME = 'A'.charCodeAt(0);

export class Host {
  readonly child: HostChild;
  request: Request | null = null;
  /** Requests of this host's streams, waiting for it. */
  readonly queue: Request[] = [];
  /** Streams open in this host. */
  streams = 0;
  dead = false;
  /** The head of the frame being read, and how much of it has arrived. */
  private readonly head = Buffer.alloc(5);
  private headFilled = 0;
  /** Payload bytes of the current frame still to come; -1 between frames. */
  private remaining = -1;
  /** The current frame's payload so far (not speech): views of the pipe's chunks. */
  private parts: Buffer[] = [];
  /**
   * The request's speech so far, copied out of each pipe chunk as it arrives, so the chunks die
   * young, into a reused block that goes back to be reused once the encoder has taken it
   * (../audio/pcm-memory.ts).
   */
  private audio = new GrowingPcm();
  private words: HostWord[] = [];
  private mp3: Buffer[] = [];
  private error: string | undefined;
  private stderr = '';
  readonly exited: Promise<void>;
  /** eSpeak's sample rate, once the host has loaded its data (its 'R' frame). */
  readonly ready: Promise<number>;
  private onReady!: (sampleRate: number) => void;

  constructor(
    binary: string,
    private readonly onIdle: (host: Host) => void,
    onExit: (host: Host) => void,
  ) {
    this.ready = new Promise<number>((resolve) => {
      this.onReady = resolve;
    });
    this.child = spawn(binary, [hostDataFolder(binary)], { stdio: ['pipe', 'pipe', 'pipe'] });
    lowerPriority(this.child.pid);
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-500);
    });
    this.child.stdin.on('error', () => undefined); // reported through 'exit'
    this.exited = new Promise<void>((resolve) => {
      let spawnError: Error | undefined;
      this.child.on('error', (error) => {
        spawnError = error;
      });
      // 'close' comes once the process is reaped and its pipes are drained.
      this.child.on('close', (code, signal) => {
        const how = spawnError
          ? `could not start (${spawnError.message})`
          : `stopped (${signal ?? `exit status ${code}`})`;
        const detail = this.error ?? this.stderr.trim().split('\n').at(-1) ?? '';
        this.fail(new HostFailure(`the eSpeak-NG host ${how}${detail ? `: ${detail}` : ''}`));
        onExit(this);
        resolve();
      });
    });
    this.hold(false);
  }

  send(request: Request): void {
    this.request = request;
    this.audio.clear();
    this.words = [];
    this.mp3 = [];
    this.error = undefined;
    this.hold(true);
    const head = Buffer.alloc(5);
    head.write(request.command, 0, 'latin1');
    head.writeUInt32LE(request.stream, 1);
    if (request.command === 'O') {
      const kbps = Buffer.alloc(4);
      kbps.writeUInt32LE(request.kbps);
      this.child.stdin.write(Buffer.concat([head, kbps]));
      return;
    }
    if (request.command !== 'S') {
      this.child.stdin.write(head);
      return;
    }
    const voice = Buffer.from(request.voice, 'utf8');
    const text = Buffer.from(request.text, 'utf8');
    const voiceLength = Buffer.alloc(4);
    voiceLength.writeUInt32LE(voice.length);
    const middle = Buffer.alloc(8);
    middle.writeUInt32LE(request.rate, 0);
    middle.writeUInt32LE(text.length, 4);
    this.child.stdin.write(Buffer.concat([head, voiceLength, voice, middle, text]));
  }

  /** Kills the host; `wait` keeps the server alive until it is reaped (a shutdown awaiting it). */
  kill(wait: boolean): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (wait) this.hold(true);
    this.child.kill('SIGKILL');
  }

  private fail(error: Error): void {
    this.dead = true;
    const request = this.request;
    this.request = null;
    if (request && !request.dropped) request.reject(error);
    // Its streams' encoders died with it: what waits for them fails too.
    for (const waiting of this.queue.splice(0)) if (!waiting.dropped) waiting.reject(error);
  }

  /** Keeps the server alive (`true`) while a request is in the host, or lets it exit (`false`). */
  hold(on: boolean): void {
    const handles = [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as unknown as {
      ref?: () => void;
      unref?: () => void;
    }[];
    for (const handle of handles) {
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  }

  /**
   * Reads the host's frames as they arrive, without copying the audio: an 'A' frame's samples stay
   * views of the pipe's own chunks (a frame may span chunks) until the request ends and they are
   * joined once into its samples. (Copying every chunk, then every frame, made three copies of all
   * the speech, and the garbage collector ran after each few MB of it.)
   */
  private receive(chunk: Buffer): void {
    let at = 0;
    // A frame ends when its last byte has arrived, even at the chunk's end (or with no payload).
    while (at < chunk.length || this.remaining === 0) {
      if (this.remaining < 0) {
        // Between frames: the 5-byte head (type, then the payload's length), perhaps split.
        const take = Math.min(5 - this.headFilled, chunk.length - at);
        chunk.copy(this.head, this.headFilled, at, at + take);
        this.headFilled += take;
        at += take;
        if (this.headFilled < 5) return;
        this.headFilled = 0;
        this.remaining = this.head.readUInt32LE(1);
        this.parts = [];
      }
      const take = Math.min(this.remaining, chunk.length - at);
      const speech = this.head[0] === AUDIO_FRAME;
      if (take > 0) {
        if (speech) this.audio.append(chunk.subarray(at, at + take));
        else this.parts.push(chunk.subarray(at, at + take));
      }
      at += take;
      this.remaining -= take;
      if (this.remaining === 0) {
        this.remaining = -1;
        if (!speech)
          this.frame(
            String.fromCharCode(this.head[0]!),
            this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts),
          );
        this.parts = [];
      }
    }
  }

  private frame(type: string, payload: Buffer): void {
    if (type === 'W') {
      this.words.push({
        position: payload.readUInt32LE(0),
        length: payload.readUInt32LE(4),
        sample: payload.readUInt32LE(8),
      });
    } else if (type === 'M') this.mp3.push(payload);
    else if (type === 'R') this.onReady(payload.readUInt32LE(0));
    else if (type === 'X') this.error = payload.toString('utf8');
    else if (type === 'E') {
      const request = this.request;
      this.request = null;
      const samples = this.audio.take();
      const reply: Reply = {
        samples,
        sampleRate: payload.readUInt32LE(0),
        sampleCount: payload.readUInt32LE(4),
        words: this.words,
        mp3: this.mp3.length === 1 ? this.mp3[0]! : Buffer.concat(this.mp3),
      };
      if (this.error !== undefined) reply.error = this.error;
      this.words = [];
      this.mp3 = [];
      this.hold(false);
      if (request && !request.dropped) request.resolve(reply);
      this.onIdle(this);
    }
  }
}
