import { createHmac, timingSafeEqual } from 'node:crypto';

/** Media URLs are short-lived capabilities: `/api/v1/media/<key>?expires=<unix s>&sig=<HMAC>`. */
export const MEDIA_URL_PREFIX = '/api/v1/media/';

function computeSignature(fileKey: string, expires: string, secret: string | Buffer): string {
  return createHmac('sha256', secret).update(`${fileKey}\n${expires}`).digest('base64url');
}

function encodeKey(fileKey: string): string {
  return fileKey.split('/').map(encodeURIComponent).join('/');
}

/** A signed URL path for `fileKey`, valid until `expiresAtUnixSeconds` (exclusive). */
export function signMediaUrl(fileKey: string, expiresAtUnixSeconds: number, secret: string | Buffer): string {
  if (!Number.isSafeInteger(expiresAtUnixSeconds) || expiresAtUnixSeconds < 0) {
    throw new RangeError(`expiresAtUnixSeconds must be a non-negative integer, got ${expiresAtUnixSeconds}`);
  }
  if (secret.length === 0) throw new Error('Media signing secret is empty');
  const expires = String(expiresAtUnixSeconds);
  const sig = computeSignature(fileKey, expires, secret);
  return `${MEDIA_URL_PREFIX}${encodeKey(fileKey)}?expires=${expires}&sig=${sig}`;
}

export type MediaSignatureCheck = 'ok' | 'expired' | 'invalid';

/**
 * Checks a signature from a media URL. `expires` is the query value (string or number), `now` is
 * unix seconds (defaults to the clock). A bad or missing signature is 'invalid' (checked first,
 * so a forged URL never learns whether it would have expired); a genuine URL at or after its
 * expiry instant is 'expired'.
 */
export function verifyMediaSignature(
  fileKey: string,
  expires: string | number | undefined,
  sig: string | undefined,
  secret: string | Buffer,
  now: number = Math.floor(Date.now() / 1000),
): MediaSignatureCheck {
  if (typeof sig !== 'string' || sig.length === 0 || expires === undefined) return 'invalid';
  const expiresText = String(expires);
  // Only the canonical form signMediaUrl produces: no signs, spaces, leading zeros or exponents.
  if (!/^(0|[1-9][0-9]{0,15})$/.test(expiresText)) return 'invalid';
  const expected = Buffer.from(computeSignature(fileKey, expiresText, secret), 'utf8');
  const given = Buffer.from(sig, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return now >= Number(expiresText) ? 'expired' : 'ok';
}
