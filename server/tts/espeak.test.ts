import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine, offlineVoiceFor, type EspeakEngine } from './espeak';
import { TtsError } from './types';
import { encodeWav, parseWav } from './wav';

function rms(s: Int16Array): number {
  let sum = 0;
  for (const v of s) sum += v * v;
  return Math.sqrt(sum / Math.max(1, s.length));
}

describe('offline engine (WASM)', () => {
  let engine: EspeakEngine;
  beforeAll(async () => {
    engine = createEspeakEngine({ backend: 'wasm' });
    await engine.synthesize('Warm up.', 'en-us'); // first call pays the one-time init
  }, 60_000);

  it('speaks a short text at 22050 Hz with a plausible duration', async () => {
    const s = await engine.synthesize('Hello world. This is Lectio.', offlineVoiceFor('openai', 'alloy'));
    expect(engine.name).toBe('espeak-ng');
    expect(s.sampleRate).toBe(22050);
    expect(s.samples).toBeInstanceOf(Int16Array);
    const seconds = s.samples.length / s.sampleRate;
    expect(seconds).toBeGreaterThan(0.5);
    expect(seconds).toBeLessThan(5);
    expect(rms(s.samples)).toBeGreaterThan(300);
  });

  it('uses different voices for the alloy and adam stand-ins', async () => {
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

  it('accepts the cloud voice names directly and handles unicode and leading dashes', async () => {
    expect((await engine.synthesize('-v x --help', 'adam')).samples.length).toBeGreaterThan(1000);
    expect((await engine.synthesize('Café “naïve” — déjà vu.', 'alloy')).samples.length).toBeGreaterThan(1000);
  });

  it('rejects empty text, over-long text and unknown voices with clear errors', async () => {
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

  it('speaks in a worker thread: the event loop keeps turning while it synthesises', async () => {
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

  it('honours an aborted signal', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(engine.synthesize('Hello', 'en-us', ac.signal)).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('offline engine (native binary)', () => {
  // A stand-in "espeak-ng" that answers like `espeak-ng --stdout`: a WAV with the streaming
  // (unknown) data size, and a tone whose length follows the text.
  const dir = mkdtempSync(path.join(tmpdir(), 'lectio-espeak-'));
  const bin = path.join(dir, 'espeak-ng');
  writeFileSync(
    bin,
    `#!${process.execPath}
const args = process.argv.slice(2);
let text = '';
process.stdin.on('data', (d) => (text += d));
process.stdin.on('end', () => {
  if (!args.includes('--stdout')) { process.stderr.write('no --stdout'); process.exit(2); }
  const v = args[args.indexOf('-v') + 1];
  if (v === 'nope') { process.stderr.write('Error: The specified espeak-ng voice does not exist.\\n'); process.exit(1); }
  const go = () => {
    const n = 2205 * text.length;
    const b = Buffer.alloc(44 + n * 2);
    b.write('RIFF', 0); b.writeUInt32LE(0x7fffffff, 4); b.write('WAVEfmt ', 8);
    b.writeUInt32LE(16, 16); b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22);
    b.writeUInt32LE(22050, 24); b.writeUInt32LE(44100, 28); b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34);
    b.write('data', 36); b.writeUInt32LE(0x7fffffff, 40);
    for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), 44 + i * 2);
    process.stdout.write(b);
  };
  if (text.includes('SLOW')) setTimeout(go, 5000); else go();
});
`,
  );
  chmodSync(bin, 0o755);

  it('spawns the binary with --stdout and parses the streamed WAV', async () => {
    const engine = createEspeakEngine({ nativeBinary: bin });
    expect(engine.backend).toBe('native');
    const s = await engine.synthesize('Hello', 'alloy');
    expect(s.sampleRate).toBe(22050);
    expect(s.samples.length).toBe(2205 * 5);
    await expect(engine.synthesize('Hello', 'nope')).rejects.toThrow('eSpeak-NG has no voice "nope"');
  });

  it('kills the process when the signal aborts', async () => {
    const engine = createEspeakEngine({ nativeBinary: bin });
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 100);
    await expect(engine.synthesize('SLOW', 'en-us', ac.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect(Date.now() - t0).toBeLessThan(3000);
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
