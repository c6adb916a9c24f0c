import { afterAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from './harness';
import { id3Length } from '../../server/testing/readers';

// "Restarting the server mid-job loses nothing": the app started as `npm start` starts it, on the
// embedded database, killed outright in the middle of a conversion and started again on the same
// data directory. The job completes, with one row per step and a whole, playable MP3.
let first: RunningApp | undefined;
let second: RunningApp | undefined;

afterAll(async () => {
  await first?.crash();
  await second?.stop();
});

const text = Array.from(
  { length: 80 },
  (_, i) => `Sentence ${i + 1} tells of the river that ran past the old mill in the valley.`,
).join(' ');

async function api(app: RunningApp, method: string, path: string, token?: string, body?: object) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Step {
  step_name: string;
  status: string;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('a crash in the middle of a conversion', () => {
  it('loses nothing: after a restart the job completes once, with whole audio', async () => {
    first = await startApp();
    const credentials = { email: 'crash@example.com', password: 'correct-horse' };
    expect((await api(first, 'POST', '/api/v1/auth/register', undefined, credentials)).status).toBe(201);
    const token = String((await api(first, 'POST', '/api/v1/auth/login', undefined, credentials)).body.access_token);
    const created = await api(first, 'POST', '/api/v1/jobs', token, { title: 'Crash test', content: text });
    expect(created.status).toBe(201);
    const id = String(created.body.id);

    await waitFor('synthesis to be under way', async () => {
      const job = (await api(first!, 'GET', `/api/v1/jobs/${id}`, token)).body;
      const synth = (job.steps as Step[]).find((s) => s.step_name === 'synthesize');
      return synth?.status === 'RUNNING' && Number(job.progress) > 10 ? true : undefined;
    });
    await first.crash();

    second = await startApp({}, { dataDir: first.dataDir });
    const done = await waitFor('the job to complete after the restart', async () => {
      const job = (await api(second!, 'GET', `/api/v1/jobs/${id}`, token)).body;
      if (job.status === 'FAILED') throw new Error(`The job failed: ${String(job.error_message)}`);
      return job.status === 'COMPLETED' ? job : undefined;
    });

    const steps = done.steps as Step[];
    expect(steps.map((s) => s.step_name)).toEqual([
      'acquire_content',
      'split_chapters',
      'synthesize',
      'analyze',
      'finalize',
    ]);
    expect(steps.every((s) => s.status === 'COMPLETED')).toBe(true);

    const result = done.result_data as { duration_seconds: number; file_size_bytes: number };
    const stream = (await api(second, 'GET', `/api/v1/audio/${id}/stream`, token)).body;
    const served = Buffer.from(await (await fetch(new URL(String(stream.streaming_url), second.url))).arrayBuffer());
    // The stored MP3 with its ID3 tag in front.
    const audio = served.subarray(id3Length(served));
    expect(audio.byteLength).toBe(result.file_size_bytes);
    // A whole MP3: it starts with a frame sync and its duration covers all 80 sentences.
    expect(audio[0]).toBe(0xff);
    expect((audio[1]! & 0xe0) === 0xe0).toBe(true);
    expect(result.duration_seconds).toBeGreaterThan(80 * 2);
  });
});
