/**
 * The browser's own speech recognition (the Web Speech API: SpeechRecognition, prefixed
 * webkitSpeechRecognition in Chrome, Edge and Safari), for a server without a speech service: the
 * browser hears the reader and hands over what they said as text (docs/voice-assistant.md#the-page).
 * Chrome and Edge send the audio to their maker's speech service; the page tells the reader so.
 */

/** What the recognizer reports. */
export interface RecognizerEvents {
  /** The reader finished saying something: the words, as the browser heard them. */
  onFinal(text: string): void;
  /** The reader started (true) or stopped (false) speaking. */
  onSpeech(speaking: boolean): void;
  /** Listening stopped for good: `denied` (no permission) or `unavailable` (no service, no microphone). */
  onError(problem: 'denied' | 'unavailable', detail: string): void;
}

export interface Recognizer {
  /** Starts listening, and keeps listening (restarting after the browser's pauses) until stop. */
  start(): void;
  /** Paused: nothing is heard (while the assistant speaks, so it does not hear itself). */
  pause(paused: boolean): void;
  stop(): void;
}

export type RecognizerFactory = (events: RecognizerEvents) => Recognizer;

/** The part of the Web Speech API's SpeechRecognition this uses. */
interface SpeechRecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: SpeechRecognitionEvent) => void) | null;
  onspeechstart: (() => void) | null;
  onspeechend: (() => void) | null;
  onerror: ((event: { error: string; message?: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  abort(): void;
}
type SpeechRecognitionConstructor = new () => SpeechRecognitionLike;

/** The browser's SpeechRecognition constructor; null where the browser offers none (Firefox). */
function speechRecognitionConstructor(): SpeechRecognitionConstructor | null {
  if (typeof window === 'undefined') return null;
  const w = window as unknown as Record<string, unknown>;
  const ctor = w.SpeechRecognition ?? w.webkitSpeechRecognition;
  return typeof ctor === 'function' ? (ctor as SpeechRecognitionConstructor) : null;
}

/** Errors after which listening cannot go on. */
const DENIED = new Set(['not-allowed', 'service-not-allowed']);
const UNAVAILABLE = new Set(['audio-capture', 'network', 'language-not-supported']);

/** A recognizer over the browser's speech recognition; null when the browser offers none. */
export function browserRecognizer(): RecognizerFactory | null {
  const Ctor = speechRecognitionConstructor();
  if (Ctor === null) return null;
  return (events) => {
    let running = false;
    let paused = false;
    let listening = false;
    const recognition = new Ctor();
    recognition.continuous = true;
    recognition.interimResults = false;
    recognition.lang = typeof navigator === 'undefined' ? 'en-US' : navigator.language || 'en-US';
    const listen = () => {
      if (!running || paused || listening) return;
      try {
        recognition.start();
        listening = true;
      } catch {
        // Already started: the browser's own state wins.
      }
    };
    recognition.onresult = (event) => {
      for (let i = event.resultIndex; i < event.results.length; i += 1) {
        const result = event.results[i];
        const text = result?.[0]?.transcript.trim() ?? '';
        if (result?.isFinal && text !== '') events.onFinal(text);
      }
    };
    recognition.onspeechstart = () => events.onSpeech(true);
    recognition.onspeechend = () => events.onSpeech(false);
    recognition.onerror = (event) => {
      if (!DENIED.has(event.error) && !UNAVAILABLE.has(event.error)) return; // no-speech, aborted: listen on
      running = false;
      events.onError(DENIED.has(event.error) ? 'denied' : 'unavailable', event.message || event.error);
    };
    // The browser stops after a silence or a result: listen again while the conversation runs.
    recognition.onend = () => {
      listening = false;
      listen();
    };
    return {
      start() {
        running = true;
        listen();
      },
      pause(value) {
        paused = value;
        if (value && listening) recognition.abort();
        else listen();
      },
      stop() {
        running = false;
        if (listening) recognition.abort();
      },
    };
  };
}
