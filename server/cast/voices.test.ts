import { describe, expect, it } from 'vitest';
import { OFFLINE_VOICES } from '../tts/offline-voices';
import { assignVoices, voiceGender } from './voices';

const offline = OFFLINE_VOICES.map((v) => ({ provider: 'offline' as const, id: v.id, name: v.name }));
const kokoro = ['af_heart', 'af_bella', 'bm_george', 'am_adam'].map((id) => ({
  provider: 'openai_compatible' as const,
  id,
  name: id,
}));

describe('voiceGender', () => {
  it('reads an eSpeak-NG variant by its name and a Kokoro voice by its id', () => {
    expect(voiceGender({ provider: 'offline', id: 'en-us+f3', name: 'US English, female' })).toBe('female');
    expect(voiceGender({ provider: 'offline', id: 'en-gb+m3', name: 'UK English, male' })).toBe('male');
    expect(voiceGender({ provider: 'offline', id: 'en-us+klatt4', name: 'US English, Klatt (smoother)' })).toBe(
      'unknown',
    );
    expect(voiceGender({ provider: 'openai_compatible', id: 'af_heart', name: 'Heart' })).toBe('female');
    expect(voiceGender({ provider: 'openai_compatible', id: 'bm_george', name: 'George' })).toBe('male');
    expect(voiceGender({ provider: 'openai_compatible', id: 'custom', name: 'custom' })).toBe('unknown');
    expect(voiceGender({ provider: 'openai', id: 'nova', name: 'Nova' })).toBe('unknown');
  });
});

describe('assignVoices', () => {
  it("gives each character a voice of their gender, never the narrator's, the most lines choosing first", () => {
    const chosen = assignVoices(
      'en-us+f3',
      [
        { id: 'tom', gender: 'male', lines: 3 },
        { id: 'alice', gender: 'female', lines: 9 },
        { id: 'bob', gender: 'male', lines: 5 },
      ],
      offline,
    );
    expect(chosen.get('alice')).toBe('en-gb+f4');
    expect(chosen.get('bob')).toBe('en-us+m3');
    expect(chosen.get('tom')).toBe('en-gb+m3');
    expect(new Set(chosen.values()).size).toBe(3);
    expect([...chosen.values()]).not.toContain('en-us+f3');
  });

  it('keeps voices distinct before it matches genders, and shares only once every voice is taken', () => {
    const characters = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, gender: 'female' as const, lines: 10 - i }));
    const chosen = assignVoices('af_heart', characters, kokoro);
    // Kokoro has one other female voice: the next characters get the male voices, then share.
    expect(chosen.get('a')).toBe('af_bella');
    expect(new Set(['b', 'c'].map((id) => chosen.get(id)))).toEqual(new Set(['bm_george', 'am_adam']));
    expect(chosen.get('d')).toBe('af_bella');
    expect([...chosen.values()]).not.toContain('af_heart');
  });

  it("reads everyone in the narrator's voice when the source has no other", () => {
    const chosen = assignVoices(
      'alloy',
      [{ id: 'x', gender: 'unknown', lines: 1 }],
      [{ provider: 'openai', id: 'alloy', name: 'Alloy' }],
    );
    expect(chosen.get('x')).toBe('alloy');
    expect(assignVoices('alloy', [{ id: 'y', gender: 'male', lines: 1 }], []).get('y')).toBe('alloy');
  });
});

describe('assignVoices, a character of unknown gender', () => {
  it('chooses after the characters as frequent whose gender is known', () => {
    const kokoroVoices = ['af_heart', 'af_bella', 'bm_george'].map((id) => ({
      provider: 'openai_compatible' as const,
      id,
      name: id,
    }));
    const chosen = assignVoices(
      'af_heart',
      [
        { id: 'someone', gender: 'unknown', lines: 2 },
        { id: 'mary', gender: 'female', lines: 2 },
      ],
      kokoroVoices,
    );
    expect(chosen.get('mary')).toBe('af_bella');
    expect(chosen.get('someone')).toBe('bm_george');
  });
});
