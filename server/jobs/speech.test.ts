import { EncoderPool } from '../audio/encoder-pool';
import { compileRules } from '../pronunciations/rules';
import type { EncodedSpeech, EncodedSpeechStream, TtsEngine } from '../tts/types';
import { encodedSpeaking, encoderName } from './speech';

/**
 * A voice that encodes its own MP3, its stream standing in for a host's: it notes each request
 * when it is asked for (as a host queues it), and answers later, 100 samples and one MP3 byte per
 * character, a word for each word of what it was asked to say.
 */
function recordingVoice(max: number) {
  const asked: string[] = [];
  const stream: EncodedSpeechStream = {
    sampleRate: 1000,
    speak(text) {
      asked.push(text);
      const words = [...text.matchAll(/\S+/g)].map((m) => ({
        start: m.index / 10,
        end: (m.index + m[0].length) / 10,
        charStart: m.index,
        charEnd: m.index + m[0].length,
      }));
      return new Promise<EncodedSpeech>((resolve) =>
        setTimeout(() => resolve({ mp3: Buffer.from(text), samples: text.length * 100, sampleRate: 1000, words }), 5),
      );
    },
    finish: async () => Buffer.alloc(0),
    close: () => undefined,
  };
  const engine: TtsEngine = {
    name: 'espeak-ng',
    maxCharsPerRequest: max,
    synthesize: () => Promise.reject(new Error('no PCM from this voice')),
    openEncodedStream: async () => stream,
  };
  return { engine, asked };
}

describe('encodedSpeaking', () => {
  it("asks for every part of a piece its pronunciations lengthened before the next piece's, so the stream keeps the text's order", async () => {
    const { engine, asked } = recordingVoice(40);
    const rules = compileRules([{ text: 'NASA', sayAs: 'the National Aeronautics and Space Administration' }]);
    const speaking = encodedSpeaking(engine, 'alloy', rules)!;
    const stream = (await speaking.open(new AbortController().signal))!;
    const speak = speaking.speaker(stream);
    const signal = new AbortController().signal;
    // Asked for one after another without waiting, as a run asks ahead.
    const first = speak('NASA flew.', signal);
    const second = speak('Then home.', signal);
    const [a, b] = await Promise.all([first, second]);
    expect(asked).toEqual(['the National Aeronautics and Space', 'Administration flew.', 'Then home.']);
    // The parts' MP3 joined in order; their words back on the piece's own text and times.
    expect(Buffer.from(a.mp3).toString()).toBe('the National Aeronautics and SpaceAdministration flew.');
    expect(a.samples).toBe((34 + 20) * 100);
    // The replaced words become the one word of the book they stand for.
    expect(a.words?.map((w) => [w.charStart, w.charEnd])).toEqual([
      [0, 4],
      [5, 10],
    ]);
    expect(a.words?.at(-1)?.start).toBeCloseTo(3.4 + 1.5, 5); // after the first part's 3.4 s
    expect(Buffer.from(b.mp3).toString()).toBe('Then home.');
  });

  it('is offered only by a voice that encodes, and names what encoded', () => {
    const { engine } = recordingVoice(40);
    expect(encodedSpeaking({ ...engine, openEncodedStream: undefined }, 'alloy', null)).toBeUndefined();
    expect(encodedSpeaking(engine, 'alloy', null)).toBeDefined();
    expect(encoderName(true, undefined)).toBe('LAME (libmp3lame) in the eSpeak-NG host');
    expect(encoderName(false, new EncoderPool(0))).toBe('LAME WebAssembly, in-process');
  });
});
