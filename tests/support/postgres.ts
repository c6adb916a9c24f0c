import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';

/**
 * A throwaway PostgreSQL server from Debian's binaries, in a temporary directory on a free
 * loopback port: the real thing, for the DATABASE_URL and multi-worker tests. Nothing is
 * downloaded; when the binaries are missing it says what to install.
 */
export interface TestPostgres {
  url: string;
  /** The same database through its Unix-domain socket (a same-host connection without TCP). */
  socketUrl: string;
  stop: () => void;
  /** Stops the server as an operator's restart does (`pg_ctl stop -m fast`: sessions are terminated); its data stays. */
  shutDown: () => void;
  /** Starts it again on the same port with the same data. */
  startAgain: () => void;
}

function binDir(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = join(root, version, 'bin');
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  throw new Error(
    'PostgreSQL server binaries were not found (initdb). Install them: sudo apt-get install -y postgresql ' +
      '(or set PG_BIN to the directory holding initdb and pg_ctl).',
  );
}

/** initdb refuses to run as root: run the server binaries as the `postgres` user then. */
function asServerUser(command: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const run = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} failed (${run.status}): ${run.stderr || run.stdout}`);
}

/**
 * `statementStats`: load pg_stat_statements (PostgreSQL's contrib, in Debian's server package), so
 * a bench can say which statements ran how often (`CREATE EXTENSION pg_stat_statements` first).
 */
export async function startPostgres(options: { statementStats?: boolean } = {}): Promise<TestPostgres> {
  const bin = binDir();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'lectio-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  asServerUser(join(bin, 'initdb'), ['-D', data, '-U', 'lectio', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const start = () =>
    asServerUser(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100` +
        (options.statementStats === true ? ' -c shared_preload_libraries=pg_stat_statements' : ''),
    ]);
  start();
  asServerUser(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'lectio', 'lectio']);
  return {
    url: `postgres://lectio@127.0.0.1:${port}/lectio`,
    socketUrl: `postgres://lectio@localhost:${port}/lectio?host=${encodeURIComponent(dir)}`,
    shutDown: () => asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']),
    startAgain: start,
    stop: () => {
      try {
        asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
