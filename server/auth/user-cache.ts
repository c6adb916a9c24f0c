import type { User, UserRepository } from './users';

export interface CachedUserRepository extends UserRepository {
  /** Drops the account from the cache (its password, sessions or existence just changed). */
  forget(id: string): void;
}

/**
 * Every authenticated request looks its account up by id (auth.authenticate): on the embedded
 * database that one query costs more than the rest of a cached job-list poll. A found account is
 * kept `ttlMs` (default 5 s; at most `maxEntries`, oldest out first); this process forgets it at
 * once when it changes the account (a new password, signing out everywhere, deletion), so another
 * API process sees such a change within `ttlMs`. An account that is not found is never cached.
 */
export function cachedUserLookups(
  users: UserRepository,
  {
    ttlMs = 5000,
    maxEntries = 10_000,
    now = () => Date.now(),
  }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): CachedUserRepository {
  const found = new Map<string, { user: User; until: number }>();
  return {
    ...users,
    async findById(id) {
      const hit = found.get(id);
      if (hit !== undefined && hit.until > now()) return hit.user;
      found.delete(id);
      const user = await users.findById(id);
      if (user !== null) {
        found.set(id, { user, until: now() + ttlMs });
        if (found.size > maxEntries) found.delete(found.keys().next().value!);
      }
      return user;
    },
    async setPassword(id, passwordHash) {
      const generation = await users.setPassword(id, passwordHash);
      found.delete(id);
      return generation;
    },
    async newSessionGeneration(id) {
      const generation = await users.newSessionGeneration(id);
      found.delete(id);
      return generation;
    },
    forget(id) {
      found.delete(id);
    },
  };
}
