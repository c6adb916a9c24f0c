import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../db/types';
import { isUniqueViolation } from '../db/types';
import { isUuid } from '../uuid';

export interface User {
  id: string;
  email: string;
  createdAt: Date;
  /** Every access token carries the generation it was issued in; raising it signs those tokens out. */
  sessionGeneration: number;
}

export interface UserWithPassword extends User {
  passwordHash: string;
}

/** The voice a reader's new books start with (the upload form preselects it). */
export interface DefaultVoice {
  provider: string;
  voiceId?: string;
}

/** What a reader's new books start with; null where the reader saved nothing (the app's default). */
export interface Preferences {
  defaultVoice: DefaultVoice | null;
  /** The playback speed a book starts at until the reader picks one for it. */
  defaultSpeed: number | null;
}

export interface UserRepository {
  /** Returns null when the email is already taken. */
  create(input: { email: string; passwordHash: string; createdAt: Date }): Promise<User | null>;
  findByEmail(email: string): Promise<UserWithPassword | null>;
  findById(id: string): Promise<User | null>;
  findWithPasswordById(id: string): Promise<UserWithPassword | null>;
  /** Sets a new password hash and raises the session generation; answers the new generation. */
  setPassword(id: string, passwordHash: string): Promise<number>;
  /** Deletes the user and, by foreign-key cascade, every row that names them. */
  delete(id: string): Promise<void>;
  /** Raises the session generation (every token issued before is refused); answers the new one. */
  newSessionGeneration(id: string): Promise<number>;
  /** The reader's preferences (all null for an unknown id). */
  preferences(id: string): Promise<Preferences>;
  /** Saves the fields the patch holds, leaves the others as they are; answers the result. */
  setPreferences(id: string, patch: Partial<Preferences>): Promise<Preferences>;
}

interface PreferencesRow {
  default_voice: DefaultVoice | string | null;
  default_speed: number | string | null;
}

function toPreferences(row: PreferencesRow | undefined): Preferences {
  const voice = row?.default_voice ?? null;
  const speed = row?.default_speed ?? null;
  return {
    defaultVoice: typeof voice === 'string' ? (JSON.parse(voice) as DefaultVoice) : voice,
    defaultSpeed: speed === null ? null : Number(speed),
  };
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date | string;
  session_generation: number;
}

const COLUMNS = 'id, email, password_hash, created_at, session_generation';

function toUser(row: UserRow): UserWithPassword {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
    sessionGeneration: Number(row.session_generation),
  };
}

function withoutPassword({ passwordHash: _omit, ...user }: UserWithPassword): User {
  return user;
}

export function createUserRepository(db: DbExecutor): UserRepository {
  async function byId(id: string): Promise<UserWithPassword | null> {
    // A token from another system could carry any subject; only a UUID can match a row.
    if (!isUuid(id)) return null;
    const { rows } = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }
  return {
    async create({ email, passwordHash, createdAt }) {
      try {
        const { rows } = await db.query<UserRow>(
          `INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
          [randomUUID(), email, passwordHash, createdAt.toISOString()],
        );
        return rows[0] ? withoutPassword(toUser(rows[0])) : null;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async findByEmail(email) {
      const { rows } = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE email = $1`, [email]);
      return rows[0] ? toUser(rows[0]) : null;
    },
    async findById(id) {
      const found = await byId(id);
      return found === null ? null : withoutPassword(found);
    },
    findWithPasswordById: byId,
    async setPassword(id, passwordHash) {
      const { rows } = await db.query<{ session_generation: number }>(
        `UPDATE users SET password_hash = $2, session_generation = session_generation + 1 WHERE id = $1
         RETURNING session_generation`,
        [id, passwordHash],
      );
      return Number(rows[0]?.session_generation ?? 0);
    },
    async delete(id) {
      await db.query('DELETE FROM users WHERE id = $1', [id]);
    },
    async newSessionGeneration(id) {
      const { rows } = await db.query<{ session_generation: number }>(
        'UPDATE users SET session_generation = session_generation + 1 WHERE id = $1 RETURNING session_generation',
        [id],
      );
      return Number(rows[0]?.session_generation ?? 0);
    },
    async preferences(id) {
      const { rows } = await db.query<PreferencesRow>('SELECT default_voice, default_speed FROM users WHERE id = $1', [
        id,
      ]);
      return toPreferences(rows[0]);
    },
    async setPreferences(id, patch) {
      // One statement: a field the patch leaves out is written back as it is.
      const { rows } = await db.query<PreferencesRow>(
        `UPDATE users SET
           default_voice = CASE WHEN $2 THEN $3::jsonb ELSE default_voice END,
           default_speed = CASE WHEN $4 THEN $5::real ELSE default_speed END
         WHERE id = $1 RETURNING default_voice, default_speed`,
        [
          id,
          patch.defaultVoice !== undefined,
          patch.defaultVoice ? JSON.stringify(patch.defaultVoice) : null,
          patch.defaultSpeed !== undefined,
          patch.defaultSpeed ?? null,
        ],
      );
      return toPreferences(rows[0]);
    },
  };
}
