import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, httpUrl, integer, optionalOneOf, section, text } from './declare';
import { dataDirOf } from './core';

/** Accounts, tokens, and the throttles that protect sign-in and sign-up (docs/operations.md). */
export const authSection = section({
  title: 'Accounts and sign-in',
  variables: {
    signupEnabled: optionalOneOf(
      'SIGNUP_ENABLED',
      ['true', 'false'] as const,
      '(true outside production)',
      "'true' or 'false': whether new accounts can register.",
    ),
    jwtSecret: text(
      'JWT_SECRET',
      {
        shown: '(generated)',
        check: (secret) =>
          secret.length >= 32
            ? undefined
            : `JWT_SECRET must be at least 32 characters (got ${secret.length}); unset it to have one generated`,
      },
      'Secret (at least 32 characters) that signs access tokens. When unset, 48 random bytes are generated once and kept in DATA_DIR/jwt-secret (mode 0600).',
    ),
    tokenTtlSeconds: integer(
      'TOKEN_TTL_SECONDS',
      { min: 60, max: 604_800, default: 28_800 },
      'Lifetime of an access token in seconds (60-604800; default 8 hours).',
    ),
    loginMaxAttempts: integer(
      'LOGIN_MAX_ATTEMPTS',
      { min: 1, max: 1000, default: 5 },
      'Sign-in attempts that may fail for one email from one client address within the window; the next attempt from that address gets 429. A client address may fail 4 times as often across emails. An account that fails twice this often, from any addresses, answers only after a delay that doubles with each further failure (1 s up to 60 s), so guessing from many addresses slows down without locking the owner out.',
    ),
    loginWindowSeconds: integer(
      'LOGIN_WINDOW_SECONDS',
      { min: 1, max: 86_400, default: 900 },
      'Length of the sign-in throttling window in seconds.',
    ),
    passwordHashConcurrency: integer(
      'PASSWORD_HASH_CONCURRENCY',
      { min: 1, max: 32, default: 2 },
      'Password hashes (sign-in, sign-up) computed at the same time (1-32). Each takes about 0.3 s of one core and 32 MB.',
    ),
    passwordHashQueue: integer(
      'PASSWORD_HASH_QUEUE',
      { min: 0, max: 1000, default: 8 },
      'Sign-ins and sign-ups that may wait for a hashing slot (0-1000); further ones get 429 with Retry-After. One client address holds at most 2 places.',
    ),
    authRateLimitPerMinute: integer(
      'AUTH_RATE_LIMIT_PER_MINUTE',
      { min: 1, max: 100_000, default: 30 },
      'Requests per minute one client address may send to the sign-in and the sign-up route each (1-100000); more get 429 with Retry-After.',
    ),
    signupRateLimitPerHour: integer(
      'SIGNUP_RATE_LIMIT_PER_HOUR',
      { min: 1, max: 100_000, default: 10 },
      'Sign-up requests per hour one client address may send (1-100000).',
    ),
    feedRateLimitPerFeed: integer(
      'FEED_RATE_LIMIT_PER_FEED',
      { min: 1, max: 100_000, default: 600 },
      'Requests per minute one podcast feed (its address, episodes and cover together) answers (1-100000); more get 429 with Retry-After. Podcast apps fetch a feed every few minutes and download episodes in ranges.',
    ),
    feedRateLimitPerAddress: integer(
      'FEED_RATE_LIMIT_PER_ADDRESS',
      { min: 1, max: 100_000, default: 600 },
      'Requests per minute one client address may send to the podcast feeds (1-100000), whatever the feed; more get 429 with Retry-After.',
    ),
    smtpUrl: text(
      'SMTP_URL',
      {
        check: (url) =>
          /^smtps?:\/\/[^/\s]/.test(url)
            ? undefined
            : 'SMTP_URL must be an smtp:// or smtps:// address, e.g. smtps://user:password@mail.example.org',
      },
      'The SMTP server that sends password reset links, e.g. smtps://user:password@mail.example.org (smtp:// with STARTTLS when the server offers it); needs MAIL_FROM and PUBLIC_URL, which the links open. Unset: "Forgot password?" tells readers to ask the operator, who makes a link with `npm run user -- reset-password EMAIL`.',
    ),
    mailFrom: text(
      'MAIL_FROM',
      {},
      'The sender of those emails, e.g. "Lectio <lectio@example.org>"; required with SMTP_URL.',
    ),
    passwordResetTtlSeconds: integer(
      'PASSWORD_RESET_TTL_SECONDS',
      { min: 300, max: 86_400, default: 3_600 },
      'How long a password reset link works, in seconds (300-86400; default 1 hour). A link works once.',
    ),
    passwordResetsPerHour: integer(
      'PASSWORD_RESETS_PER_HOUR',
      { min: 1, max: 1000, default: 3 },
      'Reset emails one address gets per hour (1-1000); further requests are answered the same way but send nothing. One client address may ask 10 times as often.',
    ),
    termsUrl: httpUrl(
      'TERMS_URL',
      '(the built-in page)',
      'The terms of use readers accept at sign-up, when the operator publishes their own; unset: the app shows its short built-in terms.',
    ),
    privacyUrl: httpUrl(
      'PRIVACY_URL',
      '(the built-in page)',
      'The privacy notice, when the operator publishes their own; unset: the app shows its short built-in notice.',
    ),
  },
  rawOnly: ['signupEnabled', 'jwtSecret', 'smtpUrl', 'mailFrom'],
  derive: (vars, all) => ({
    /** Where reset links are sent from: SMTP_URL with MAIL_FROM, or null (the operator makes links). */
    mail: mailSettings(vars.smtpUrl, vars.mailFrom, all.PUBLIC_URL as string | undefined),
    /** Whether new accounts can register: SIGNUP_ENABLED, else everywhere but production. */
    signupEnabled: vars.signupEnabled !== undefined ? vars.signupEnabled === 'true' : all.APP_ENV !== 'production',
    /** HS256 signing key for access tokens. */
    jwtSecret:
      vars.jwtSecret !== undefined
        ? new TextEncoder().encode(vars.jwtSecret)
        : loadOrCreateJwtSecret(dataDirOf(all.DATA_DIR as string | undefined)),
  }),
});

/** Emailed links open PUBLIC_URL: never a request's Host header, which whoever asks for a link chooses. */
function mailSettings(
  smtpUrl: string | undefined,
  from: string | undefined,
  publicUrl: string | undefined,
): { smtpUrl: string; from: string; origin: string } | null {
  if (smtpUrl === undefined) return null;
  if (from === undefined)
    throw new ConfigError('MAIL_FROM must be set with SMTP_URL, e.g. "Lectio <lectio@example.org>"');
  if (publicUrl === undefined) {
    throw new ConfigError('PUBLIC_URL must be set with SMTP_URL: the emailed reset links open that address');
  }
  return { smtpUrl, from, origin: publicUrl };
}

/** Path of the generated signing key inside the data directory. */
export function jwtSecretPath(dataDir: string): string {
  return path.join(dataDir, 'jwt-secret');
}

/** Generates 48 random bytes on first start and reuses them afterwards, so tokens survive restarts. */
function loadOrCreateJwtSecret(dataDir: string): Uint8Array {
  const file = jwtSecretPath(dataDir);
  try {
    if (existsSync(file)) {
      const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
      if (secret.length < 32) {
        throw new ConfigError(`${file} must hold at least 32 bytes of base64url text; delete it to generate a new one`);
      }
      return new Uint8Array(secret);
    }
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48);
    writeFileSync(file, `${secret.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return new Uint8Array(secret);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      `JWT_SECRET is unset and ${file} could not be read or created (${(error as Error).message}); set JWT_SECRET or make DATA_DIR writable`,
    );
  }
}
