import os from 'node:os';
import { httpUrl, integer, oneOf, section, text } from './declare';

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
      'Worker threads that encode MP3 with LAME WebAssembly (0-64): the cloud voices, and the offline voice on its portable path; 0 encodes on the main thread (the same encoder, for tests and tiny machines). One per CPU by default: a long text is encoded as this many streams at once. Each thread costs about 25 MB.',
    ),
    espeakEngine: oneOf(
      'ESPEAK_ENGINE',
      ['auto', 'native', 'portable'] as const,
      { default: 'auto' },
      "How the offline voice (eSpeak-NG) speaks and encodes, chosen once at start. 'native': eSpeak-NG kept running in a few `espeak-host` processes (one per CPU) that also encode the MP3 with LAME, built with the machine's C compiler against eSpeak-NG 1.52 (`npm run setup:espeak-ng`, or libespeak-ng-dev on Debian 13) and libmp3lame (libmp3lame-dev) or found built; the server does not start without it. 'portable': eSpeak-NG and LAME compiled to WebAssembly, in worker threads; needs nothing but Node. 'auto': native where it can be built, else portable (the log says why). Both run the same eSpeak-NG on the same voice data, so a book sounds and is timed the same on either.",
    ),
    exportFfmpeg: oneOf(
      'EXPORT_FFMPEG',
      ['auto', 'native', 'bundled'] as const,
      { default: 'auto' },
      "The ffmpeg that encodes the M4B download and converts covers. 'auto': `ffmpeg` on PATH when there is one (Debian's package, usually newer), else the static FFmpeg 4.1 shipped inside the @ffmpeg-installer/ffmpeg npm package (works after `npm install` alone). 'native' requires the one on PATH; 'bundled' always uses the package's.",
    ),
  },
});
