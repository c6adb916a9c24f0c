import type { User, UserRepository } from './users';

/**
 * Every authenticated request looks its account up by id (auth.authenticate): on the embedded
 * database that one query costs more than the rest of a cached job-list poll. Accounts are never
 * renamed or removed by the API, so a found account is kept `ttlMs` (default 5 s; at most
 * `maxEntries`, oldest out first). An account that is not found is never cached.
 */
export function cachedUserLookups(
  users: UserRepository,
  {
    ttlMs = 5000,
    maxEntries = 10_000,
    now = () => Date.now(),
  }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): UserRepository {
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
  };
}
