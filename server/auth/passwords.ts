import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * One of the equivalent scrypt settings the OWASP Password Storage Cheat Sheet lists (N=2^17 r=8
 * p=1, N=2^16 r=8 p=2, N=2^15 r=8 p=3, ...): the same work per guess, but 32 MiB per hash instead
 * of 128 MiB, so logins (4 at once on libuv's thread pool) fit the server's memory budget.
 * Stored hashes keep their own parameters, so older ones still verify.
 */
export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Upper bounds accepted when reading a stored hash, so a tampered row cannot exhaust memory. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

export interface PasswordHasher {
  /** Returns `scrypt$N$r$p$salt_b64$hash_b64`. */
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the same time as a real verify, for accounts that do not exist. Always false. */
  verifyDummy(password: string): Promise<false>;
}

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: cost.N,
    r: cost.r,
    p: cost.p,
    // scrypt needs about 128 * N * r bytes (the p lanes run one after another); leave headroom.
    maxmem: Math.max(64 * 1024 * 1024, 256 * cost.N * cost.r),
  };
  // The async form runs on libuv's thread pool, so hashing never blocks the event loop.
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function parseStored(stored: string): { cost: ScryptCost; salt: Buffer; hash: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const valid =
    Number.isInteger(N) &&
    N > 1 &&
    N <= MAX_N &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= MAX_R &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= MAX_P;
  if (!valid) return null;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const hash = Buffer.from(parts[5] ?? '', 'base64');
  if (salt.length === 0 || hash.length !== KEY_LENGTH) return null;
  return { cost: { N, r, p }, salt, hash };
}

/** cost is OWASP unless a caller (tests only) asks for less. */
export function createPasswordHasher(cost: ScryptCost = OWASP_SCRYPT): PasswordHasher {
  async function hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH);
    const key = await scrypt(password, salt, cost);
    return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async function verify(password: string, stored: string): Promise<boolean> {
    const parsed = parseStored(stored);
    if (parsed === null) return false;
    const key = await scrypt(password, parsed.salt, parsed.cost);
    return timingSafeEqual(key, parsed.hash);
  }

  // Made up front so the first unknown-email login costs the same as any other.
  const dummy = hash(randomBytes(16).toString('hex'));
  dummy.catch(() => undefined);

  return {
    hash,
    verify,
    async verifyDummy(password) {
      await verify(password, await dummy);
      return false;
    },
  };
}
