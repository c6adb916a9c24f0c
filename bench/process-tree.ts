/**
 * Resident memory of a process and of every process below it, read from Linux's /proc: what the
 * memory benches print. A sampler polls the tree's summed RSS (children come and go: the eSpeak-NG
 * hosts, the npm wrapper's node) and keeps its peak; each process's own peak is its VmHWM.
 *
 * Summed RSS counts a page shared by several processes once per process: the node binary's code
 * (some 30 MB) is in npm's, the start script's and the server's RSS alike, though the machine holds
 * it once. So the sampler also sums PSS (proportional set size, /proc/<pid>/smaps_rollup: each
 * shared page divided among the processes that map it), which adds up to what the tree really
 * occupies. The benches print both.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

function statusField(pid: number, field: string): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
  } catch {
    return 0; // the process has just ended
  }
}

/** The pids of a process's children (every thread's), or none once it has ended. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text !== '') out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // ended
  }
  return out;
}

/** The pid and every process below it. */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i += 1) all.push(...childrenOf(all[i]!));
  return all;
}

/** Current PSS of one process (its private pages plus its share of the shared ones), MB. */
export function pssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Pss:'));
    return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
  } catch {
    return 0; // the process has just ended
  }
}

/** Current RSS of one process, MB. */
export const rssMb = (pid: number): number => statusField(pid, 'VmRSS');
/** Peak RSS of one process so far (VmHWM), MB. */
export const peakRssMb = (pid: number): number => statusField(pid, 'VmHWM');

/**
 * Starts a new peak: Linux resets a process's VmHWM to its current RSS when "5" is written to its
 * clear_refs, so the next peakRssMb is the peak from now on (what one step of its life took).
 */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export interface TreeSampler {
  /** Highest summed RSS of the tree seen so far, MB. */
  peakMb(): number;
  /** Highest summed PSS of the tree seen so far (shared pages counted once), MB. */
  peakPssMb(): number;
  stop(): void;
}

/** Samples the summed RSS and PSS of `pid`'s tree every `intervalMs` until stopped. */
export function sampleTree(pid: number, intervalMs = 50): TreeSampler {
  let peak = 0;
  let peakPss = 0;
  const tick = () => {
    const pids = processTree(pid);
    const sum = pids.reduce((n, p) => n + rssMb(p), 0);
    if (sum > peak) peak = sum;
    const pss = pids.reduce((n, p) => n + pssMb(p), 0);
    if (pss > peakPss) peakPss = pss;
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    peakMb: () => {
      tick();
      return peak;
    },
    peakPssMb: () => {
      tick();
      return peakPss;
    },
    stop: () => clearInterval(timer),
  };
}
