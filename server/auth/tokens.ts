import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
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

export function createTokenService(options: { secret: Uint8Array; ttlSeconds: number; now: () => Date }): TokenService {
  const { ttlSeconds, now } = options;
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
        return { userId: payload.sub, generation };
      } catch (error) {
        if (error instanceof DomainError) throw error;
        if (error instanceof joseErrors.JWTExpired) {
          throw new DomainError('unauthenticated', 'Token expired');
        }
        throw new DomainError('unauthenticated', 'Invalid token');
      }
    },
  };
}
