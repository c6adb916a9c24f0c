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
}

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export async function startS3(bucket = 'lectio-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'lectio-s3-'));
  const port = await freePort();
  let server: S3rver | null = null;
  const start = async () => {
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
    async destroy() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
