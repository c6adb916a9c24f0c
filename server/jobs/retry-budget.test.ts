import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_BUDGET } from '../retry-policy';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, longText, signIn, waitForJob } from '../testing/jobs';

/**
 * One retry policy with one budget: a voice that keeps failing is tried RETRY_BUDGET.attempts
 * times for the step, not once per layer multiplied (the voice client's retries times the step's
 * times the queue's), and the job fails with the last cause.
 */
let t: TestApp;
let server: http.Server;
let requests = 0;

beforeAll(async () => {
  // A voice provider that is down: every speech request answers 500 (the edge we do not own, over HTTP).
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.includes('/audio/speech')) requests += 1;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'The voice server had an error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  t = await createTestApp({
    env: { ENCODER_THREADS: '0', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: base },
    // The budget's waits made short; its attempts are the production ones.
    conversion: { stepRetryDelayMs: 5, voices: { retry: { baseDelayMs: 5, maxDelayMs: 20 } } },
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('a failing voice', () => {
  it('is tried as often as the step budget allows, once in all, and the job fails with the last cause', async () => {
    const headers = await signIn(t, 'reader@example.com');
    const res = await createJob(t, headers, {
      title: 'Unlucky',
      content: longText(4),
      voice_config: { provider: 'openai', voice_id: 'alloy' },
    });
    expect(res.statusCode).toBe(201);
    const job = await waitForJob(t, headers, (res.json() as { id: string }).id, undefined, 120_000);
    expect(job.status).toBe('FAILED');
    expect(requests).toBe(RETRY_BUDGET.attempts);
    expect(job.error_message).toMatch(/^OpenAI is unavailable \(500\): retried 3 times, giving up/);
    const synth = job.steps.find((s) => s.step_name === 'synthesize')!;
    expect(synth.status).toBe('FAILED');
  });
});
