import { readToken } from '../../entities/session';
import { BrowserAudioIO, browserRecognizer, WebSocketTransport } from '../../voice-transport/index';
import { runtime, type VoiceAssistantDeps } from './store';

/** The browser's own parts (what each is: VoiceAssistantDeps, store.ts). */
const defaultDeps: VoiceAssistantDeps = {
  createTransport: () => new WebSocketTransport(),
  createAudio: () => new BrowserAudioIO(),
  getToken: readToken,
  location: () => window.location.href,
  isSecureContext: () => (typeof window === 'undefined' ? true : window.isSecureContext),
  speechRecognition: browserRecognizer,
};

/** The browser parts in force (kept in the store's runtime holder). */
export function deps(): VoiceAssistantDeps {
  return runtime.deps ?? defaultDeps;
}

/** Inject the transport, audio and token source (stories, tests); `null` restores the real ones. */
export function configureVoiceAssistant(patch: Partial<VoiceAssistantDeps> | null): void {
  runtime.deps = patch ? { ...deps(), ...patch } : null;
}
