import { describe, expect, it } from 'vitest';
import { withCast } from './cast';

const request = {
  title: 'Rainy Farm',
  content: 'text',
  voice_config: { provider: 'offline' as const, voice_id: 'en-us+f3' },
};

describe('withCast', () => {
  it('leaves the request as it was when the switch is off', () => {
    expect(withCast(request, false, { marta: 'en-gb+f4' })).toBe(request);
  });

  it('asks for a full cast, with the voices chosen for characters when there are some', () => {
    expect(withCast(request, true).voice_config).toEqual({ provider: 'offline', voice_id: 'en-us+f3', cast: true });
    expect(withCast(request, true, { marta: 'en-gb+f4' }).voice_config).toEqual({
      provider: 'offline',
      voice_id: 'en-us+f3',
      cast: true,
      cast_voices: { marta: 'en-gb+f4' },
    });
  });
});
