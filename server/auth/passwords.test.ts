import { createPasswordHasher, OWASP_SCRYPT } from './passwords';

describe('password hashing', () => {
  const hasher = createPasswordHasher();

  it('stores an OWASP-strength scrypt hash that uses 32 MiB, never the password', async () => {
    const stored = await hasher.hash('correct horse battery staple');
    const [scheme, N, r, p, salt, hash] = stored.split('$');
    expect([scheme, Number(N), Number(r), Number(p)]).toEqual(['scrypt', 2 ** 15, 8, 3]);
    expect(128 * OWASP_SCRYPT.N * OWASP_SCRYPT.r).toBe(32 * 1024 * 1024);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64')).toHaveLength(32);
    expect(stored).not.toContain('horse');
    expect(await hasher.hash('correct horse battery staple')).not.toBe(stored); // salted
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hasher.hash('s3cret-enough');
    expect(await hasher.verify('s3cret-enough', stored)).toBe(true);
    expect(await hasher.verify('s3cret-enougH', stored)).toBe(false);
  });

  it('still verifies hashes stored with the earlier N=2^17, p=1 setting', async () => {
    const earlier = createPasswordHasher({ N: 2 ** 17, r: 8, p: 1 });
    const stored = await earlier.hash('kept from before');
    expect(stored.startsWith('scrypt$131072$8$1$')).toBe(true);
    expect(await hasher.verify('kept from before', stored)).toBe(true);
  });

  it('refuses tampered or absurd stored parameters instead of hashing with them', async () => {
    const stored = await hasher.hash('pw-pw-pw-pw');
    const parts = stored.split('$');
    for (const bad of [
      ['scrypt', String(2 ** 24), ...parts.slice(2)],
      ['scrypt', '1000', ...parts.slice(2)],
      ['bcrypt', ...parts.slice(1)],
      parts.slice(0, 5),
    ]) {
      expect(await hasher.verify('pw-pw-pw-pw', bad.join('$'))).toBe(false);
    }
  });
});
