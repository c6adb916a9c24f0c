import { DomainError } from '../errors';
import type { HashingPlace, HashingQueue } from './hashing-queue';
import type { PasswordChecker } from './password-check';
import type { PasswordHasher } from './passwords';
import type { LoginThrottle } from './throttle';
import type { IssuedToken, TokenService } from './tokens';
import type { PasswordResets } from './password-resets';
import type { CachedUserRepository } from './user-cache';
import type { User, UserWithPassword } from './users';

export interface AuthService {
  /** clientIp decides the client's share of the password hashing queue. */
  register(email: string, password: string, clientIp: string): Promise<User>;
  /** clientIp keys the throttles (see throttle.ts) and the client's share of the hashing queue. */
  login(email: string, password: string, clientIp: string): Promise<IssuedToken>;
  /** The user a bearer token belongs to; throws DomainError('unauthenticated') otherwise. */
  authenticate(token: string): Promise<User>;
  /**
   * A new password for a signed-in user who knows the current one: every other session is signed
   * out, and the answer is a fresh token for the session that asked.
   */
  changePassword(user: User, currentPassword: string, newPassword: string, clientIp: string): Promise<IssuedToken>;
  /** Signs out every session of the user, the one asking included. */
  signOutEverywhere(userId: string): Promise<void>;
  /**
   * A one-time reset token for the account of `email` (to put in a link), or null when there is no
   * such account. Only its hash is stored.
   */
  passwordResetToken(email: string): Promise<{ token: string; email: string } | null>;
  /** Sets a new password with a reset token (used up by this) and signs out every session. */
  resetPassword(token: string, newPassword: string, clientIp: string): Promise<void>;
  /** Forgets a deleted account's cached lookups. */
  forget(userId: string): void;
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
  users: CachedUserRepository;
  resets: PasswordResets;
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

  /** The strength rule (as at sign-up) and the hash of a new password, in a hashing place of the client's. */
  async function hashNewPassword(password: string, email: string, clientIp: string): Promise<string> {
    return hashing.admit(clientIp).run(async () => {
      const weakness = await deps.passwordChecker.weakReason(password, email);
      if (weakness !== null) throw new DomainError('invalid', weakness);
      return passwords.hash(password);
    });
  }

  return {
    async register(rawEmail, password, clientIp) {
      if (!deps.signupEnabled) {
        throw new DomainError('forbidden', 'Sign-up is disabled on this server. Ask its administrator for an account.');
      }
      const email = normalizeEmail(rawEmail);
      // The strength estimate costs CPU too (up to tens of milliseconds): it takes a hashing place.
      const passwordHash = await hashNewPassword(password, email, clientIp);
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
      return tokens.issue(user.id, user.sessionGeneration);
    },

    async authenticate(token) {
      const { userId, generation } = await tokens.verify(token);
      const user = await users.findById(userId);
      if (user === null) throw new DomainError('unauthenticated', 'This account no longer exists');
      if (generation !== user.sessionGeneration)
        throw new DomainError('unauthenticated', 'This session was signed out');
      return user;
    },

    async changePassword(user, currentPassword, newPassword, clientIp) {
      const found = await users.findWithPasswordById(user.id);
      if (found === null) throw new DomainError('unauthenticated', 'This account no longer exists');
      const ok = await hashing.admit(clientIp).run(() => passwords.verify(currentPassword, found.passwordHash));
      if (!ok) throw new DomainError('invalid', 'Your current password is not right');
      if (newPassword === currentPassword) {
        throw new DomainError('invalid', 'The new password is the same as the current one');
      }
      const passwordHash = await hashNewPassword(newPassword, found.email, clientIp);
      const generation = await users.setPassword(user.id, passwordHash);
      return tokens.issue(user.id, generation);
    },

    async signOutEverywhere(userId) {
      await users.newSessionGeneration(userId);
    },

    async passwordResetToken(rawEmail) {
      const user = await users.findByEmail(normalizeEmail(rawEmail));
      if (user === null) return null;
      return { token: await deps.resets.create(user.id), email: user.email };
    },

    async resetPassword(token, newPassword, clientIp) {
      const expired = new DomainError('invalid', 'This reset link has expired or was already used. Ask for a new one.');
      const userId = await deps.resets.valid(token);
      if (userId === null) throw expired;
      const user = await users.findWithPasswordById(userId);
      if (user === null) throw expired;
      const passwordHash = await hashNewPassword(newPassword, user.email, clientIp);
      // Used up only now, so a password the strength rule refused can be retried with the same link.
      if ((await deps.resets.consume(token)) !== userId) throw expired;
      await users.setPassword(userId, passwordHash);
    },

    forget(userId) {
      users.forget(userId);
    },
  };
}
