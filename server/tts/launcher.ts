/**
 * Runs short-lived programs (the native espeak-ng, one per few sentences) through a small
 * long-lived `/bin/sh` instead of `child_process.spawn` from the server.
 *
 * Why: Node forks the whole server process to start a child. The server maps hundreds of MB
 * (the embedded database, WebAssembly memories), so each fork copies large page tables, and the
 * profile of a conversion showed `ChildProcess.spawn` as the main thread's top cost (tens of ms
 * per sentence group, blocking the event loop). The shell is a few MB: its forks are cheap, and
 * the server's event loop only writes one command line and reads one file per call.
 *
 * Protocol: per call the text goes to `<dir>/<n>.in`; the shell runs
 * `( prog args < n.in > n.out 2> n.err & echo "start n $!"; wait $!; echo "done n $?" ) & echo "bg n $!"`.
 * Once both the subshell's "done" and the shell's "bg" line are in, the server writes
 * `wait <subshell>; echo "reaped n"`: the shell (dash, like most) reaps a background child only
 * when it is waited for, so without it every call would leave a zombie `sh` behind and a long
 * conversion would exhaust the machine's process ids. The call answers after "reaped", then the
 * server reads `n.out` / `n.err`. Arguments are single-quoted.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { lowerPriority } from '../audio/lame-native';

export interface LaunchResult {
  status: number;
  stdout: Uint8Array;
  stderr: string;
}

/** One call, from its command line until the shell has waited for its subshell. */
interface Call {
  /** The program's process id ("start" line). */
  pid?: number;
  /** The subshell's process id ("bg" line): the long-lived shell waits for it once it is done. */
  subshell?: number;
  /** The program's exit status ("done" line). */
  status?: number;
  /** The caller stopped waiting (aborted); the call is still reaped. */
  settled: boolean;
  resolve(status: number): void;
  reject(error: Error): void;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

export class Launcher {
  private shell: ChildProcessByStdio<Writable, Readable, null> | null = null;
  private dir: string | null = null;
  private next = 1;
  private readonly calls = new Map<number, Call>();
  private buffered = '';

  /** Runs `program args` with `input` on stdin; resolves with its exit status, stdout and stderr. */
  async run(program: string, args: string[], input: string, signal?: AbortSignal): Promise<LaunchResult> {
    const { shell, dir } = this.start();
    const n = this.next++;
    const file = (ext: string) => path.join(dir, `${n}.${ext}`);
    await writeFile(file('in'), input);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const call: Call = { settled: false, resolve, reject };
        const onAbort = () => {
          if (call.pid !== undefined) this.kill(call.pid);
          call.reject(new Error('aborted'));
        };
        const done = () => signal?.removeEventListener('abort', onAbort);
        call.resolve = (s) => {
          if (call.settled) return;
          call.settled = true;
          done();
          resolve(s);
        };
        call.reject = (e) => {
          if (call.settled) return;
          call.settled = true;
          done();
          reject(e);
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        if (this.calls.size === 0) this.hold(shell, true);
        this.calls.set(n, call);
        const command = [program, ...args].map(quote).join(' ');
        // The subshell waits for the program; the long-lived shell waits for the subshell once it
        // said "done" (see `reap`), so no process is ever left unwaited for (a zombie).
        shell.stdin.write(
          `( ${command} < ${quote(file('in'))} > ${quote(file('out'))} 2> ${quote(file('err'))} & echo "start ${n} $!"; wait $!; echo "done ${n} $?" ) & echo "bg ${n} $!"\n`,
        );
      });
      const [stdout, stderr] = await Promise.all([readFile(file('out')), readFile(file('err'), 'utf8')]);
      return { status, stdout: new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length), stderr };
    } finally {
      await Promise.all(['in', 'out', 'err'].map((ext) => rm(file(ext), { force: true })));
    }
  }

  /** Calls started and not yet waited for by the shell (aborted ones included). */
  get outstanding(): number {
    return this.calls.size;
  }

  /** The shell's process id while it runs. */
  get shellPid(): number | null {
    return this.shell?.pid ?? null;
  }

  /** The folder of the calls' files while the shell runs. */
  get directory(): string | null {
    return this.dir;
  }

  /** Ends the shell and removes its folder (calls still running fail). */
  close(): void {
    this.shell?.kill('SIGKILL');
    this.shell = null;
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
    for (const call of this.calls.values()) call.reject(new Error('The program launcher was closed'));
    this.calls.clear();
  }

  /** Keeps the process alive (`true`) while calls wait for the shell, or lets it exit (`false`). */
  private hold(shell: ChildProcessByStdio<Writable, Readable, null>, on: boolean): void {
    for (const handle of [shell, shell.stdin, shell.stdout] as unknown as { ref?: () => void; unref?: () => void }[]) {
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  }

  private kill(pid: number): void {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }

  private start(): { shell: ChildProcessByStdio<Writable, Readable, null>; dir: string } {
    if (this.shell !== null && this.dir !== null) return { shell: this.shell, dir: this.dir };
    const dir = mkdtempSync(path.join(tmpdir(), 'lectio-launch-'));
    const shell = spawn('/bin/sh', ['-s'], { stdio: ['pipe', 'pipe', 'ignore'] });
    // Synthesis is batch work like encoding: the programs inherit the shell's lower priority.
    lowerPriority(shell.pid);
    shell.stdout.setEncoding('utf8');
    shell.stdout.on('data', (text: string) => {
      this.buffered += text;
      let newline: number;
      while ((newline = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, newline);
        this.buffered = this.buffered.slice(newline + 1);
        const [kind, id, value] = line.split(' ');
        const n = Number(id);
        const call = this.calls.get(n);
        if (!call) continue;
        if (kind === 'start') {
          call.pid = Number(value);
          if (call.settled) this.kill(call.pid); // aborted before its process id was known
        } else if (kind === 'bg') call.subshell = Number(value);
        else if (kind === 'done') call.status = Number(value);
        else if (kind === 'reaped') {
          this.calls.delete(n);
          if (this.calls.size === 0 && this.shell === shell) this.hold(shell, false);
          call.resolve(call.status ?? 1);
          continue;
        }
        // "bg" (from the shell) and "done" (from the subshell) come in either order.
        if ((kind === 'bg' || kind === 'done') && call.subshell !== undefined && call.status !== undefined) {
          shell.stdin.write(`wait ${call.subshell}; echo "reaped ${n}"\n`);
        }
      }
    });
    shell.stdin.on('error', () => undefined); // reported through 'exit'
    // The shell removes the folder when it ends, also when this process dies without cleaning up
    // (its stdin closes, so the shell exits).
    shell.stdin.write(`trap ${quote(`rm -rf ${quote(dir)}`)} EXIT\n`);
    const fail = (why: string) => {
      if (this.shell !== shell) return;
      this.shell = null;
      this.buffered = '';
      for (const call of this.calls.values()) call.reject(new Error(why));
      this.calls.clear();
      rmSync(dir, { recursive: true, force: true });
      if (this.dir === dir) this.dir = null;
    };
    shell.on('error', (error) => fail(`cannot start /bin/sh: ${error.message}`));
    shell.on('exit', (code, sig) => fail(`the program launcher shell exited (${sig ?? code})`));
    // While idle, the shell must not keep the process alive; it goes when the process goes.
    this.hold(shell, false);
    this.shell = shell;
    this.dir = dir;
    return { shell, dir };
  }
}

let shared: Launcher | undefined;

/** The process-wide launcher (its shell starts on first use and is killed when the process exits). */
export function getLauncher(): Launcher {
  if (shared === undefined) {
    const launcher = new Launcher();
    shared = launcher;
    process.once('exit', () => launcher.close());
  }
  return shared;
}
