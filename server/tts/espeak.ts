/**
 * Offline engine: eSpeak-NG, speaking through the path the process chose at start
 * (speech-paths.ts: `native`, eSpeak-NG kept running in C hosts that also encode the MP3, or
 * `portable`, eSpeak-NG and LAME compiled to WebAssembly in worker threads). Both give eSpeak's
 * word events, turned here into the read-along's word timings the same way (espeak-words.ts).
 *
 * A request is one line of eSpeak's line mode on the portable path: line breaks become spaces,
 * and at most 332 characters fit (its CLI reads 1,000 bytes per line, 3 UTF-8 bytes per UTF-16
 * unit at most); the native path takes the same limit, so requests are cut alike.
 */
import { MAX_LINE_BYTES } from './espeak-wasm';
import { hostWordTimings } from './espeak-words';
import { abortedError, type SpeechPath, type SpeechPathName } from './speech-paths';
import { TtsError, type EncodedSpeechStream, type Speech, type TtsEngine } from './types';

export type CloudProvider = 'openai' | 'elevenlabs';

// ---------------------------------------------------------------------------------------------
// Stand-in voices

/** eSpeak voices standing in for the cloud voices: US female for alloy, UK male for adam. */
export const STAND_IN_VOICES = {
  openai: { female: 'en-us+f3', male: 'en-us+m3' },
  elevenlabs: { female: 'en-gb+f4', male: 'en-gb+m3' },
} as const;

const OPENAI_MALE = new Set(['echo', 'onyx', 'fable', 'ash', 'ballad', 'verse', 'cedar']);
const ELEVENLABS_FEMALE = new Set([
  'rachel',
  '21m00tcm4tlvdq8ikwam',
  'bella',
  'domi',
  'elli',
  'dorothy',
  'charlotte',
  'alice',
  'matilda',
  'sarah',
  'laura',
  'lily',
  'jessica',
]);

/**
 * The eSpeak voice that stands in for `voiceId` of `provider` when that provider has no API key.
 * openai -> US English (alloy and the other female voices: en-us+f3; male voices: en-us+m3);
 * elevenlabs -> UK English (adam and other voices: en-gb+m3; known female voices: en-gb+f4).
 */
export function offlineVoiceFor(provider: CloudProvider, voiceId?: string): string {
  const v = (voiceId ?? '').trim().toLowerCase();
  if (provider === 'openai') {
    return OPENAI_MALE.has(v) ? STAND_IN_VOICES.openai.male : STAND_IN_VOICES.openai.female;
  }
  return ELEVENLABS_FEMALE.has(v) ? STAND_IN_VOICES.elevenlabs.female : STAND_IN_VOICES.elevenlabs.male;
}

/** Accepts an eSpeak voice name ("en-us+f3") or a cloud voice name ("alloy", "adam"). */
function resolveVoice(voiceId: string): string {
  const v = voiceId.trim();
  const lower = v.toLowerCase();
  if (lower === 'alloy') return offlineVoiceFor('openai', 'alloy');
  if (lower === 'adam') return offlineVoiceFor('elevenlabs', 'adam');
  if (!/^[A-Za-z0-9_-]+(?:\+[A-Za-z0-9_-]+)?$/.test(v)) {
    throw new TtsError(`eSpeak-NG voice name "${voiceId}" is not valid`, {
      retryable: false,
      code: 'invalid_input',
      engine: 'espeak-ng',
    });
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Engine

export interface EspeakOptions {
  /** How the engine speaks and encodes: the process's chosen path (speech-paths.ts). */
  path: SpeechPath;
  /** Speaking rate in words per minute (eSpeak default 175). */
  rate?: number;
  /**
   * Max characters per call (default 300: a few sentences). A call has a fixed cost, so one call
   * per sentence would make synthesis, not MP3 encoding, the bottleneck; a few sentences per call
   * keep timings within a few seconds.
   */
  maxCharsPerRequest?: number;
}

export interface EspeakEngine extends TtsEngine {
  readonly name: 'espeak-ng';
  /** The path it speaks through ('native' or 'portable'). */
  readonly backend: SpeechPathName;
}

/** Throws the engine's error for a text no request may carry. */
function checkText(text: string, maxChars: number): void {
  if (text.trim() === '') {
    throw new TtsError('Nothing to synthesize: the text is empty', {
      retryable: false,
      code: 'invalid_input',
      engine: 'espeak-ng',
    });
  }
  if (text.length > maxChars) {
    throw new TtsError(`Text too long for eSpeak-NG: ${text.length} characters, the limit is ${maxChars} per request`, {
      retryable: false,
      code: 'invalid_input',
      engine: 'espeak-ng',
    });
  }
}

export function createEspeakEngine(options: EspeakOptions): EspeakEngine {
  const { path } = options;
  const rate = Math.round(options.rate ?? 175);
  if (!(rate >= 80 && rate <= 450)) throw new RangeError(`eSpeak rate ${rate} is outside 80-450 wpm`);
  const maxChars = options.maxCharsPerRequest ?? 300;
  // A portable call is one line of eSpeak's line mode: at most 3 UTF-8 bytes per UTF-16 unit.
  if (!(maxChars >= 1 && maxChars * 3 <= MAX_LINE_BYTES)) {
    throw new RangeError(`eSpeak maxCharsPerRequest ${maxChars} is outside 1-${Math.floor(MAX_LINE_BYTES / 3)}`);
  }

  async function synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Speech> {
    if (signal?.aborted) throw abortedError(signal);
    checkText(text, maxChars);
    const out = await path.say(resolveVoice(voiceId), rate, text, signal);
    const words = hostWordTimings(text, out.words, out.samples.length, out.sampleRate);
    return { samples: out.samples, sampleRate: out.sampleRate, words };
  }

  const openStream = path.openStream;
  /** The native path: MP3 streams its hosts encode, only their MP3 coming back. */
  async function openEncodedStream(
    voiceId: string,
    kbpsFor: (sampleRate: number) => number,
    signal?: AbortSignal,
  ): Promise<EncodedSpeechStream> {
    const voice = resolveVoice(voiceId);
    const stream = await openStream!.call(path, kbpsFor, signal);
    return {
      sampleRate: stream.sampleRate,
      async speak(text, speakSignal) {
        checkText(text, maxChars);
        const out = await stream.speak(voice, rate, text, speakSignal);
        const words = hostWordTimings(text, out.words, out.samples, out.sampleRate);
        return { mp3: out.mp3, samples: out.samples, sampleRate: out.sampleRate, words };
      },
      finish: () => stream.finish(),
      close: () => stream.close(),
    };
  }

  // Two requests of each text at once keep its voice busy while the one before is handed on.
  return {
    name: 'espeak-ng',
    maxCharsPerRequest: maxChars,
    concurrency: 2,
    backend: path.name,
    synthesize,
    ...(openStream !== undefined && { openEncodedStream }),
  };
}
