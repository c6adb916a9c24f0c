/**
 * A pool of `espeak-host` processes (espeak-host.c: eSpeak-NG kept running, built by
 * espeak-host-build.ts), one per CPU, each serving one request at a time over its stdin/stdout
 * (the framing is described in espeak-host.c; one process: espeak-host-process.ts). A request
 * costs its synthesis only: eSpeak-NG starts once per host.
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
import os from 'node:os';
import { assertEncodable } from '../audio/encoder-session';
import { Host, HostFailure, type HostWord, type Reply, type Request } from './espeak-host-process';

export { HostFailure, type HostWord } from './espeak-host-process';

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
