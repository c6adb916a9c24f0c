import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '../errors';

export const TOKEN_ISSUER = 'lectio';

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

export interface TokenService {
  issue(userId: string): Promise<IssuedToken>;
  /** Returns the user id in the token; throws DomainError('unauthenticated') otherwise. */
  verify(token: string): Promise<string>;
}

export function createTokenService(options: { secret: Uint8Array; ttlSeconds: number; now: () => Date }): TokenService {
  const { secret, ttlSeconds, now } = options;
  return {
    async issue(userId) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(TOKEN_ISSUER)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(secret);
      return { token, expiresIn: ttlSeconds };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          requiredClaims: ['sub', 'iat', 'exp'],
          currentDate: now(),
        });
        if (typeof payload.sub !== 'string' || payload.sub === '')
          throw new DomainError('unauthenticated', 'Invalid token');
        return payload.sub;
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
