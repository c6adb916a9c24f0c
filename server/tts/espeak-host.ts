/**
 * A pool of `espeak-host` processes (espeak-host.c: eSpeak-NG kept running, built by
 * espeak-host-build.ts), one per CPU, each serving one request at a time over its stdin/stdout
 * (the framing is described in espeak-host.c). A request costs its synthesis only, where
 * `espeak-ng` per request spent about as much CPU again starting up.
 *
 * - Every host is a child of the server, spawned once and waited for: its 'exit' event is Node
 *   reaping it. A host that exits mid-request fails that request (a retryable TtsError) and
 *   is replaced by the next request that needs one.
 * - An aborted request is answered at once; its host finishes the request (a few hundred
 *   characters, tens of milliseconds) and its output is discarded, so no process is killed or
 *   left behind for an abort.
 * - Idle hosts do not keep the server alive; `close()` (the server's shutdown) ends them and
 *   waits for them, and they exit on their own when their stdin closes (the server died).
 * - Hosts run at the batch priority of the other audio children (`lowerPriority`).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { lowerPriority } from '../audio/lame-native';
import { GrowingPcm } from '../audio/pcm-memory';
import type { WordTiming } from './types';

/** A word event of eSpeak: position and length in code points of the text (position from 1), first sample. */
export interface HostWord {
  position: number;
  length: number;
  sample: number;
}

export interface HostSpeech {
  samples: Int16Array;
  sampleRate: number;
  words: HostWord[];
  /** eSpeak's own error ("voice does not exist"), when the request failed. */
  error?: string;
}

/** The host stopped or could not start: the request failed through no fault of its own. */
export class HostFailure extends Error {
  override readonly name = 'HostFailure';
}

interface Request {
  voice: string;
  rate: number;
  text: string;
  /** The caller stopped waiting: the host finishes and the result is dropped. */
  dropped: boolean;
  resolve(speech: HostSpeech): void;
  reject(error: Error): void;
}

type HostChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** The frame type of speech samples ('A'); the others: 'W' a word, 'X' an error, 'E' the end. */
const AUDIO_FRAME = 'A'.charCodeAt(0);

class Host {
  readonly child: HostChild;
  request: Request | null = null;
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
  private error: string | undefined;
  private stderr = '';
  readonly exited: Promise<void>;

  constructor(
    binary: string,
    private readonly onIdle: (host: Host) => void,
    onExit: (host: Host) => void,
  ) {
    this.child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
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
    this.error = undefined;
    this.hold(true);
    const voice = Buffer.from(request.voice, 'utf8');
    const text = Buffer.from(request.text, 'utf8');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(voice.length);
    const middle = Buffer.alloc(8);
    middle.writeUInt32LE(request.rate, 0);
    middle.writeUInt32LE(text.length, 4);
    this.child.stdin.write(Buffer.concat([head, voice, middle, text]));
  }

  /** Kills the host; `wait` keeps the server alive until it is reaped (a shutdown awaiting it). */
  kill(wait: boolean): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (wait) this.hold(true);
    this.child.kill('SIGKILL');
  }

  private fail(error: Error): void {
    const request = this.request;
    this.request = null;
    if (request && !request.dropped) request.reject(error);
  }

  /** Keeps the server alive (`true`) while a request is in the host, or lets it exit (`false`). */
  private hold(on: boolean): void {
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
    } else if (type === 'X') this.error = payload.toString('utf8');
    else if (type === 'E') {
      const request = this.request;
      this.request = null;
      const sampleRate = payload.readUInt32LE(0);
      const speech: HostSpeech = { samples: this.audio.take(), sampleRate, words: this.words };
      if (this.error !== undefined) speech.error = this.error;
      this.words = [];
      this.hold(false);
      if (request && !request.dropped) request.resolve(speech);
      this.onIdle(this);
    }
  }
}

export class EspeakHostPool {
  private readonly hosts = new Set<Host>();
  private idle: Host[] = [];
  private waiting: Request[] = [];
  private closed = false;
  /** Set when a host could not be started at all (e.g. the binary is gone). */
  startFailed = false;

  constructor(
    private readonly binary: string,
    private readonly size = os.availableParallelism(),
  ) {}

  /** Speaks `text` (UTF-8) with eSpeak voice `voice` at `rate` words per minute. */
  say(voice: string, rate: number, text: string, signal?: AbortSignal): Promise<HostSpeech> {
    if (this.closed) return Promise.reject(new HostFailure('the eSpeak-NG hosts were closed'));
    return new Promise<HostSpeech>((resolve, reject) => {
      const onAbort = () => {
        request.dropped = true;
        this.waiting = this.waiting.filter((r) => r !== request);
        reject(new Error('aborted'));
      };
      const request: Request = {
        voice,
        rate,
        text,
        dropped: false,
        resolve: (speech) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(speech);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(request);
      this.dispatch();
    });
  }

  /** Process ids of the running hosts. */
  get pids(): number[] {
    return [...this.hosts].map((h) => h.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Ends every host and waits for them; requests still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const request of this.waiting) request.reject(new HostFailure('the eSpeak-NG hosts were closed'));
    this.waiting = [];
    const hosts = [...this.hosts];
    for (const host of hosts) host.kill(true);
    await Promise.all(hosts.map((h) => h.exited));
  }

  /** Kills every host at once, without waiting (the process is exiting). */
  killAll(): void {
    for (const host of this.hosts) host.kill(false);
  }

  private dispatch(): void {
    while (this.waiting.length > 0 && !this.closed) {
      let host = this.idle.pop();
      if (host === undefined) {
        if (this.hosts.size >= this.size) return;
        host = this.start();
      }
      host.send(this.waiting.shift()!);
    }
  }

  private start(): Host {
    const host = new Host(
      this.binary,
      (h) => {
        if (this.hosts.has(h)) this.idle.push(h);
        this.dispatch();
      },
      (h) => {
        this.hosts.delete(h);
        this.idle = this.idle.filter((x) => x !== h);
        if (h.child.pid === undefined) this.startFailed = true;
        // A replacement starts for the requests still waiting (not after a failed start).
        if (!this.startFailed) this.dispatch();
        else
          for (const request of this.waiting.splice(0))
            request.reject(new HostFailure('the eSpeak-NG host could not start'));
      },
    );
    this.hosts.add(host);
    return host;
  }
}

/**
 * eSpeak's word events as word timings of `text`: eSpeak counts code points from 1, Lectio's
 * offsets are UTF-16 units from 0. Each event is snapped to the word (a whitespace-separated token
 * with a letter, digit or symbol, punctuation around it left out) it falls in. eSpeak sometimes
 * names one word several times ("$5.50": five, dollars, fifty) or points back into a word already
 * spoken, and skips a word said as part of a phrase of its dictionary ("déjà vu"): a word with no
 * event of its own shares the time of the word before it by length, so every word of the text is
 * there, in order. Times only increase; a word ends where the next begins, the last with the audio.
 */
export function hostWordTimings(
  text: string,
  words: readonly HostWord[],
  samples: number,
  sampleRate: number,
): WordTiming[] {
  const utf16At: number[] = [];
  let offset = 0;
  for (const ch of text) {
    utf16At.push(offset);
    offset += ch.length;
  }
  utf16At.push(offset);
  const tokens: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    if (!/[\p{L}\p{N}\p{S}]/u.test(m[0])) continue; // a dash, an ellipsis: nothing is said
    const inner = /^[\p{P}\p{S}]*(.*?)[\p{P}\p{S}]*$/su.exec(m[0])![1]!;
    const start = m.index + (inner.length > 0 ? m[0].indexOf(inner) : 0);
    tokens.push({ start, end: inner.length > 0 ? start + inner.length : m.index + m[0].length });
  }
  // Where each timed word starts: its first event.
  const starts: { token: number; sample: number }[] = [];
  let t = 0;
  for (const w of words) {
    const at = utf16At[Math.min(Math.max(w.position - 1, 0), utf16At.length - 1)]!;
    while (t < tokens.length && tokens[t]!.end <= at) t++;
    if (t >= tokens.length) break;
    const last = starts.at(-1);
    if (last !== undefined && last.token >= t) continue;
    starts.push({ token: t, sample: Math.min(samples, Math.max(w.sample, last?.sample ?? 0)) });
  }
  if (starts.length === 0) return [];
  if (starts[0]!.token > 0) starts.unshift({ token: 0, sample: 0 });
  const timed: WordTiming[] = [];
  for (const [i, s] of starts.entries()) {
    const group = tokens.slice(s.token, starts[i + 1]?.token ?? tokens.length);
    const until = starts[i + 1]?.sample ?? samples;
    const chars = group.reduce((n, g) => n + g.end - g.start, 0);
    let at = s.sample;
    for (const g of group) {
      const next = at + ((until - s.sample) * (g.end - g.start)) / chars;
      timed.push({ start: at / sampleRate, end: next / sampleRate, charStart: g.start, charEnd: g.end });
      at = next;
    }
  }
  return timed;
}
