/**
 * Where a run of the synthesize step's speech goes (./synthesis.ts): PCM to an MP3 writer here, or
 * MP3 the voice encoded itself, written to the run's file as it comes.
 */
import type { EncoderPool } from '../audio/encoder-pool';
import { createMp3Writer, type Mp3Writer } from '../audio/mp3';
import type { FileStorage, StorageWriter } from '../storage/types';
import type { EncodedSpeech, EncodedSpeechStream, Speech } from '../tts/types';

/** One piece's speech, as PCM or as MP3. */
export interface Spoken {
  samples: number;
  sampleRate: number;
  words?: Speech['words'];
  pcm?: Int16Array;
  mp3?: Uint8Array;
}

/** Where a run's speech goes: PCM to an MP3 writer, or MP3 the voice encoded to the file. */
export interface RunOutput {
  /** `voice`: the piece's own voice (a full cast's speaker), else the text's. */
  speak(text: string, signal: AbortSignal, voice?: string): Promise<Spoken>;
  /** Takes a piece's speech, in order (waits while the encoder is behind). */
  take(spoken: Spoken): Promise<void>;
  /** Ends the file: its size in bytes. */
  finish(): Promise<number>;
  abort(): Promise<void>;
}

/** PCM from `speak`, encoded here (an encoder thread per stream), into `key`. */
export function pcmOutput(
  storage: FileStorage,
  key: string,
  speak: (text: string, signal: AbortSignal, voice?: string) => Promise<Speech>,
  pool: EncoderPool | undefined,
): RunOutput {
  let writer: Mp3Writer | null = null;
  return {
    speak: async (text, runSignal, voice) => {
      const speech = await speak(text, runSignal, voice);
      return {
        samples: speech.samples.length,
        sampleRate: speech.sampleRate,
        words: speech.words,
        pcm: speech.samples,
      };
    },
    async take(spoken) {
      writer ??= createMp3Writer({
        sampleRate: spoken.sampleRate,
        sink: await storage.createWriter(key),
        pool,
      });
      // Nobody else uses this speech: its buffer may go to an encoder thread as it is.
      await writer.write(spoken.pcm!, { handOver: true });
    },
    finish: async () => (await writer!.finish()).bytes,
    abort: async () => writer?.abort(),
  };
}

/** MP3 the voice encoded in a stream of its own (`stream`, spoken into by `speak`), written to `key` as it comes. */
export function encodedOutput(
  storage: FileStorage,
  key: string,
  stream: EncodedSpeechStream,
  speak: (text: string, signal: AbortSignal) => Promise<EncodedSpeech>,
): RunOutput {
  let sink: StorageWriter | null = null;
  let bytes = 0;
  let open = true;
  const write = async (mp3: Uint8Array) => {
    sink ??= await storage.createWriter(key);
    if (mp3.byteLength === 0) return;
    await sink.write(mp3);
    bytes += mp3.byteLength;
  };
  return {
    speak: async (text, runSignal) => {
      const speech = await speak(text, runSignal);
      return { samples: speech.samples, sampleRate: speech.sampleRate, words: speech.words, mp3: speech.mp3 };
    },
    take: (spoken) => write(spoken.mp3!),
    async finish() {
      open = false;
      await write(await stream.finish());
      await sink!.commit();
      return bytes;
    },
    async abort() {
      if (open) stream.close();
      open = false;
      await sink?.abort();
    },
  };
}
