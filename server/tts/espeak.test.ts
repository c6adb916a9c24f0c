import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine, offlineVoiceFor, type EspeakEngine } from './espeak';
import { espeakHostBinary } from './espeak-host-build';
import { MAX_LINE_BYTES } from './espeak-wasm';
import { nativeSpeechPath, portableSpeechPath, type SpeechPath } from './speech-paths';
import { TtsError } from './types';
import { encodeWav, parseWav } from './wav';

/** The native path's host, where it can be built here (CI has the compiler and the headers). */
const HOST = (await espeakHostBinary()).binary;

function rms(s: Int16Array): number {
  let sum = 0;
  for (const v of s) sum += v * v;
  return Math.sqrt(sum / Math.max(1, s.length));
}

describe.each([
  { name: 'portable', makePath: () => portableSpeechPath(1), missing: false },
  { name: 'native', makePath: () => nativeSpeechPath(HOST!, 1), missing: HOST === null },
])('offline engine on the $name path', ({ name, makePath, missing }) => {
  let path: SpeechPath;
  let engine: EspeakEngine;
  beforeAll(async () => {
    if (missing) return;
    path = makePath();
    engine = createEspeakEngine({ path });
    await engine.synthesize('Warm up.', 'en-us'); // first call pays the one-time start
  }, 60_000);
  afterAll(() => path?.close());
  const test = it.skipIf(missing);

  test('is the engine of that path, and only the native path encodes MP3 itself', () => {
    expect(engine.backend).toBe(name);
    expect(engine.openEncodedStream !== undefined).toBe(name === 'native');
  });

  test('speaks a short text at 22050 Hz with a plausible duration', async () => {
    const s = await engine.synthesize('Hello world. This is Lectio.', offlineVoiceFor('openai', 'alloy'));
    expect(engine.name).toBe('espeak-ng');
    expect(s.sampleRate).toBe(22050);
    expect(s.samples).toBeInstanceOf(Int16Array);
    const seconds = s.samples.length / s.sampleRate;
    expect(seconds).toBeGreaterThan(0.5);
    expect(seconds).toBeLessThan(5);
    expect(rms(s.samples)).toBeGreaterThan(300);
  });

  test('uses different voices for the alloy and adam stand-ins', async () => {
    const alloy = offlineVoiceFor('openai', 'alloy');
    const adam = offlineVoiceFor('elevenlabs', 'adam');
    expect(alloy).toBe('en-us+f3');
    expect(adam).toBe('en-gb+m3');
    const a = await engine.synthesize('Hello world. This is Lectio.', alloy);
    const b = await engine.synthesize('Hello world. This is Lectio.', adam);
    const meanDiff = (x: Int16Array, y: Int16Array) => {
      const n = Math.min(x.length, y.length);
      let diff = 0;
      for (let i = 0; i < n; i++) diff += Math.abs(x[i]! - y[i]!);
      return diff / n;
    };
    expect(meanDiff(a.samples, b.samples)).toBeGreaterThan(100);
    // Switching voices leaks nothing into the next call: alloy after adam sounds like alloy did
    // before (eSpeak keeps a voice running between calls, so the length may differ by a few
    // samples), not like adam.
    const a2 = await engine.synthesize('Hello world. This is Lectio.', alloy);
    expect(Math.abs(a2.samples.length - a.samples.length)).toBeLessThan(a.samples.length / 100);
    // The female voice's higher pitch crosses zero more often; the same voice crosses as often.
    const crossings = (x: Int16Array) => {
      let n = 0;
      for (let i = 1; i < x.length; i++) if (x[i - 1]! < 0 !== x[i]! < 0) n++;
      return n / x.length;
    };
    expect(Math.abs(crossings(a2.samples) - crossings(a.samples))).toBeLessThan(
      Math.abs(crossings(a.samples) - crossings(b.samples)) / 5,
    );
  });

  test('accepts the cloud voice names directly and handles unicode and leading dashes', async () => {
    expect((await engine.synthesize('-v x --help', 'adam')).samples.length).toBeGreaterThan(1000);
    expect((await engine.synthesize('Café “naïve” — déjà vu.', 'alloy')).samples.length).toBeGreaterThan(1000);
  });

  test('rejects empty text, over-long text and unknown voices with clear errors', async () => {
    await expect(engine.synthesize('   ', 'en-us')).rejects.toMatchObject({
      name: 'TtsError',
      code: 'invalid_input',
      retryable: false,
      message: 'Nothing to synthesize: the text is empty',
    });
    await expect(engine.synthesize('a '.repeat(200), 'en-us')).rejects.toThrow(/limit is 300/);
    await expect(engine.synthesize('Hello', 'xx-nope')).rejects.toThrow('eSpeak-NG has no voice "xx-nope"');
    await expect(engine.synthesize('Hello', 'en; rm -rf')).rejects.toBeInstanceOf(TtsError);
    // The engine still works after a failed run.
    expect((await engine.synthesize('Still here.', 'en-us')).samples.length).toBeGreaterThan(1000);
  });

  test('speaks off the main thread: the event loop keeps turning while it synthesises', async () => {
    let turns = 0;
    let speaking = true;
    const spin = (): void => {
      turns += 1;
      if (speaking) setImmediate(spin);
    };
    setImmediate(spin);
    const s = await engine.synthesize('The keeper climbed the stairs and lit the lamp. '.repeat(6), 'en-us');
    speaking = false;
    expect(s.samples.length).toBeGreaterThan(22050);
    // On the main thread a call is one synchronous block: the loop would turn once or twice.
    expect(turns).toBeGreaterThan(10);
  });

  test('honours an aborted signal', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(engine.synthesize('Hello', 'en-us', ac.signal)).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('the engine options', () => {
  it('keeps each request one line of eSpeak and its rate in range', () => {
    const path = portableSpeechPath(1);
    expect(() => createEspeakEngine({ path, maxCharsPerRequest: Math.floor(MAX_LINE_BYTES / 3) + 1 })).toThrow(
      /maxCharsPerRequest .* is outside/,
    );
    expect(() => createEspeakEngine({ path, rate: 60 })).toThrow('eSpeak rate 60 is outside 80-450 wpm');
  });
});

describe('parseWav', () => {
  it('round-trips encodeWav and rejects non-WAV data', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768]);
    const back = parseWav(encodeWav({ samples, sampleRate: 22050 }));
    expect(back.sampleRate).toBe(22050);
    expect([...back.samples]).toEqual([...samples]);
    expect(() => parseWav(new Uint8Array(10))).toThrow(/RIFF/);
  });
});
