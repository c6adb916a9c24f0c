import { describe, expect, it } from 'vitest';
import type { VoiceListOutput } from '../../api/gen/model';
import { groupVoices, initialChoice, languageLabel, rememberedVoice, rememberVoice, VOICE_STORAGE_KEY } from './choice';

const voice = (provider: 'offline' | 'openai_compatible', id: string, isDefault = false) => ({
  provider,
  id,
  name: id,
  language: 'en-US',
  sample_url: `/api/v1/voices/${provider}/${id}/sample`,
  default: isDefault,
});

const list: VoiceListOutput = {
  voices: [
    voice('openai_compatible', 'af_heart', true),
    voice('openai_compatible', 'bm_george'),
    voice('offline', 'en-us+f3'),
  ],
  sources: [
    { provider: 'openai_compatible', name: 'Kokoro', status: 'ready' },
    { provider: 'offline', name: 'Offline voice', status: 'ready' },
  ],
};

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('the voice to start with', () => {
  it('is the current choice when offered, else the remembered one, else the default', () => {
    const george = { provider: 'openai_compatible' as const, voiceId: 'bm_george' };
    const offline = { provider: 'offline' as const, voiceId: 'en-us+f3' };
    expect(initialChoice(list, george, offline)).toEqual(george);
    expect(initialChoice(list, null, offline)).toEqual(offline);
    // A remembered voice the server no longer offers gives way to the default.
    expect(initialChoice(list, null, { provider: 'openai_compatible', voiceId: 'gone' })).toEqual({
      provider: 'openai_compatible',
      voiceId: 'af_heart',
    });
    expect(initialChoice({ voices: [], sources: [] }, null, null)).toBeNull();
  });

  it('is remembered in the browser between visits, and a damaged entry is ignored', () => {
    const storage = memoryStorage();
    expect(rememberedVoice(storage)).toBeNull();
    rememberVoice({ provider: 'offline', voiceId: 'en-gb+m3' }, storage);
    expect(rememberedVoice(storage)).toEqual({ provider: 'offline', voiceId: 'en-gb+m3' });
    storage.setItem(VOICE_STORAGE_KEY, '{not json');
    expect(rememberedVoice(storage)).toBeNull();
  });
});

describe("the picker's groups", () => {
  it('follow the sources in order, each with its voices', () => {
    expect(groupVoices(list).map((g) => [g.source.name, g.voices.map((v) => v.id)])).toEqual([
      ['Kokoro', ['af_heart', 'bm_george']],
      ['Offline voice', ['en-us+f3']],
    ]);
  });

  it('name languages in words', () => {
    expect(languageLabel('en-GB')).toBe('British English');
    expect(languageLabel('und')).toBe('');
  });
});
