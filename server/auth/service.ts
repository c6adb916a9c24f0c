import { DomainError } from '../errors';
import type { HashingPlace, HashingQueue } from './hashing-queue';
import type { PasswordChecker } from './password-check';
import type { PasswordHasher } from './passwords';
import type { LoginThrottle } from './throttle';
import type { IssuedToken, TokenService } from './tokens';
import type { User, UserRepository, UserWithPassword } from './users';

export interface AuthService {
  /** clientIp decides the client's share of the password hashing queue. */
  register(email: string, password: string, clientIp: string): Promise<User>;
  /** clientIp keys the throttles (see throttle.ts) and the client's share of the hashing queue. */
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
  /** The strength rule for new passwords (password-policy.ts, in a thread of its own). */
  passwordChecker: Pick<PasswordChecker, 'weakReason'>;
  passwords: PasswordHasher;
  tokens: TokenService;
  throttle: LoginThrottle;
  hashing: HashingQueue;
  signupEnabled: boolean;
  now: () => Date;
}): AuthService {
  const { users, passwords, tokens, throttle, hashing, now } = deps;

  return {
    async register(rawEmail, password, clientIp) {
      if (!deps.signupEnabled) {
        throw new DomainError('forbidden', 'Sign-up is disabled on this server. Ask its administrator for an account.');
      }
      const email = normalizeEmail(rawEmail);
      // The strength estimate costs CPU too (up to tens of milliseconds): it takes a hashing place.
      const passwordHash = await hashing.admit(clientIp).run(async () => {
        const weakness = await deps.passwordChecker.weakReason(password, email);
        if (weakness !== null) throw new DomainError('invalid', weakness);
        return passwords.hash(password);
      });
      const user = await users.create({ email, passwordHash, createdAt: now() });
      if (user === null) throw new DomainError('conflict', 'Email already registered');
      return user;
    },

    async login(rawEmail, password, clientIp) {
      const email = normalizeEmail(rawEmail);
      // Counted before anything is awaited, so concurrent guesses see each other.
      const gate = throttle.begin(email, clientIp);
      if (!gate.allowed) {
        const wait = gate.retryAfterSeconds;
        throw new DomainError('rate_limited', `Too many sign-in attempts. Try again in ${describeWait(wait)}.`, {
          retryAfterSeconds: wait,
        });
      }
      let place: HashingPlace;
      try {
        place = hashing.admit(clientIp);
      } catch (error) {
        // A full queue answers 429 at once; the attempt still counts for this client.
        gate.attempt.refusedBusy();
        throw error;
      }
      let checked: { user: UserWithPassword | null; ok: boolean };
      try {
        checked = await place.run(async () => {
          const found = await users.findByEmail(email);
          // Unknown emails cost a full verify too, so response time does not reveal which accounts exist.
          const ok =
            found === null
              ? await passwords.verifyDummy(password)
              : await passwords.verify(password, found.passwordHash);
          return { user: found, ok };
        });
      } catch (error) {
        gate.attempt.notChecked();
        throw error;
      }
      const { user, ok } = checked;
      if (user === null || !ok) {
        gate.attempt.failed();
        throw new DomainError('unauthenticated', 'Incorrect email or password');
      }
      gate.attempt.succeeded();
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
