import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { freePort } from './ports';

/**
 * A real S3-compatible server (s3rver: the S3 REST API over a directory) on a free loopback port,
 * for the object-storage adapter and the scale-out tests. stop() and start() again on the same
 * port and directory simulate an outage: the data survives it.
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  port: number;
  /** Environment for the server: STORAGE_URL, S3_* and static credentials s3rver accepts. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
  /** The server's process when it runs in one of its own (`ownProcess`). */
  pid(): number | undefined;
}

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * The same server in a Node process of its own (`ownProcess`), as a store is a service of its own:
 * for a bench whose own process is busy being thousands of clients.
 */
function s3rverProcess(options: { port: number; directory: string; bucket: string }) {
  const script = `const S3rver = require('s3rver');
    new S3rver({ port: ${options.port}, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(options.directory)},
      configureBuckets: [{ name: ${JSON.stringify(options.bucket)}, configs: [] }] }).run().then(() => console.log('ready'));`;
  let child: ChildProcess | null = null;
  return {
    async start() {
      const started = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      child = started;
      await new Promise<void>((resolve, reject) => {
        started.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
        started.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before it was ready`)));
      });
    },
    pid: () => child?.pid,
    async stop() {
      const running = child;
      child = null;
      if (running === null || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
  };
}

export async function startS3(bucket = 'lectio-test', options: { ownProcess?: boolean } = {}): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'lectio-s3-'));
  const port = await freePort();
  let server: S3rver | null = null;
  const own = options.ownProcess ? s3rverProcess({ port, directory, bucket }) : null;
  const start = async () => {
    if (own !== null) return own.start();
    server = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    await server.run();
  };
  const stop = async () => {
    if (own !== null) return own.stop();
    const s = server;
    server = null;
    if (s) await s.close();
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    port,
    env: (prefix = 'lectio') => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    }),
    stop,
    start,
    pid: () => own?.pid(),
    async destroy() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
