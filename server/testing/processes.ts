import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * What Linux's /proc says about a process and everything it started: how many processes there
 * are, how many of them are zombies (ended, never waited for), the open files of the root process
 * and its resident memory. Used by the zombie tests and the soak bench; Linux only.
 */
export interface ProcessCensus {
  /** The root and all its descendants that still exist (zombies included). */
  processes: number;
  /** Descendants that ended and were never waited for by their parent. */
  zombies: number;
  /** Open file descriptors of the root process. */
  openFiles: number;
  /** Resident memory of the root process, in bytes. */
  rssBytes: number;
}

interface Stat {
  pid: number;
  /** The program's name (a zombie keeps it). */
  name: string;
  state: string;
  ppid: number;
}

function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields after it are fixed.
    const close = text.lastIndexOf(')');
    const after = text.slice(close + 2).split(' ');
    return { pid, name: text.slice(text.indexOf('(') + 1, close), state: after[0] ?? '?', ppid: Number(after[1]) };
  } catch {
    return null; // it ended while we looked
  }
}

function allStats(): Stat[] {
  const out: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat !== null) out.push(stat);
  }
  return out;
}

/** The processes below `root` (children, their children, ...). */
export function descendants(root: number): Stat[] {
  const stats = allStats();
  const byParent = new Map<number, Stat[]>();
  for (const s of stats) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const out: Stat[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of byParent.get(pid) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/**
 * Zombies among the descendants of `root`; with `names`, only those of programs whose names start
 * so (a test runner starts helpers of its own, such as esbuild, whose children are not the server's).
 */
export function zombiesBelow(root: number, names?: readonly string[]): number {
  return descendants(root).filter(
    (s) => s.state === 'Z' && (names === undefined || names.some((name) => s.name.startsWith(name))),
  ).length;
}

/** The programs the server starts: the offline voice's hosts (espeak-host-<hash>) and their compiler. */
export const SERVER_CHILD_PROGRAMS = ['espeak-host', 'cc', 'gcc'] as const;

function countOpenFiles(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        readlinkSync(`/proc/${pid}/fd/${fd}`);
        return true;
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
}

function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export function census(root: number): ProcessCensus {
  const below = descendants(root);
  const openFiles = countOpenFiles(root);
  const rssBytes = residentBytes(root);
  return {
    processes: below.length + 1,
    zombies: below.filter((s) => s.state === 'Z').length,
    openFiles,
    rssBytes,
  };
}
