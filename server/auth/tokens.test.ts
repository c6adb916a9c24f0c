import { describe, expect, it } from 'vitest';
import { manualClock } from '../testing/app';
import { createTokenService } from './tokens';

// A token checked once is kept as good until it expires: the kept answer must be the one a fresh
// check would give, for the same token, a tampered copy of it and an expired one.
describe('the token service', () => {
  const secret = new TextEncoder().encode('a-secret-of-at-least-thirty-two-bytes!!');

  it('keeps accepting a checked token until its expiry, then says it expired, as a fresh check would', async () => {
    const clock = manualClock();
    const tokens = createTokenService({ secret, ttlSeconds: 600, now: clock.now });
    const { token } = await tokens.issue('user-1', 3);
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', generation: 3 });
    clock.advance(599);
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', generation: 3 });
    clock.advance(1);
    await expect(tokens.verify(token)).rejects.toThrow('Token expired');
    await expect(tokens.verify(token)).rejects.toThrow('Token expired');
    // Another service (a fresh process) with the same secret says the same.
    const fresh = createTokenService({ secret, ttlSeconds: 600, now: clock.now });
    await expect(fresh.verify(token)).rejects.toThrow('Token expired');
  });

  it('refuses a tampered copy of a token it has accepted', async () => {
    const tokens = createTokenService({ secret, ttlSeconds: 600, now: manualClock().now });
    const { token } = await tokens.issue('user-1');
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const otherUser = Buffer.from(JSON.stringify({ ...claims, sub: 'user-2' })).toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    for (const forged of [`${header}.${otherUser}.${signature}`, `${header}.${payload}.${flipped}`]) {
      await expect(tokens.verify(forged)).rejects.toThrow('Invalid token');
    }
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', generation: 0 });
  });
});
