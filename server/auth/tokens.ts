import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../errors';

export const TOKEN_ISSUER = 'lectio';

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

/** Who a token was issued to, and the user's session generation then (tokens/auth service). */
interface TokenSubject {
  userId: string;
  /** Tokens issued before this claim existed count as generation 0. */
  generation: number;
}

export interface TokenService {
  issue(userId: string, generation?: number): Promise<IssuedToken>;
  /** Returns the user id and session generation in the token; throws DomainError('unauthenticated') otherwise. */
  verify(token: string): Promise<TokenSubject>;
}

/** Tokens whose signature and claims were checked, kept by the API process (a listener's player sends one every few seconds). */
const VERIFIED_TOKENS_KEPT = 20_000;

function expired(): DomainError {
  return new DomainError('unauthenticated', 'Token expired');
}

export function createTokenService(options: { secret: Uint8Array; ttlSeconds: number; now: () => Date }): TokenService {
  const { ttlSeconds, now } = options;
  // A token checked once is known good until it expires: its subject and expiry are kept, so a
  // player's saves every few seconds do not each pay for an HMAC on the thread pool (WebCrypto),
  // a twentieth of a busy API's CPU. The user's session generation is still checked on every
  // request by the auth guard, so signing out everywhere takes effect at once.
  const verified = new LRUCache<string, TokenSubject & { expiresAt: number }>({ max: VERIFIED_TOKENS_KEPT });
  // The HMAC key, imported once: given the raw bytes, jose imports them again for every token it
  // signs or checks, a twentieth of a busy API's CPU.
  const key = crypto.subtle.importKey('raw', new Uint8Array(options.secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  return {
    async issue(userId, generation = 0) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const token = await new SignJWT({ gen: generation })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(TOKEN_ISSUER)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(await key);
      return { token, expiresIn: ttlSeconds };
    },
    async verify(token) {
      const known = verified.get(token);
      if (known !== undefined) {
        if (known.expiresAt <= now().getTime() / 1000) {
          verified.delete(token);
          throw expired();
        }
        return { userId: known.userId, generation: known.generation };
      }
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          requiredClaims: ['sub', 'iat', 'exp'],
          currentDate: now(),
        });
        if (typeof payload.sub !== 'string' || payload.sub === '')
          throw new DomainError('unauthenticated', 'Invalid token');
        const generation = payload.gen ?? 0;
        if (typeof generation !== 'number' || !Number.isInteger(generation))
          throw new DomainError('unauthenticated', 'Invalid token');
        verified.set(token, { userId: payload.sub, generation, expiresAt: payload.exp! });
        return { userId: payload.sub, generation };
      } catch (error) {
        if (error instanceof DomainError) throw error;
        if (error instanceof joseErrors.JWTExpired) throw expired();
        throw new DomainError('unauthenticated', 'Invalid token');
      }
    },
  };
}
