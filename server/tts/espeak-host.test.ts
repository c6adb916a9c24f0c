import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakEngine, type EspeakEngine } from './espeak';
import { EspeakHostPool, HostFailure } from './espeak-host';
import { hostWordTimings } from './espeak-words';
import { espeakHostBinary, findEspeakLibrary, removeOlderBuilds } from './espeak-host-build';
import { nativeSpeechPath, portableSpeechPath, type SpeechPath } from './speech-paths';

/** The children of this process, and which of them are zombies (exited, never waited for). */
function children(): { pids: number[]; zombies: number[] } {
  const pids: number[] = [];
  const zombies: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) !== process.pid) continue;
    pids.push(Number(entry));
    if (state === 'Z') zombies.push(Number(entry));
  }
  return { pids, zombies };
}

/** The samples' bytes, to compare whole arrays at once. */
const bytesOf = (s: Int16Array) => Buffer.from(s.buffer, s.byteOffset, s.byteLength);

const LONG = 'The keeper climbed the stairs at dusk, lit the great lamp and watched the ships turn away. '.repeat(3);

describe('hostWordTimings', () => {
  it('turns code-point positions into UTF-16 offsets of whole words, in order, inside the audio', () => {
    const text = 'Café 😀 日本 “naïve” end.';
    // eSpeak counts code points from 1: "Café" 1, "😀" 6, "日本" 8, the quote 11, "naïve" 12, "end" 19.
    const words = [
      { position: 1, length: 4, sample: 0 },
      { position: 6, length: 1, sample: 100 },
      { position: 8, length: 2, sample: 200 },
      { position: 8, length: 2, sample: 300 }, // the same word named again: it goes on
      { position: 11, length: 0, sample: 400 },
      { position: 3, length: 0, sample: 450 }, // pointing back: part of the word before
      { position: 19, length: 3, sample: 500 },
    ];
    const timed = hostWordTimings(text, words, 1000, 1000);
    expect(timed.map((w) => text.slice(w.charStart, w.charEnd))).toEqual(['Café', '😀', '日本', 'naïve', 'end']);
    expect(timed.map((w) => [w.start, w.end])).toEqual([
      [0, 0.1],
      [0.1, 0.2],
      [0.2, 0.4],
      [0.4, 0.5],
      [0.5, 1],
    ]);
  });

  it('gives a word eSpeak said as part of a phrase a share of its time, so none is missing', () => {
    const text = 'It was déjà vu — again.';
    // "déjà vu" is one entry of eSpeak's dictionary: its event for "vu" points into "déjà".
    const words = [
      { position: 1, length: 2, sample: 0 },
      { position: 4, length: 3, sample: 200 },
      { position: 8, length: 4, sample: 400 },
      { position: 9, length: 4, sample: 700 },
      { position: 18, length: 5, sample: 1000 },
    ];
    const timed = hostWordTimings(text, words, 1500, 1000);
    expect(timed.map((w) => text.slice(w.charStart, w.charEnd))).toEqual(['It', 'was', 'déjà', 'vu', 'again']);
    expect(timed.map((w) => [w.start, w.end])).toEqual([
      [0, 0.2],
      [0.2, 0.4],
      [0.4, 0.8],
      [0.8, 1],
      [1, 1.5],
    ]);
  });
});

describe('espeakHostBinary', () => {
  it('uses a host built already without a C compiler (an image whose runtime has none)', async () => {
    const built = await espeakHostBinary();
    if (built.binary === null) return; // nothing built here: nothing to find either
    const emptyDir = mkdtempSync(path.join(tmpdir(), 'lectio-no-cc-'));
    await expect(espeakHostBinary(emptyDir)).resolves.toEqual({ binary: built.binary });
  });
});

describe('removeOlderBuilds', () => {
  it('leaves the current binary, builds still being written and other files; removes older binaries', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lectio-cache-'));
    const names = [
      'espeak-host-0123456789abcdef',
      'espeak-host-fedcba9876543210',
      'espeak-host-aaaaaaaaaaaaaaaa.4242.0a0b0c0d.tmp',
      'pglite-template.tar.gz',
    ];
    for (const name of names) writeFileSync(path.join(dir, name), 'x');
    await removeOlderBuilds(dir, path.join(dir, 'espeak-host-fedcba9876543210'));
    expect(readdirSync(dir).sort()).toEqual(names.slice(1).sort());
  });
});

describe('EspeakHostPool', () => {
  it('fails every waiting request clearly when its binary cannot start, and says so (the server then takes the portable path)', async () => {
    const pool = new EspeakHostPool(path.join(mkdtempSync(path.join(tmpdir(), 'lectio-gone-')), 'espeak-host'), 1);
    const results = await Promise.allSettled([pool.say('en-us', 175, 'One.'), pool.say('en-us', 175, 'Two.')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(HostFailure);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(
      /the eSpeak-NG host could not start \(spawn .* ENOENT\)/,
    );
    expect(pool.startFailed).toBe(true);
    expect(pool.pids).toEqual([]);
    await pool.close();
  });

  it('reads frames however the pipe cuts them: samples and words arrive whole, an error frame without text too', async () => {
    // A stand-in host speaking the protocol of espeak-host.c: for each request it answers 3,001
    // known samples in two 'A' frames, one word, an empty 'X' frame and 'E', written a few bytes at
    // a time, so frame heads and payloads are split across the pipe's reads.
    const dir = mkdtempSync(path.join(tmpdir(), 'lectio-host-'));
    const script = path.join(dir, 'host.mjs');
    writeFileSync(
      script,
      `#!${process.execPath}
import { writeSync } from 'node:fs';
const frame = (type, payload) => {
  const head = Buffer.alloc(5); head.write(type, 0, 'latin1'); head.writeUInt32LE(payload.length, 1);
  return Buffer.concat([head, payload]);
};
const u32 = (...values) => { const b = Buffer.alloc(4 * values.length); values.forEach((v, i) => b.writeUInt32LE(v, 4 * i)); return b; };
const samples = Buffer.alloc(3001 * 2); for (let i = 0; i < 3001; i++) samples.writeInt16LE(i - 1500, 2 * i);
const dribble = (bytes) => { for (let at = 0; at < bytes.length; at += 3) writeSync(1, bytes.subarray(at, at + 3)); };
writeSync(1, frame('R', u32(22050, 0)));
let input = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  input = Buffer.concat([input, chunk]);
  for (;;) {
    // 'S', the stream (0), the voice's length and name, the rate, the text's length and text.
    if (input.length < 9) return;
    const voice = input.readUInt32LE(5);
    if (input.length < 17 + voice) return;
    const text = input.readUInt32LE(13 + voice);
    if (input.length < 17 + voice + text) return;
    input = input.subarray(17 + voice + text);
    dribble(Buffer.concat([frame('A', samples.subarray(0, 2001)), frame('W', u32(1, 5, 700)),
      frame('A', samples.subarray(2001)), frame('X', Buffer.alloc(0)), frame('E', u32(22050, 3001))]));
  }
});
`,
    );
    chmodSync(script, 0o755);
    const pool = new EspeakHostPool(script, 1);
    try {
      for (const text of ['Hello.', 'Again.']) {
        const speech = await pool.say('en-us', 175, text);
        expect(speech.sampleRate).toBe(22050);
        expect(Array.from(speech.samples)).toEqual(Array.from({ length: 3001 }, (_, i) => i - 1500));
        expect(speech.words).toEqual([{ position: 1, length: 5, sample: 700 }]);
        expect(speech.error).toBe('');
      }
    } finally {
      await pool.close();
    }
  });
});

const build = await espeakHostBinary();
const SKIP = build.binary === null ? `no eSpeak-NG host here: ${'reason' in build ? build.reason : ''}` : '';

describe.skipIf(SKIP !== '')(`native eSpeak-NG kept running${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let speechPath: SpeechPath;
  let engine: EspeakEngine;
  /** The reference: eSpeak-NG's WebAssembly build, the portable path. */
  const portable = portableSpeechPath(1);
  beforeAll(async () => {
    speechPath = nativeSpeechPath(build.binary!);
    engine = createEspeakEngine({ path: speechPath });
    await engine.synthesize('Warm up.', 'en-us');
  }, 60_000);
  afterAll(async () => {
    await speechPath.close();
    await portable.close();
  });

  it('speaks as the portable path does for the same text, voice and rate', { timeout: 60_000 }, async () => {
    // A fresh host says it sample for sample as the WebAssembly build, its words at the same samples:
    // the same eSpeak-NG (1.52) reading the same voice data.
    for (const [text, voice] of [
      ['Hello world. This is Lectio.', 'en-gb+m3'],
      [LONG, 'en-us+f3'],
      ['Bonjour tout le monde.', 'fr'],
      // Both speak a text as one line: its line breaks are spaces.
      ['Chapter One\nIt was a dark\n\nnight and cold.', 'en-us'],
      ['It cost $4.50 to cross now, which was more than it used to be, and less than it should be.', 'en-us'],
    ] as const) {
      const fresh = nativeSpeechPath(build.binary!, 1);
      try {
        const native = await fresh.say(voice, 160, text);
        const expected = await portable.say(voice, 160, text);
        expect(native.sampleRate).toBe(expected.sampleRate);
        expect(native.samples.length, text).toBe(expected.samples.length);
        expect(Buffer.compare(bytesOf(native.samples), bytesOf(expected.samples)), text).toBe(0);
        expect(native.words, text).toEqual(expected.words);
      } finally {
        await fresh.close();
      }
    }
    // A host that spoke before, and a portable thread that did, say it the same again: every
    // request is spoken from eSpeak's state before any speech (not from where the last left its
    // pitch flutter), and its breath noise from the same seed.
    for (const [text, voice] of [
      [LONG, 'en-us+f3'],
      ['Café “naïve” — déjà vu.', 'en-gb+f4'],
      ['Bonjour tout le monde.', 'fr'],
      [LONG, 'en-us+f3'],
    ] as const) {
      const hosted = await engine.synthesize(text, voice);
      const expected = (await portable.say(voice, 175, text)).samples;
      expect(hosted.sampleRate).toBe(22050);
      expect(Buffer.compare(bytesOf(hosted.samples), bytesOf(expected)), text).toBe(0);
    }
  });

  it('times each word: in order, inside the audio, pointing at the words of the text', async () => {
    const text = 'The keeper climbed the stairs, and lit the lamp. Outside the sea was calm.';
    const s = await engine.synthesize(text, 'en-us+f3');
    const duration = s.samples.length / s.sampleRate;
    const words = s.words ?? [];
    expect(words.map((w) => text.slice(w.charStart, w.charEnd))).toEqual(
      text.split(' ').map((w) => w.replace(/[.,]/g, '')),
    );
    for (const [i, w] of words.entries()) {
      expect(w.start).toBeLessThanOrEqual(w.end);
      expect(w.end).toBeLessThanOrEqual(duration);
      if (i > 0) expect(w.start).toBeGreaterThan(words[i - 1]!.start);
    }
    // "Outside" starts after the sentence pause: well after the middle of the audio's first half.
    const outside = words.find((w) => text.slice(w.charStart, w.charEnd) === 'Outside')!;
    expect(outside.start).toBeGreaterThan(duration / 2);
  });

  it('times the words of every line of a text of several lines', async () => {
    const text = 'Chapter Two\nThe night was cold.\n\nThe café was warm.';
    const s = await engine.synthesize(text, 'en-us');
    const words = s.words ?? [];
    expect(words.map((w) => text.slice(w.charStart, w.charEnd))).toEqual(
      text.split(/\s+/).map((w) => w.replace('.', '')),
    );
    // "The" of the second line comes after the pause that ends the first.
    const first = words[0]!;
    const second = words[2]!;
    expect(second.start - first.start).toBeGreaterThan(0.5);
    for (const [i, w] of words.entries()) if (i > 0) expect(w.start).toBeGreaterThan(words[i - 1]!.start);
    expect(words.at(-1)!.end).toBeCloseTo(s.samples.length / s.sampleRate, 5);
  });

  it('gives UTF-16 offsets for accented, CJK and emoji text', async () => {
    const text = 'Naïve café 😀 garden, 日本 tree.';
    const s = await engine.synthesize(text, 'en-us');
    const said = (s.words ?? []).map((w) => text.slice(w.charStart, w.charEnd));
    expect(said).toEqual(expect.arrayContaining(['Naïve', 'café', 'garden', 'tree']));
    expect(said.indexOf('garden')).toBeLessThan(said.indexOf('tree'));
  });

  it('answers an unknown voice with the same clear error as before, and keeps working', async () => {
    await expect(engine.synthesize('Hello', 'xx-nope')).rejects.toMatchObject({
      name: 'TtsError',
      code: 'invalid_input',
      message: 'eSpeak-NG has no voice "xx-nope"',
    });
    expect((await engine.synthesize('Still here.', 'en-us')).samples.length).toBeGreaterThan(1000);
  });

  it('serves 200 requests with the same processes, leaving no zombie', { timeout: 120_000 }, async () => {
    await Promise.all([engine.synthesize('One.', 'en-us'), engine.synthesize('Two.', 'en-us')]);
    const hosts = speechPath.pids().sort();
    const before = children();
    for (let i = 0; i < 200; i += 4) {
      await Promise.all([0, 1, 2, 3].map((j) => engine.synthesize(`Request ${i + j}.`, j % 2 ? 'en-us' : 'en-gb+m3')));
    }
    expect(speechPath.pids().sort()).toEqual(hosts);
    const after = children();
    expect(after.zombies).toEqual([]);
    expect(after.pids.length).toBeLessThanOrEqual(before.pids.length);
  });

  it('fails a request whose host dies with a clear error, replaces the host and reaps the dead one', async () => {
    const pool = new EspeakHostPool(build.binary!, 1);
    try {
      const speaking = pool.say('en-us', 175, LONG);
      const [victim] = pool.pids;
      process.kill(victim!, 'SIGKILL');
      const error = await speaking.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HostFailure);
      expect((error as Error).message).toBe('the eSpeak-NG host stopped (SIGKILL)');
      const next = await pool.say('en-us', 175, 'After the crash.');
      expect(next.samples.length).toBeGreaterThan(1000);
      expect(pool.pids).not.toContain(victim);
      expect(children().pids).not.toContain(victim);
    } finally {
      await pool.close();
    }
    expect(children().zombies).toEqual([]);
  });

  it('answers an aborted request at once; its host finishes and serves the next', async () => {
    const before = speechPath.pids();
    const ac = new AbortController();
    const speaking = engine.synthesize(LONG, 'en-us', ac.signal);
    // In its host by now, or about to be. Aborted before this thread next looks at its pipes: a
    // timer (even of 5 ms) could fire after a busy machine's host had already answered.
    await new Promise((resolve) => setImmediate(resolve));
    ac.abort();
    await expect(speaking).rejects.toMatchObject({ name: 'TtsError', code: 'aborted' });
    const ac2 = new AbortController();
    ac2.abort();
    await expect(engine.synthesize('Hello', 'en-us', ac2.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect((await engine.synthesize('The next one.', 'en-us')).samples.length).toBeGreaterThan(1000);
    expect(speechPath.pids().sort()).toEqual(before.sort());
  });

  it('ends its hosts on close and waits for them', async () => {
    await engine.synthesize('Before closing.', 'en-us');
    const pids = speechPath.pids();
    expect(pids.length).toBeGreaterThan(0);
    await speechPath.close();
    const left = children().pids;
    for (const pid of pids) expect(left).not.toContain(pid);
    // Closed is closed (the server's shutdown): a request after it says so.
    await expect(engine.synthesize('Again.', 'en-us')).rejects.toThrow('the eSpeak-NG hosts were closed');
  });
});

describe('findEspeakLibrary', () => {
  /** A prefix laid out as Debian's libespeak-ng-dev installs it, of `version`. */
  function prefix(version: string): string {
    const root = mkdtempSync(path.join(tmpdir(), 'lectio-espeak-prefix-'));
    const lib = path.join(root, 'lib', 'x86_64-linux-gnu');
    mkdirSync(path.join(root, 'include', 'espeak-ng'), { recursive: true });
    mkdirSync(path.join(lib, 'pkgconfig'), { recursive: true });
    writeFileSync(path.join(root, 'include', 'espeak-ng', 'speak_lib.h'), '');
    writeFileSync(path.join(lib, 'libespeak-ng.a'), '');
    writeFileSync(path.join(lib, 'pkgconfig', 'espeak-ng.pc'), `Name: eSpeak NG\nVersion: ${version}\n`);
    return root;
  }

  it("takes eSpeak-NG 1.52 (the portable path's version) where it finds it, first come first", () => {
    const old = prefix('1.51');
    const current = prefix('1.52.0');
    expect(findEspeakLibrary([old, current])).toEqual({
      include: path.join(current, 'include'),
      archive: path.join(current, 'lib', 'x86_64-linux-gnu', 'libespeak-ng.a'),
    });
  });

  it('refuses another version, saying which it found and how to get 1.52', () => {
    const found = findEspeakLibrary([prefix('1.51'), mkdtempSync(path.join(tmpdir(), 'lectio-empty-'))]);
    expect('reason' in found && found.reason).toMatch(/only eSpeak-NG 1\.51 in .*npm run setup:espeak-ng/);
  });
});
