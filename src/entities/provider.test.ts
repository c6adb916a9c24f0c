import { describe, expect, it } from 'vitest';
import { jobProvider, providerLabel, voiceLabel, voiceLabelText } from './provider';

describe('jobProvider', () => {
  it('takes the voice config first, as the server synthesises with it', () => {
    expect(jobProvider({ config: { provider: 'openai', voice_config: { provider: 'elevenlabs' } } })).toBe(
      'elevenlabs',
    );
  });

  it('falls back to the job provider, then to OpenAI', () => {
    expect(jobProvider({ config: { provider: 'elevenlabs' } })).toBe('elevenlabs');
    expect(jobProvider({ config: {} })).toBe('openai');
  });

  it('labels each provider for people', () => {
    expect(providerLabel[jobProvider({ config: { voice_config: { provider: 'elevenlabs' } } })]).toBe('ElevenLabs');
  });
});

describe('voiceLabel', () => {
  const asked = (provider: 'openai' | 'elevenlabs' | 'offline' | 'openai_compatible', tts_engine?: string) => ({
    config: { provider },
    result_data: tts_engine ? { tts_engine } : {},
  });

  it('says the offline voice spoke when it did, with the voice that was asked for', () => {
    const voice = voiceLabel(asked('openai', 'espeak-ng'));
    expect(voiceLabelText(voice)).toBe('Offline voice · requested OpenAI');
    expect(voice.tone).toBe('neutral');
    expect(voiceLabelText(voiceLabel(asked('elevenlabs', 'espeak-ng'), false))).toBe(
      'Offline voice · requested ElevenLabs',
    );
  });

  it('names the cloud voice that spoke, with nothing more', () => {
    expect(voiceLabelText(voiceLabel(asked('openai', 'openai')))).toBe('OpenAI');
    expect(voiceLabel(asked('elevenlabs', 'elevenlabs'))).toEqual({
      label: 'ElevenLabs',
      requested: null,
      tone: 'success',
    });
  });

  it('names a voice source it does not know as the server does', () => {
    expect(voiceLabel(asked('openai', 'piper-tts'))).toEqual({ label: 'Piper tts', requested: null, tone: 'neutral' });
  });

  it('before anything spoke: the offline voice in demo mode, else the provider asked for', () => {
    expect(voiceLabelText(voiceLabel(asked('openai'), true))).toBe('Offline voice · requested OpenAI');
    expect(voiceLabelText(voiceLabel(asked('openai'), false))).toBe('OpenAI');
    // What really spoke wins over the mode: a book made with a key before it was removed.
    expect(voiceLabelText(voiceLabel(asked('openai', 'openai'), true))).toBe('OpenAI');
  });

  it('says the offline voice chosen on purpose and the voice server as themselves, stood in for by nothing', () => {
    expect(voiceLabelText(voiceLabel(asked('offline', 'espeak-ng')))).toBe('Offline voice');
    expect(voiceLabelText(voiceLabel(asked('offline'), true))).toBe('Offline voice');
    expect(voiceLabelText(voiceLabel(asked('openai_compatible', 'openai_compatible')))).toBe('Voice server');
    // In demo mode a voice server's book still says who reads it.
    expect(voiceLabelText(voiceLabel(asked('openai_compatible'), true))).toBe('Voice server');
  });
});
