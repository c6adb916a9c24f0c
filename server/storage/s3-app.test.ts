import { startS3, S3_TEST_CREDENTIALS, type TestS3 } from '../../tests/support/s3';
import { createJob, getJob, longText, SHORT_TEXT, signIn, waitForJob } from '../testing/jobs';
import { createTestApp, type TestApp } from '../testing/app';
import { S3FileStorage } from './s3';
import { id3Length } from '../testing/readers';

// The whole app on an S3-compatible store (s3rver on loopback), configured as an operator would:
// STORAGE_URL, S3_ENDPOINT, S3_FORCE_PATH_STYLE and the SDK's credential chain (environment).

let s3: TestS3;
const opened: TestApp[] = [];

beforeAll(async () => {
  s3 = await startS3();
  vi.stubEnv('AWS_ACCESS_KEY_ID', S3_TEST_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3_TEST_CREDENTIALS.secretAccessKey);
}, 60_000);
afterAll(async () => {
  for (const t of opened) await t.close().catch(() => undefined);
  await s3?.destroy();
  vi.unstubAllEnvs();
});

async function appOn(prefix: string, extra: Record<string, string> = {}): Promise<TestApp> {
  const { AWS_ACCESS_KEY_ID: _a, AWS_SECRET_ACCESS_KEY: _s, ...env } = s3.env(prefix);
  // Each app its own database: a shared one would let one app's worker take another's jobs.
  const t = await createTestApp({
    env: { ...env, ENCODER_THREADS: '0', ...extra },
    conversion: { stepRetryDelayMs: 200 },
  });
  opened.push(t);
  return t;
}

const bucketView = (prefix: string) =>
  new S3FileStorage({
    bucket: s3.bucket,
    prefix,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
  });

async function streamingUrl(t: TestApp, headers: Record<string, string>, id: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${id}/stream`, headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as { streaming_url: string }).streaming_url;
}

describe('the app on S3 storage', () => {
  it(
    'converts a job into the bucket and streams it through the server with Range passthrough',
    { timeout: 90_000 },
    async () => {
      const t = await appOn('proxy');
      const headers = await signIn(t, 'proxy@example.com');
      const id = ((await createJob(t, headers, { title: 'Bucketed', content: SHORT_TEXT })).json() as { id: string })
        .id;
      const job = await waitForJob(t, headers, id, undefined, 60_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      const size = Number(job.result_data.file_size_bytes);
      expect(await bucketView('proxy').stat(job.output_file_key!)).toEqual({ size });

      const url = await streamingUrl(t, headers, id);
      const whole = await t.app.inject({ method: 'GET', url });
      expect(whole.statusCode).toBe(200);
      // The stored MP3 with its ID3 tag in front (server/exports/media-tags.ts).
      const tag = id3Length(whole.rawPayload);
      expect(tag).toBeGreaterThan(0);
      expect(whole.rawPayload.length).toBe(tag + size);
      const partial = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${tag}-${tag + 99}` } });
      expect(partial.statusCode).toBe(206);
      expect(partial.headers['content-range']).toBe(`bytes ${tag}-${tag + 99}/${tag + size}`);
      expect(partial.rawPayload.length).toBe(100);
      expect(whole.rawPayload.subarray(tag, tag + 100).equals(partial.rawPayload)).toBe(true);
    },
  );

  it(
    'with S3_PRESIGN=true sends players to a presigned store URL, still only through a valid signed link',
    { timeout: 90_000 },
    async () => {
      const t = await appOn('presign', { S3_PRESIGN: 'true' });
      const headers = await signIn(t, 'presign@example.com');
      const id = ((await createJob(t, headers, { title: 'Presigned', content: SHORT_TEXT })).json() as { id: string })
        .id;
      const job = await waitForJob(t, headers, id, undefined, 60_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');

      const url = await streamingUrl(t, headers, id);
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(302);
      const location = String(res.headers.location);
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/presign/`)).toBe(true);
      const ranged = await fetch(location, { headers: { range: 'bytes=0-9' } });
      expect(ranged.status).toBe(206);
      expect((await ranged.arrayBuffer()).byteLength).toBe(10);
      // The link's own signature still decides: a tampered one never reaches the store.
      const tampered = await t.app.inject({ method: 'GET', url: url.replace(/sig=[^&]+/, 'sig=AAAA') });
      expect(tampered.statusCode).toBe(403);
    },
  );

  it(
    'while the store is down: 503 for media and readiness, the running job waits and completes once it is back',
    { timeout: 180_000 },
    async () => {
      const t = await appOn('outage');
      const headers = await signIn(t, 'outage@example.com');
      const first = ((await createJob(t, headers, { title: 'Before', content: SHORT_TEXT })).json() as { id: string })
        .id;
      expect((await waitForJob(t, headers, first, undefined, 60_000)).status).toBe('COMPLETED');
      const url = await streamingUrl(t, headers, first);

      const id = ((await createJob(t, headers, { title: 'During', content: longText(30) })).json() as { id: string })
        .id;
      await s3.stop();
      try {
        const media = await t.app.inject({ method: 'GET', url });
        expect(media.statusCode).toBe(503);
        expect(media.json()).toMatchObject({
          detail: 'The file store is unavailable; try again shortly',
          request_id: expect.any(String),
        });
        const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toMatchObject({ failing: ['storage'] });
        // The job runs into the outage and is not failed for it.
        await waitForJob(
          t,
          headers,
          id,
          (j) => j.steps.some((s) => typeof s.step_metadata.last_error === 'string'),
          60_000,
        );
        expect((await getJob(t, headers, id)).status).toBe('PROCESSING');
      } finally {
        await s3.start();
      }
      const job = await waitForJob(t, headers, id, undefined, 120_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      expect(await bucketView('outage').stat(job.output_file_key!)).toEqual({
        size: Number(job.result_data.file_size_bytes),
      });
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    },
  );
});
