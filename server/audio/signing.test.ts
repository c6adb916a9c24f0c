import { signMediaUrl, verifyMediaSignature } from './signing';

const SECRET = 'test-secret-0123456789';

function parts(url: string): { path: string; expires: string; sig: string } {
  const u = new URL(url, 'http://localhost');
  return { path: u.pathname, expires: u.searchParams.get('expires')!, sig: u.searchParams.get('sig')! };
}

describe('media URL signing', () => {
  it('signs a per-segment-encoded URL that verifies until it expires', () => {
    const url = signMediaUrl('books/42/ch 1.mp3', 1_700_000_600, SECRET);
    expect(url.startsWith('/api/v1/media/books/42/ch%201.mp3?expires=1700000600&sig=')).toBe(true);
    const { path, expires, sig } = parts(url);
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/); // base64url SHA-256, no padding
    const key = path.slice('/api/v1/media/'.length).split('/').map(decodeURIComponent).join('/');
    expect(key).toBe('books/42/ch 1.mp3');
    expect(verifyMediaSignature(key, expires, sig, SECRET, 1_700_000_000)).toBe('ok');
    expect(verifyMediaSignature(key, Number(expires), sig, SECRET, 1_700_000_599)).toBe('ok');
    expect(verifyMediaSignature(key, expires, sig, SECRET, 1_700_000_600)).toBe('expired');
    expect(verifyMediaSignature(key, expires, sig, SECRET, 1_800_000_000)).toBe('expired');
  });

  it('rejects tampering with the key, the expiry, the signature or the secret', () => {
    const { expires, sig } = parts(signMediaUrl('books/42/ch-1.mp3', 2000, SECRET));
    const now = 1000;
    expect(verifyMediaSignature('books/42/ch-2.mp3', expires, sig, SECRET, now)).toBe('invalid');
    expect(verifyMediaSignature('books/42/ch-1.mp3', '2001', sig, SECRET, now)).toBe('invalid');
    expect(verifyMediaSignature('books/42/ch-1.mp3', '02000', sig, SECRET, now)).toBe('invalid');
    expect(
      verifyMediaSignature(
        'books/42/ch-1.mp3',
        expires,
        `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
        SECRET,
        now,
      ),
    ).toBe('invalid');
    expect(verifyMediaSignature('books/42/ch-1.mp3', expires, sig.slice(0, 10), SECRET, now)).toBe('invalid');
    expect(verifyMediaSignature('books/42/ch-1.mp3', expires, sig, 'other-secret', now)).toBe('invalid');
    expect(verifyMediaSignature('books/42/ch-1.mp3', undefined, sig, SECRET, now)).toBe('invalid');
    expect(verifyMediaSignature('books/42/ch-1.mp3', expires, undefined, SECRET, now)).toBe('invalid');
    // A forged URL is 'invalid' even when its expiry is in the past.
    expect(verifyMediaSignature('books/42/ch-1.mp3', '10', sig, SECRET, now)).toBe('invalid');
  });

  it('refuses to sign with a bad expiry or an empty secret', () => {
    expect(() => signMediaUrl('a.mp3', 1.5, SECRET)).toThrow();
    expect(() => signMediaUrl('a.mp3', 100, '')).toThrow();
  });
});
