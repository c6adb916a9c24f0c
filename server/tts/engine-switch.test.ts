import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mp3DurationSeconds } from '../audio/concat';
import { parseMp3 } from '../audio/mp3-frames';
import { LocalFileStorage } from '../storage/local';
import { decodeMp3, readAll } from '../testing/audio';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, longText, signIn, waitForJob } from '../testing/jobs';
import { createEspeakEngine, getOfflineEngine, useOfflineBackend } from './espeak';
import { MAX_LINE_BYTES } from './espeak-wasm';

const emptyDir = mkdtempSync(path.join(tmpdir(), 'lectio-nobin-'));

describe('the offline engine switch (ESPEAK_ENGINE)', () => {
  afterAll(() => {
    useOfflineBackend('auto');
  });

  it("'native' without an espeak-ng binary is refused with a clear message; 'auto' falls back to WebAssembly", () => {
    expect(() => createEspeakEngine({ backend: 'native', searchPath: emptyDir })).toThrow(
      'eSpeak-NG engine "native" requested but no espeak-ng binary is on PATH (install the espeak-ng package)',
    );
    expect(createEspeakEngine({ backend: 'auto', searchPath: emptyDir }).backend).toBe('wasm');
    expect(() => useOfflineBackend('native', emptyDir)).toThrow('no espeak-ng binary is on PATH');
  });

  it("'wasm' makes the process's offline voice WebAssembly even when espeak-ng is on PATH", async () => {
    expect(useOfflineBackend('wasm').backend).toBe('wasm');
    expect(getOfflineEngine().backend).toBe('wasm');
    const speech = await getOfflineEngine().synthesize('The keeper lit the lamp.', 'en-us+f3');
    expect(speech.sampleRate).toBe(22050);
    expect(speech.samples.length / speech.sampleRate).toBeGreaterThan(0.8);
  });

  it('keeps each request one line of eSpeak: a limit that would not fit in one is refused', () => {
    expect(() => createEspeakEngine({ maxCharsPerRequest: Math.floor(MAX_LINE_BYTES / 3) + 1 })).toThrow(
      /maxCharsPerRequest .* is outside/,
    );
    // Line breaks inside a request are read as spaces, not as the end of the request.
    expect(createEspeakEngine({ backend: 'wasm' }).maxCharsPerRequest).toBe(300);
  });

  it('a server started with ESPEAK_ENGINE=native and no espeak-ng on PATH does not start, and says why', async () => {
    const saved = process.env.PATH;
    process.env.PATH = emptyDir;
    try {
      await expect(createTestApp({ env: { ESPEAK_ENGINE: 'native' } })).rejects.toThrow(
        'eSpeak-NG engine "native" requested but no espeak-ng binary is on PATH',
      );
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('a long text read by eSpeak WebAssembly and encoded by LAME WebAssembly', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    useOfflineBackend('auto');
  });

  it('is spoken in two runs at once on the WebAssembly voice, joined into one MP3 the timing map fits', async () => {
    t = await createTestApp({ env: { ESPEAK_ENGINE: 'wasm', MP3_ENCODER: 'wasm', ENCODER_THREADS: '2' } });
    const headers = await signIn(t, 'wasm@example.com');
    // Over two runs' worth of characters, under a book's: one text in two streams.
    const text = longText(200);
    expect(text.length).toBeGreaterThan(16_000);
    const created = (
      await createJob(t, headers, { title: 'Mill', content: text, job_type: 'text_to_audio' })
    ).json() as {
      id: string;
    };
    const job = await waitForJob(t, headers, created.id, undefined, 240_000);
    expect(job.status).toBe('COMPLETED');
    const synth = job.steps.find((s) => s.step_name === 'synthesize')!;
    expect(synth.step_metadata).toMatchObject({
      engine: 'espeak-ng',
      engine_backend: 'wasm',
      encoder: 'LAME WebAssembly, worker threads (2)',
      encoder_streams: 2,
    });
    const storage = new LocalFileStorage(t.config.storageDir);
    const mp3 = await readAll(storage.read(job.output_file_key!));
    expect(parseMp3(mp3).skippedBytes).toBe(0);
    expect((await decodeMp3(mp3)).errors).toBe(0);
    const duration = job.result_data.duration_seconds!;
    // The joined file holds the audio (plus the last stream's priming and padding, under 0.2 s).
    const fileSeconds = await mp3DurationSeconds(mp3);
    expect(fileSeconds - duration).toBeGreaterThanOrEqual(0);
    expect(fileSeconds - duration).toBeLessThan(0.2);
    const timings = JSON.parse(
      (await readAll(storage.read(`${job.output_file_key!}.timing.json`))).toString('utf8'),
    ) as { start: number; end: number; char_start: number }[];
    expect(timings).toHaveLength(200);
    expect(timings.at(-1)!.end).toBeCloseTo(duration, 3);
    for (let i = 1; i < timings.length; i++) expect(timings[i]!.start).toBeGreaterThanOrEqual(timings[i - 1]!.start);
  }, 300_000);
});
