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
 * - A host built with LAME also encodes: `openStream` opens an MP3 stream in one host, and that
 *   stream's speech is encoded where it is made, only its MP3 coming back (`HostStream`). A
 *   stream's requests go to its host, one after another; a free host takes the oldest request,
 *   its own or any other, so a conversion's streams never starve a preview or the assistant.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { lowerPriority } from '../audio/lame-native';
import { assertEncodable } from '../audio/encoder-session';
import { GrowingPcm } from '../audio/pcm-memory';

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

/** What a host returns for speech encoded into one of its streams. */
export interface HostEncoded {
  /** The MP3 bytes the stream produced for this speech (LAME holds back a frame or two). */
  mp3: Buffer;
  /** Samples spoken, at `sampleRate`. */
  samples: number;
  sampleRate: number;
  words: HostWord[];
}

/** The host stopped or could not start: the request failed through no fault of its own. */
export class HostFailure extends Error {
  override readonly name = 'HostFailure';
}

/** One reply of a host: everything between a request and its 'E' frame. */
interface Reply {
  samples: Int16Array;
  sampleCount: number;
  sampleRate: number;
  words: HostWord[];
  mp3: Buffer;
  error?: string;
}

interface Request {
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

class Host {
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

/**
 * An MP3 stream encoded inside one host (built with LAME): speech spoken into it comes back as
 * its MP3 bytes, in order; `finish` returns the last frames. Its requests all go to that host.
 */
export class HostStream {
  constructor(
    private readonly pool: EspeakHostPool,
    private readonly host: Host,
    readonly id: number,
    readonly sampleRate: number,
  ) {}

  /** Speaks `text` into the stream; rejects with eSpeak's error, or HostFailure if the host died. */
  async speak(voice: string, rate: number, text: string, signal?: AbortSignal): Promise<HostEncoded> {
    const reply = await this.pool.enqueue({ command: 'S', stream: this.id, voice, rate, text }, this.host, signal);
    if (reply.error !== undefined) throw new HostSpeechError(reply.error);
    return { mp3: reply.mp3, samples: reply.sampleCount, sampleRate: reply.sampleRate, words: reply.words };
  }

  /** Ends the stream: its last MP3 bytes. */
  async finish(): Promise<Buffer> {
    const reply = await this.pool.enqueue({ command: 'F', stream: this.id }, this.host);
    this.host.streams -= 1;
    if (reply.error !== undefined) throw new HostSpeechError(reply.error);
    return reply.mp3;
  }

  /** Drops the stream (a conversion given up); the host frees its encoder. */
  close(): void {
    this.host.streams -= 1;
    this.pool.enqueue({ command: 'C', stream: this.id }, this.host).catch(() => undefined);
  }
}

/** eSpeak-NG's or LAME's own error for one request ("voice does not exist"). */
export class HostSpeechError extends Error {
  override readonly name = 'HostSpeechError';
}

export class EspeakHostPool {
  private readonly hosts = new Set<Host>();
  /** Requests any host may serve, oldest first. */
  private waiting: Request[] = [];
  private closed = false;
  private order = 0;
  private nextStream = 1;
  /** Set when a host could not be started at all (e.g. the binary is gone). */
  startFailed = false;

  constructor(
    private readonly binary: string,
    private readonly size = os.availableParallelism(),
  ) {}

  /** Speaks `text` (UTF-8) with eSpeak voice `voice` at `rate` words per minute. */
  async say(voice: string, rate: number, text: string, signal?: AbortSignal): Promise<HostSpeech> {
    const reply = await this.enqueue({ command: 'S', stream: 0, voice, rate, text }, null, signal);
    const speech: HostSpeech = { samples: reply.samples, sampleRate: reply.sampleRate, words: reply.words };
    if (reply.error !== undefined) speech.error = reply.error;
    return speech;
  }

  /**
   * Opens an MP3 stream (constant bitrate `kbpsFor(eSpeak's rate)`, mono at that rate) in the host
   * with the fewest open streams, starting one while fewer than `size` run. Rejects when the host
   * does not encode.
   */
  async openStream(kbpsFor: (sampleRate: number) => number, signal?: AbortSignal): Promise<HostStream> {
    if (this.closed) throw new HostFailure('the eSpeak-NG hosts were closed');
    let host: Host | undefined;
    for (const h of this.hosts) if (!h.dead && (host === undefined || h.streams < host.streams)) host = h;
    if (host === undefined || (host.streams > 0 && this.hosts.size < this.size)) host = this.start();
    const id = this.nextStream++;
    host.streams += 1;
    let reply: Reply;
    try {
      // The bitrate suits eSpeak's rate, which the host says once it has started (held meanwhile,
      // as for a request).
      host.hold(true);
      const sampleRate = await Promise.race([host.ready, host.exited.then(() => 0)]);
      if (host.request === null) host.hold(false);
      if (sampleRate === 0) throw new HostFailure('the eSpeak-NG host stopped before it was ready');
      const kbps = kbpsFor(sampleRate);
      assertEncodable(sampleRate, kbps); // LAME itself would round an unknown bitrate silently
      reply = await this.enqueue({ command: 'O', stream: id, kbps }, host, signal);
    } catch (error) {
      host.streams -= 1;
      // Given up while its host may be opening it: closed there too, so no encoder is left behind.
      if (signal?.aborted) this.enqueue({ command: 'C', stream: id }, host).catch(() => undefined);
      throw error;
    }
    if (reply.error !== undefined) {
      host.streams -= 1;
      throw new HostSpeechError(reply.error);
    }
    return new HostStream(this, host, id, reply.sampleRate);
  }

  /** Queues a request for `host` (one of its streams) or for any host (null); settles with its reply. */
  enqueue(
    fields: Partial<Pick<Request, 'voice' | 'rate' | 'text' | 'kbps'>> & Pick<Request, 'command' | 'stream'>,
    host: Host | null,
    signal?: AbortSignal,
  ): Promise<Reply> {
    if (this.closed) return Promise.reject(new HostFailure('the eSpeak-NG hosts were closed'));
    if (host?.dead) return Promise.reject(new HostFailure('the eSpeak-NG host of this stream stopped'));
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = () => {
        request.dropped = true;
        const queue = host?.queue ?? this.waiting;
        const at = queue.indexOf(request);
        if (at >= 0) queue.splice(at, 1);
        reject(new Error('aborted'));
      };
      const request: Request = {
        voice: '',
        rate: 0,
        text: '',
        kbps: 0,
        ...fields,
        order: this.order++,
        dropped: false,
        resolve: (reply) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      (host?.queue ?? this.waiting).push(request);
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

  /** Each free host takes the oldest request it may serve: its streams' or anyone's. */
  private dispatch(): void {
    if (this.closed) return;
    for (const host of this.hosts) {
      if (host.request !== null || host.dead) continue;
      const own = host.queue[0];
      const shared = this.waiting[0];
      if (own !== undefined && (shared === undefined || own.order < shared.order)) host.send(host.queue.shift()!);
      else if (shared !== undefined) host.send(this.waiting.shift()!);
    }
    while (this.waiting.length > 0 && this.hosts.size < this.size) this.start().send(this.waiting.shift()!);
  }

  private start(): Host {
    const host = new Host(
      this.binary,
      () => this.dispatch(),
      (h) => {
        this.hosts.delete(h);
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
