import { readToken } from '../../entities/session';
import {
  BrowserAudioIO,
  browserRecognizer,
  WebSocketTransport,
  type AudioIO,
  type RecognizerFactory,
  type Transport,
} from '../../voice-transport/index';

/** What the voice assistant uses from the browser, swappable in stories and tests. */
export interface VoiceAssistantDeps {
  createTransport: () => Transport;
  createAudio: () => AudioIO;
  /** The stored access token (`access_token` in local or session storage; docs/product.md#session). */
  getToken: () => string | null;
  /** Base for relative connection URLs. */
  location: () => string;
  /** Whether the page may open a microphone at all (HTTPS or localhost). */
  isSecureContext: () => boolean;
  /** The browser's own speech recognition; null where it offers none. */
  speechRecognition: () => RecognizerFactory | null;
}

const defaultDeps: VoiceAssistantDeps = {
  createTransport: () => new WebSocketTransport(),
  createAudio: () => new BrowserAudioIO(),
  getToken: readToken,
  location: () => window.location.href,
  isSecureContext: () => (typeof window === 'undefined' ? true : window.isSecureContext),
  speechRecognition: browserRecognizer,
};

let current: VoiceAssistantDeps = { ...defaultDeps };

/** The browser parts in force. */
export function deps(): VoiceAssistantDeps {
  return current;
}

/** Inject the transport, audio and token source (stories, tests); `null` restores the real ones. */
export function configureVoiceAssistant(patch: Partial<VoiceAssistantDeps> | null): void {
  current = patch ? { ...current, ...patch } : { ...defaultDeps };
}
