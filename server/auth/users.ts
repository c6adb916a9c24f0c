import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../db/types';
import { isUniqueViolation } from '../db/types';
import { isUuid } from '../uuid';

export interface User {
  id: string;
  email: string;
  createdAt: Date;
}

export interface UserWithPassword extends User {
  passwordHash: string;
}

export interface UserRepository {
  /** Returns null when the email is already taken. */
  create(input: { email: string; passwordHash: string; createdAt: Date }): Promise<User | null>;
  findByEmail(email: string): Promise<UserWithPassword | null>;
  findById(id: string): Promise<User | null>;
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date | string;
}

function toUser(row: UserRow): UserWithPassword {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}

function withoutPassword({ passwordHash: _omit, ...user }: UserWithPassword): User {
  return user;
}

export function createUserRepository(db: DbExecutor): UserRepository {
  return {
    async create({ email, passwordHash, createdAt }) {
      try {
        const { rows } = await db.query<UserRow>(
          `INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)
           RETURNING id, email, password_hash, created_at`,
          [randomUUID(), email, passwordHash, createdAt.toISOString()],
        );
        return rows[0] ? withoutPassword(toUser(rows[0])) : null;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async findByEmail(email) {
      const { rows } = await db.query<UserRow>(
        'SELECT id, email, password_hash, created_at FROM users WHERE email = $1',
        [email],
      );
      return rows[0] ? toUser(rows[0]) : null;
    },
    async findById(id) {
      // A token from another system could carry any subject; only a UUID can match a row.
      if (!isUuid(id)) return null;
      const { rows } = await db.query<UserRow>('SELECT id, email, password_hash, created_at FROM users WHERE id = $1', [
        id,
      ]);
      return rows[0] ? withoutPassword(toUser(rows[0])) : null;
    },
  };
}
