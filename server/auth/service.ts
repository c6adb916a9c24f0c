import { DomainError } from '../errors';
import type { PasswordHasher } from './passwords';
import type { LoginThrottle, ThrottleKey } from './throttle';
import type { IssuedToken, TokenService } from './tokens';
import type { User, UserRepository } from './users';

/** A client IP may fail this many times the per-email limit (several people can share one IP). */
export const IP_ATTEMPTS_FACTOR = 4;

export interface AuthService {
  register(email: string, password: string): Promise<User>;
  /** clientIp feeds the per-IP throttle; the email one is always applied. */
  login(email: string, password: string, clientIp: string): Promise<IssuedToken>;
  /** The user a bearer token belongs to; throws DomainError('unauthenticated') otherwise. */
  authenticate(token: string): Promise<User>;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function createAuthService(deps: {
  users: UserRepository;
  passwords: PasswordHasher;
  tokens: TokenService;
  throttle: LoginThrottle;
  signupEnabled: boolean;
  loginMaxAttempts: number;
  now: () => Date;
}): AuthService {
  const { users, passwords, tokens, throttle, now } = deps;

  function throttleKeys(email: string, clientIp: string): ThrottleKey[] {
    return [
      { key: `email:${email}`, maxAttempts: deps.loginMaxAttempts },
      { key: `ip:${clientIp}`, maxAttempts: deps.loginMaxAttempts * IP_ATTEMPTS_FACTOR },
    ];
  }

  return {
    async register(rawEmail, password) {
      if (!deps.signupEnabled) {
        throw new DomainError('forbidden', 'Sign-up is disabled on this server. Ask its administrator for an account.');
      }
      const email = normalizeEmail(rawEmail);
      const passwordHash = await passwords.hash(password);
      const user = await users.create({ email, passwordHash, createdAt: now() });
      if (user === null) throw new DomainError('conflict', 'Email already registered');
      return user;
    },

    async login(rawEmail, password, clientIp) {
      const email = normalizeEmail(rawEmail);
      const keys = throttleKeys(email, clientIp);
      const wait = throttle.retryAfterSeconds(keys);
      if (wait > 0) {
        throw new DomainError('rate_limited', `Too many sign-in attempts. Try again in ${describeWait(wait)}.`, {
          retryAfterSeconds: wait,
        });
      }
      const user = await users.findByEmail(email);
      // Unknown emails cost a full verify too, so response time does not reveal which accounts exist.
      const ok = user === null ? await passwords.verifyDummy(password) : await passwords.verify(password, user.passwordHash);
      if (user === null || !ok) {
        throttle.recordFailure(keys);
        throw new DomainError('unauthenticated', 'Incorrect email or password');
      }
      throttle.reset(keys[0]!);
      return tokens.issue(user.id);
    },

    async authenticate(token) {
      const userId = await tokens.verify(token);
      const user = await users.findById(userId);
      if (user === null) throw new DomainError('unauthenticated', 'This account no longer exists');
      return user;
    },
  };
}
