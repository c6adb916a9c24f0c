import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserRecognizer, type RecognizerEvents } from './recognition';

/** A stand-in for the browser's SpeechRecognition: records starts and aborts, and plays events. */
class FakeSpeechRecognition {
  static made: FakeSpeechRecognition[] = [];
  continuous = false;
  interimResults = true;
  lang = '';
  starts = 0;
  aborts = 0;
  onresult: ((event: unknown) => void) | null = null;
  onspeechstart: (() => void) | null = null;
  onspeechend: (() => void) | null = null;
  onerror: ((event: { error: string; message?: string }) => void) | null = null;
  onend: (() => void) | null = null;
  constructor() {
    FakeSpeechRecognition.made.push(this);
  }
  start() {
    this.starts += 1;
  }
  abort() {
    this.aborts += 1;
    this.onend?.();
  }
  /** The browser heard `texts` (final or not) in one result event. */
  hear(results: { text: string; final: boolean }[], resultIndex = 0) {
    const list = results.map(({ text, final }) =>
      Object.assign([{ transcript: text, confidence: 0.9 }], { isFinal: final }),
    );
    this.onresult?.({ resultIndex, results: list });
  }
}

function events(): RecognizerEvents & { finals: string[]; problems: string[] } {
  const finals: string[] = [];
  const problems: string[] = [];
  return {
    finals,
    problems,
    onFinal: (text) => finals.push(text),
    onSpeech: () => {},
    onError: (problem) => problems.push(problem),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeSpeechRecognition.made = [];
});

describe('the browser speech recognition', () => {
  it('is null where the browser offers none', () => {
    vi.stubGlobal('SpeechRecognition', undefined);
    vi.stubGlobal('webkitSpeechRecognition', undefined);
    expect(browserRecognizer()).toBeNull();
  });

  it('listens continuously, hands over final results only, and listens again after the browser stops', () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeSpeechRecognition);
    const heard = events();
    const recognizer = browserRecognizer()!(heard);
    const browser = FakeSpeechRecognition.made[0]!;
    expect(browser.continuous).toBe(true);
    recognizer.start();
    expect(browser.starts).toBe(1);
    browser.hear([
      { text: ' Who is Mara? ', final: true },
      { text: 'and the', final: false },
    ]);
    expect(heard.finals).toEqual(['Who is Mara?']);
    // A silence ends the browser's session: it is started again.
    browser.onend?.();
    expect(browser.starts).toBe(2);
    // Paused while the assistant speaks: nothing is started until it resumes.
    recognizer.pause(true);
    expect(browser.aborts).toBe(1);
    expect(browser.starts).toBe(2);
    recognizer.pause(false);
    expect(browser.starts).toBe(3);
    recognizer.stop();
    expect(browser.aborts).toBe(2);
    expect(browser.starts).toBe(3);
  });

  it('stops for good when permission is denied; a silence is no error', () => {
    vi.stubGlobal('SpeechRecognition', FakeSpeechRecognition);
    const heard = events();
    const recognizer = browserRecognizer()!(heard);
    const browser = FakeSpeechRecognition.made[0]!;
    recognizer.start();
    browser.onerror?.({ error: 'no-speech' });
    browser.onend?.();
    expect(heard.problems).toEqual([]);
    expect(browser.starts).toBe(2);
    browser.onerror?.({ error: 'not-allowed' });
    browser.onend?.();
    expect(heard.problems).toEqual(['denied']);
    expect(browser.starts).toBe(2);
  });
});
