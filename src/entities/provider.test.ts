import { describe, expect, it } from 'vitest';
import { jobProvider, providerLabel } from './provider';

describe('jobProvider', () => {
  it('takes the voice config first, as the server synthesises with it', () => {
    expect(jobProvider({ config: { provider: 'openai', voice_config: { provider: 'elevenlabs' } } })).toBe('elevenlabs');
  });

  it('falls back to the job provider, then to OpenAI', () => {
    expect(jobProvider({ config: { provider: 'elevenlabs' } })).toBe('elevenlabs');
    expect(jobProvider({ config: {} })).toBe('openai');
  });

  it('labels each provider for people', () => {
    expect(providerLabel[jobProvider({ config: { voice_config: { provider: 'elevenlabs' } } })]).toBe('ElevenLabs');
  });
});
