/**
 * The native speech path's hosts: MP3 streams encoded where the speech is made (espeak-host.c,
 * espeak-host.ts; docs/adr/0003-two-speech-paths.md).
 */
import { describe, expect, it } from 'vitest';
import { EncoderPool } from '../audio/encoder-pool';
import { createMp3Writer } from '../audio/mp3';
import { parseMp3 } from '../audio/mp3-frames';
import { decodeMp3, LAME_DELAY_SAMPLES } from '../testing/audio';
import { descendants, zombiesBelow } from '../testing/processes';
import { createEspeakEngine } from './espeak';
import { EspeakHostPool, HostFailure } from './espeak-host';
import { espeakHostBinary } from './espeak-host-build';
import { nativeSpeechPath } from './speech-paths';

const LONG = 'The keeper climbed the stairs at dusk, lit the great lamp and watched the ships turn away. '.repeat(3);
const build = await espeakHostBinary();

/** The host is built with the machine's compiler against eSpeak-NG 1.52 and libmp3lame (espeak-host-build.ts). */
const SKIP_ENCODING = build.binary === null ? `no eSpeak-NG host here: ${build.reason}` : '';

describe.skipIf(SKIP_ENCODING !== '')(
  `eSpeak-NG kept running, encoding its own MP3${SKIP_ENCODING ? ` (skipped: ${SKIP_ENCODING})` : ''}`,
  () => {
    /** The same speech encoded by the portable path's LAME (WebAssembly, in an encoder thread). */
    const portableMp3 = async (pcm: Int16Array) => {
      const pool = new EncoderPool(1);
      const chunks: Uint8Array[] = [];
      try {
        const writer = createMp3Writer({ sampleRate: 22050, kbps: 48, pool, sink: async (c) => void chunks.push(c) });
        await writer.write(pcm);
        await writer.finish();
        return Buffer.concat(chunks);
      } finally {
        await pool.close();
      }
    };

    it('makes the frames the portable encoder makes of the same speech', { timeout: 60_000 }, async () => {
      // A fresh host speaks a text sample for sample the same: one encodes it, one returns it.
      const encoding = new EspeakHostPool(build.binary!, 1);
      const speaking = new EspeakHostPool(build.binary!, 1);
      try {
        const stream = await encoding.openStream(() => 48);
        expect(stream.sampleRate).toBe(22050);
        const encoded = await stream.speak('en-us+f3', 175, LONG);
        const mp3 = Buffer.concat([encoded.mp3, await stream.finish()]);
        const pcm = (await speaking.say('en-us+f3', 175, LONG)).samples;
        expect(encoded.samples).toBe(pcm.length);
        const a = parseMp3(mp3);
        const b = parseMp3(await portableMp3(pcm));
        expect([a.frames, a.audioBytes, a.durationSeconds]).toEqual([b.frames, b.audioBytes, b.durationSeconds]);
        expect(encoded.words.length).toBeGreaterThan(40); // each word timed, as when it returns PCM
      } finally {
        await Promise.all([encoding.close(), speaking.close()]);
      }
    });

    it('keeps several streams in one host apart, each whole and in its own order', { timeout: 60_000 }, async () => {
      const pool = new EspeakHostPool(build.binary!, 1);
      try {
        const [a, b] = await Promise.all([pool.openStream(() => 48), pool.openStream(() => 32)]);
        const texts = ['The first stream begins.', 'The second stream begins.', 'And the first goes on.'];
        // Asked for at once, interleaved: each stream's speech goes into it in the order asked.
        const said = await Promise.all([
          a.speak('en-us', 175, texts[0]!),
          b.speak('en-gb+m3', 175, texts[1]!),
          a.speak('en-us', 175, texts[2]!),
        ]);
        const fileA = Buffer.concat([said[0]!.mp3, said[2]!.mp3, await a.finish()]);
        const fileB = Buffer.concat([said[1]!.mp3, await b.finish()]);
        for (const [file, samples, kbps] of [
          [fileA, said[0]!.samples + said[2]!.samples, 48],
          [fileB, said[1]!.samples, 32],
        ] as const) {
          const info = parseMp3(file);
          expect(info.skippedBytes).toBe(0);
          expect(info.audioBytes).toBe(file.length);
          // Constant bitrate: the size says the bitrate the stream was opened with.
          expect(Math.round((file.length * 8) / info.durationSeconds / 1000)).toBe(kbps);
          // Every sample is in it, after LAME's delay and before its last frame's padding.
          expect(info.samples - samples).toBeGreaterThanOrEqual(LAME_DELAY_SAMPLES);
          expect(info.samples - samples).toBeLessThanOrEqual(LAME_DELAY_SAMPLES + 2 * 576);
          expect((await decodeMp3(file)).errors).toBe(0);
        }
      } finally {
        await pool.close();
      }
    });

    it("serves requests in the order they came, a preview among a stream's, so a conversion never starves it", async () => {
      const pool = new EspeakHostPool(build.binary!, 1);
      try {
        const stream = await pool.openStream(() => 48);
        const order: string[] = [];
        const speak = (i: number) => stream.speak('en-us', 175, LONG).then(() => void order.push(`stream ${i}`));
        const before = [speak(1), speak(2)];
        const preview = pool.say('en-us', 175, 'A preview.').then(() => void order.push('preview'));
        const after = [speak(3), speak(4)];
        await Promise.all([...before, preview, ...after]);
        expect(order).toEqual(['stream 1', 'stream 2', 'preview', 'stream 3', 'stream 4']);
        await stream.finish();
      } finally {
        await pool.close();
      }
    });

    it('says what it cannot do and goes on: a bitrate LAME refuses, a finished stream, an unknown voice', async () => {
      const pool = new EspeakHostPool(build.binary!, 1);
      try {
        await expect(pool.openStream(() => 47)).rejects.toThrow('Unsupported bitrate 47 kbps at 22050 Hz');
        const stream = await pool.openStream(() => 48);
        await expect(stream.speak('xx-nowhere', 175, 'Hello.')).rejects.toThrow('voice does not exist');
        await stream.speak('en-us', 175, 'Hello.');
        await stream.finish();
        await expect(stream.speak('en-us', 175, 'Again.')).rejects.toThrow('no such stream');
        const [pid] = pool.pids;
        expect((await pool.say('en-us', 175, 'Still here.')).samples.length).toBeGreaterThan(1000);
        expect(pool.pids).toEqual([pid]);
      } finally {
        await pool.close();
      }
    });

    it('leaves no encoder behind in its host for an open given up while the host was opening it', async () => {
      const pool = new EspeakHostPool(build.binary!, 1);
      try {
        await pool.say('en-us', 175, 'Ready.'); // the host is up: the open goes to it at once
        const ac = new AbortController();
        const opening = pool.openStream(() => 48, ac.signal);
        await new Promise((resolve) => setImmediate(resolve)); // sent to the host by now
        ac.abort();
        await expect(opening).rejects.toThrow('aborted');
        // A host holds 64 streams: all of them open, so the abandoned one was closed.
        const streams = await Promise.all(Array.from({ length: 64 }, () => pool.openStream(() => 48)));
        await Promise.all(streams.map((stream) => stream.finish()));
      } finally {
        await pool.close();
      }
    });

    it('fails a stream whose host dies, retryably, and opens the next in a new host', async () => {
      const pool = new EspeakHostPool(build.binary!, 1);
      try {
        const stream = await pool.openStream(() => 48);
        const speaking = stream.speak('en-us', 175, LONG);
        const waiting = stream.speak('en-us', 175, LONG);
        const [victim] = pool.pids;
        process.kill(victim!, 'SIGKILL');
        await expect(speaking).rejects.toBeInstanceOf(HostFailure);
        await expect(waiting).rejects.toBeInstanceOf(HostFailure);
        await expect(stream.finish()).rejects.toBeInstanceOf(HostFailure);
        const next = await pool.openStream(() => 48);
        expect((await next.speak('en-us', 175, 'After the crash.')).mp3.length).toBeGreaterThan(0);
        await next.finish();
        expect(pool.pids).not.toContain(victim);
        expect(descendants(process.pid).map((p) => p.pid)).not.toContain(victim);
      } finally {
        await pool.close();
      }
      expect(zombiesBelow(process.pid)).toBe(0);
    });

    it("is what the engine offers as a stream, with its errors as the engine's", async () => {
      const path = nativeSpeechPath(build.binary!, 1);
      const engine = createEspeakEngine({ path });
      const stream = await engine.openEncodedStream!('en-us+f3', () => 48);
      expect(stream).not.toBeNull();
      const speech = await stream!.speak('Hello world.');
      expect(speech.words?.map((w) => w.charStart)).toEqual([0, 6]);
      await expect(stream!.speak('')).rejects.toMatchObject({ name: 'TtsError', code: 'invalid_input' });
      await stream!.finish();
      await path.close();
    });
  },
);
