/**
 * What the crowd bench reads about the machine and its parts while it runs: CPU seconds of process
 * trees (/proc), the load, latency percentiles, PostgreSQL's tables (rows, bytes, sequential and
 * index scans) and the object store's contents, and a figure from an API's /metrics.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { ListObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import type pg from 'pg';
import { S3_TEST_CREDENTIALS, type TestS3 } from '../tests/support/s3';
import { processTree } from './process-tree';

const TICKS_PER_SECOND = 100;

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** CPU seconds (user + system) the processes have used so far, from /proc. */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU seconds of a process tree whose children come and go (PostgreSQL's backends, with the
 * pools): each process's from when it is first sampled to when it is last seen; sample() every
 * second or so.
 */
export function cpuOfChangingTree(root: number): { sample(): void; seconds(): number } {
  const seen = new Map<number, { first: number; last: number }>();
  const sample = () => {
    for (const pid of processTree(root)) {
      const used = cpuSeconds([pid]);
      const known = seen.get(pid);
      if (known === undefined) seen.set(pid, { first: used, last: used });
      else known.last = Math.max(known.last, used);
    }
  };
  sample();
  return {
    sample,
    seconds() {
      sample();
      return [...seen.values()].reduce((sum, s) => sum + s.last - s.first, 0);
    },
  };
}

/** The parent of a process, from /proc (PostgreSQL's postmaster from one of its backends). */
export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

export interface TableStats {
  rows: number;
  bytes: number;
}

/** Rows and bytes of every table of the app and of pg-boss. */
export async function tableStats(db: pg.Client): Promise<Map<string, TableStats>> {
  const { rows } = await db.query<{ name: string; bytes: string }>(
    `SELECT s.schemaname || '.' || s.relname AS name, pg_total_relation_size(s.relid)::bigint AS bytes
       FROM pg_stat_user_tables s`,
  );
  const stats = new Map<string, TableStats>();
  for (const row of rows) {
    const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${row.name}`);
    stats.set(row.name, { rows: count.rows[0]!.n, bytes: Number(row.bytes) });
  }
  return stats;
}

export interface ScanStats {
  seqScans: number;
  seqRows: number;
}

/** Sequential scans of every table so far (PostgreSQL's statistics, which lag by up to a second). */
export async function scanStats(db: pg.Client): Promise<Map<string, ScanStats>> {
  const { rows } = await db.query<{ name: string; seq: string; seq_rows: string }>(
    `SELECT schemaname || '.' || relname AS name, seq_scan::bigint AS seq, seq_tup_read::bigint AS seq_rows
       FROM pg_stat_user_tables`,
  );
  return new Map(rows.map((r) => [r.name, { seqScans: Number(r.seq), seqRows: Number(r.seq_rows) }]));
}

/** Tables read by sequential scans between two readings, most rows read first. */
export function sequentialScans(before: Map<string, ScanStats>, after: Map<string, ScanStats>): string {
  const lines = [...after]
    .map(([name, a]) => {
      const b = before.get(name);
      return { name, scans: a.seqScans - (b?.seqScans ?? 0), rows: a.seqRows - (b?.seqRows ?? 0) };
    })
    .filter((s) => s.rows > 0)
    .sort((x, y) => y.rows - x.rows)
    .slice(0, 4);
  return lines.length === 0 ? 'none' : lines.map((s) => `${s.name} ${s.scans} scans reading ${s.rows} rows`).join(', ');
}

export async function storeBytes(s3: TestS3): Promise<{ objects: number; bytes: number }> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
  });
  let objects = 0;
  let bytes = 0;
  // Listed by marker (the first list API): s3rver fails on version 2's continuation tokens.
  let marker: string | undefined;
  try {
    for (;;) {
      const page = await client.send(new ListObjectsCommand({ Bucket: s3.bucket, Marker: marker }));
      const contents = page.Contents ?? [];
      for (const o of contents) {
        objects += 1;
        bytes += o.Size ?? 0;
      }
      if (!page.IsTruncated || contents.length === 0) break;
      marker = contents[contents.length - 1]!.Key;
    }
  } finally {
    client.destroy();
  }
  return { objects, bytes };
}

export async function dbBytes(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ b: string }>('SELECT pg_database_size(current_database())::bigint AS b');
  return Number(rows[0]!.b);
}

/** One figure of an API's /metrics (Prometheus text), NaN when it is not there. */
export async function metric(apiUrl: string, token: string, name: string): Promise<number> {
  const res = await fetch(`${apiUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const match = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(await res.text());
  return match ? Number(match[1]) : NaN;
}

/** The statements run most often since pg_stat_statements was reset: calls, time in the database, rows, the statement's start. */
export async function statements(db: pg.Client, top = 6): Promise<string> {
  const { rows } = await db.query<{ calls: string; ms: number; rows: string; text: string }>(
    `SELECT calls::bigint AS calls, total_exec_time AS ms, rows::bigint AS rows,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS text
       FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat%' ORDER BY calls DESC LIMIT $1`,
    [top],
  );
  return rows.map((r) => `    ${r.calls} calls, ${fmt(r.ms, 0)} ms, ${r.rows} rows: ${r.text}`).join('\n');
}

/** What the listeners saw: saves and range reads, all and once every listener had started, and saves by period. */
export function latencyReport(
  seen: {
    listeners: number;
    saves: number[];
    reads: number[];
    steadySaves: number[];
    steadyReads: number[];
    /** Saves by the save period they started in: how the start-up burst drains. */
    byWindow: number[][];
    errors: Map<string, number>;
  },
  periodMs: number,
): string {
  for (const list of [seen.saves, seen.reads, seen.steadySaves, seen.steadyReads, ...seen.byWindow])
    list.sort((a, b) => a - b);
  const p = (list: number[]) => `p50 ${fmt(percentile(list, 50))} ms p99 ${fmt(percentile(list, 99))} ms`;
  const errorText = seen.errors.size === 0 ? '0 errors' : [...seen.errors].map(([k, n]) => `${n} ${k}`).join(', ');
  return [
    `listeners ${seen.listeners}: ${seen.saves.length} saves ${p(seen.saves)} (target < 50); ` +
      `${seen.reads.length} 64 KB range reads ${p(seen.reads)} (target < 100); ${errorText}`,
    `  once all have started (from ${(2 * periodMs) / 1000} s on): saves ${p(seen.steadySaves)}; range reads ${p(seen.steadyReads)}`,
    `  saves' p99 by ${periodMs / 1000} s period: ${seen.byWindow.map((w) => fmt(percentile(w, 99), 0)).join(', ')} ms`,
  ].join('\n');
}
