import os from 'node:os';
import { flag, httpUrl, integer, oneOf, section, text } from './declare';

/** Speech: the cloud voices' keys and addresses, and the MP3 encoder (the offline voice needs nothing). */
export const voicesSection = section({
  title: 'Voices and audio',
  variables: {
    openaiApiKey: text(
      'OPENAI_API_KEY',
      {},
      'OpenAI key for cloud voices. Without it (and without ELEVENLABS_API_KEY) the server runs in demo mode.',
    ),
    elevenlabsApiKey: text('ELEVENLABS_API_KEY', {}, 'ElevenLabs key for cloud voices.'),
    openaiBaseUrl: httpUrl(
      'OPENAI_BASE_URL',
      '(OpenAI)',
      'Base URL of an OpenAI-compatible speech API (for a proxy or a local server).',
    ),
    elevenlabsBaseUrl: httpUrl('ELEVENLABS_BASE_URL', '(ElevenLabs)', 'Base URL of the ElevenLabs API (for a proxy).'),
    encoderThreads: integer(
      'ENCODER_THREADS',
      { min: 0, max: 64, default: os.availableParallelism(), shown: '(CPU count)' },
      'Worker threads that encode MP3 with LAME WebAssembly (0-64; unused with a native `lame`); 0 encodes on the main thread. One per CPU by default: the offline voice speaks in threads of its own, and a long text is encoded as this many streams at once. Each thread costs about 25 MB.',
    ),
    mp3Encoder: oneOf(
      'MP3_ENCODER',
      ['auto', 'native', 'wasm'] as const,
      { default: 'auto' },
      "'auto': a native `lame` binary on PATH encodes MP3 (a process per stream, about 2.5x faster than WebAssembly) when there is one, else LAME WebAssembly in the ENCODER_THREADS worker threads. 'native' requires the binary; 'wasm' never uses it.",
    ),
    espeakEngine: oneOf(
      'ESPEAK_ENGINE',
      ['auto', 'native', 'wasm'] as const,
      { default: 'auto' },
      "'auto': a native `espeak-ng` binary on PATH speaks the offline voice (about 2x faster per core than WebAssembly) when there is one, else eSpeak-NG WebAssembly in worker threads, one per CPU. 'native' requires the binary; 'wasm' never uses it.",
    ),
    espeakKeepRunning: flag(
      'ESPEAK_KEEP_RUNNING',
      { default: true },
      "With the native `espeak-ng`: keep eSpeak-NG running (a few `espeak-host` processes, one per CPU, built at first use with the machine's C compiler against libespeak-ng, package libespeak-ng-dev) instead of starting `espeak-ng` per request; it also times each word for the read-along, and, built with LAME's headers too (package libmp3lame-dev), encodes the MP3 itself when the MP3 encoder is native. Without a compiler or eSpeak-NG's headers the server says so once in its log and starts `espeak-ng` per request; 'false' always does.",
    ),
    exportFfmpeg: oneOf(
      'EXPORT_FFMPEG',
      ['auto', 'native', 'bundled'] as const,
      { default: 'auto' },
      "The ffmpeg that encodes the M4B download and converts covers. 'auto': `ffmpeg` on PATH when there is one (Debian's package, usually newer), else the static FFmpeg 4.1 shipped inside the @ffmpeg-installer/ffmpeg npm package (works after `npm install` alone). 'native' requires the one on PATH; 'bundled' always uses the package's.",
    ),
  },
});
