import { setPriority } from 'node:os';

/**
 * Batch priority (nice 10) for an audio child process (the eSpeak-NG hosts, their compiler,
 * ffmpeg): when the cores are busy the server's own thread, which answers the API, goes first.
 * Not permitted, or the child gone already: it keeps normal priority.
 */
export function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, 10);
  } catch {
    /* normal priority */
  }
}
