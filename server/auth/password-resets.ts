import { createHash, randomBytes } from 'node:crypto';
import type { DbExecutor } from '../db/types';

/**
 * One-time password reset tokens: 32 random bytes sent in a link, of which only a SHA-256 hash is
 * stored (a copy of the database cannot reset anyone's password). A token works once, until it
 * expires; using one also retires the user's other unused tokens.
 */
export interface PasswordResets {
  /** A new token for the user, valid `ttlSeconds` from now. */
  create(userId: string): Promise<string>;
  /** The user a token is for while it is unused and unexpired; null otherwise. */
  valid(token: string): Promise<string | null>;
  /** Uses the token up (and the user's other tokens); the user it was for, or null if it was not valid. */
  consume(token: string): Promise<string | null>;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export function createPasswordResets(db: DbExecutor, options: { ttlSeconds: number; now: () => Date }): PasswordResets {
  const { ttlSeconds, now } = options;
  return {
    async create(userId) {
      const token = randomBytes(32).toString('base64url');
      const issued = now();
      await db.query(
        'INSERT INTO password_resets (token_hash, user_id, expires_at, created_at) VALUES ($1, $2, $3, $4)',
        [hashOf(token), userId, new Date(issued.getTime() + ttlSeconds * 1000).toISOString(), issued.toISOString()],
      );
      return token;
    },
    async valid(token) {
      const { rows } = await db.query<{ user_id: string }>(
        'SELECT user_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
        [hashOf(token), now().toISOString()],
      );
      return rows[0]?.user_id ?? null;
    },
    async consume(token) {
      const at = now().toISOString();
      const { rows } = await db.query<{ user_id: string }>(
        `UPDATE password_resets SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
         RETURNING user_id`,
        [hashOf(token), at],
      );
      const userId = rows[0]?.user_id ?? null;
      if (userId !== null) {
        await db.query('UPDATE password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, at]);
      }
      return userId;
    },
  };
}
