/**
 * Interop: the published Pipecat client (@pipecat-ai/client-js PipecatClient with
 * @pipecat-ai/websocket-transport WebSocketTransport) talks to our server in Node. Browser-only
 * parts are replaced by small shims: the global WebSocket is `ws` (binaryType 'blob'), and the transport's media
 * manager (AudioContext, microphone, AudioWorklet playback) is a stand-in that records the bot
 * audio the transport hands it instead of playing it.
 */
import WebSocket from 'ws';
import { memoryBookSource } from './books';
import { HEARD_POSITION, rochesterBook, rochesterText } from '../testing/assistant-fixtures';
import { serveVoiceAssistant, type ServedAssistant } from '../testing/voice-socket';
import { createEspeakEngine } from '../tts/espeak';
import { portableSpeechPath } from '../tts/speech-paths';
import { createVoiceAssistant, offlineSynthesizer, type VoiceAssistant } from './service';

const speechPath = portableSpeechPath(1);
const offlineVoice = createEspeakEngine({ path: speechPath });

/** Records bot audio; no devices. Implements the transport's MediaManager contract. */
class RecordingMediaManager {
  botAudio: Int16Array[] = [];
  protected _userAudioCallback: (data: ArrayBuffer) => void = () => undefined;
  protected _options: unknown;
  protected _callbacks: unknown = {};
  protected _micEnabled = false;
  protected _camEnabled = false;
  protected _supportsScreenShare = false;
  setUserAudioCallback(cb: (data: ArrayBuffer) => void) {
    this._userAudioCallback = cb;
  }
  setClientOptions(options: { callbacks?: unknown }) {
    this._options = options;
    this._callbacks = options.callbacks ?? {};
  }
  async initialize() {}
  async connect() {}
  async disconnect() {}
  async userStartedSpeaking() {
    return undefined;
  }
  bufferBotAudio(data: ArrayBuffer | Int16Array) {
    const pcm = data instanceof Int16Array ? data : new Int16Array(data);
    this.botAudio.push(pcm);
    return pcm;
  }
  async getAllMics() {
    return [];
  }
  async getAllCams() {
    return [];
  }
  async getAllSpeakers() {
    return [];
  }
  updateMic() {}
  updateCam() {}
  updateSpeaker() {}
  get selectedMic() {
    return {};
  }
  get selectedCam() {
    return {};
  }
  get selectedSpeaker() {
    return {};
  }
  enableMic() {}
  enableCam() {}
  enableScreenShare() {}
  get isCamEnabled() {
    return false;
  }
  get isMicEnabled() {
    return false;
  }
  get isSharingScreen() {
    return false;
  }
  get supportsScreenShare() {
    return false;
  }
  tracks() {
    return { local: {} };
  }
}

const book = rochesterBook();
let assistant: VoiceAssistant;
let served: ServedAssistant;
let url: string;

beforeAll(async () => {
  // A browser WebSocket delivers binary messages as Blobs, which the transport's serializer expects.
  class BrowserLikeWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols);
      (this as unknown as { binaryType: string }).binaryType = 'blob';
    }
  }
  (globalThis as { WebSocket?: unknown }).WebSocket = BrowserLikeWebSocket;
  (globalThis as { window?: unknown }).window ??= globalThis;
  assistant = createVoiceAssistant({
    books: memoryBookSource([{ userId: 'ann', book, text: rochesterText(), position: HEARD_POSITION }]),
    offlineVoice,
  });
  served = await serveVoiceAssistant(assistant, 'ann');
  url = served.url;
  await offlineSynthesizer(offlineVoice)('Ready.', new AbortController().signal);
}, 30_000);
afterAll(async () => {
  await served.close();
  await speechPath.close();
});

describe('the published Pipecat client', () => {
  it('connects (bot-ready), sends a typed question and receives the answer and bot audio', async () => {
    const { PipecatClient, logger, LogLevel } = await import('@pipecat-ai/client-js');
    logger.setLevel(LogLevel.NONE);
    const { WebSocketTransport } = await import('@pipecat-ai/websocket-transport');
    await assistant.sessions.start('ann', { mode: 'xray', jobId: book.id });
    const media = new RecordingMediaManager();
    const outputs: string[] = [];
    let stopped!: () => void;
    const botStopped = new Promise<void>((r) => (stopped = r));
    const transport = new WebSocketTransport({ mediaManager: media as never });
    const client = new PipecatClient({
      transport,
      enableMic: false,
      enableCam: false,
      callbacks: {
        onBotOutput: (data: { text: string }) => outputs.push(data.text),
        onBotStoppedSpeaking: () => stopped(),
      },
    } as never);
    const ready = (await client.connect({ wsUrl: url } as never)) as { version?: string; about?: { library?: string } };
    expect(ready).toMatchObject({ version: '2.1.0', about: { library: 'lectio' } });
    expect(client.state).toBe('ready');

    await client.sendText('Who is Mr. Rochester?');
    await botStopped;
    expect(outputs).toEqual(["Mr. Rochester hasn't appeared in what you've heard so far — keep listening!"]);
    expect(media.botAudio.length).toBeGreaterThan(20);
    expect(media.botAudio.every((pcm) => pcm.length === 960)).toBe(true);
    await client.disconnect();
  }, 30_000);
});
