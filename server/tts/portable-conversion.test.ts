import { afterAll, describe, expect, it } from 'vitest';
import { mp3DurationSeconds } from '../audio/concat';
import { parseMp3 } from '../audio/mp3-frames';
import { LocalFileStorage } from '../storage/local';
import { decodeMp3, readAll } from '../testing/audio';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, longText, signIn, waitForJob } from '../testing/jobs';

describe('a long text on the portable path, end to end', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('is spoken in two runs at once by eSpeak WebAssembly, joined into one MP3 the timing map fits', async () => {
    t = await createTestApp({ env: { ESPEAK_ENGINE: 'portable', ENCODER_THREADS: '2' } });
    const headers = await signIn(t, 'portable@example.com');
    // Over two runs' worth of characters, under a book's: one text in two streams.
    const text = longText(200);
    expect(text.length).toBeGreaterThan(16_000);
    const created = (
      await createJob(t, headers, { title: 'Mill', content: text, job_type: 'text_to_audio' })
    ).json() as { id: string };
    const job = await waitForJob(t, headers, created.id, undefined, 240_000);
    expect(job.status).toBe('COMPLETED');
    const synth = job.steps.find((s) => s.step_name === 'synthesize')!;
    expect(synth.step_metadata).toMatchObject({
      engine: 'espeak-ng',
      engine_backend: 'portable',
      encoder: 'LAME WebAssembly, worker threads (2)',
      encoder_streams: 2,
      word_timings: true,
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
    // The map is kept in whole milliseconds and a joined map adds two rounded times: within 1 ms.
    expect(Math.abs(timings.at(-1)!.end - duration)).toBeLessThanOrEqual(0.001);
    for (let i = 1; i < timings.length; i++) expect(timings[i]!.start).toBeGreaterThanOrEqual(timings[i - 1]!.start);
  }, 300_000);
});
