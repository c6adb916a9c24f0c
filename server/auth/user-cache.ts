import { createListCache } from '../jobs/list-cache';
import type { User, UserRepository } from './users';

/** Where the database announces a changed account, with its id (migration 0013's trigger). */
export const ACCOUNT_CHANGES_CHANNEL = 'lectio_account_changes';

export interface CachedUserRepository extends UserRepository {
  /** Drops the account from the cache (its password, sessions or existence just changed). */
  forget(id: string): void;
  /** An account changed (from a notification, whichever process changed it). */
  changed(id: string): void;
  /** Changes are announced (true) or may be missed (false): emptied either way. */
  setListening(on: boolean): void;
}

/**
 * Every authenticated request looks its account up by id (auth.authenticate). A found account is
 * kept in memory (at most `maxEntries`, the least recently used out first):
 * - while the database announces account changes (app.ts listens on ACCOUNT_CHANGES_CHANNEL), until
 *   its account changes or `keptMs` (default 10 minutes) has passed: a listener's saves every few
 *   seconds then read no account at all, and a password changed or sessions ended in any process
 *   take effect everywhere as soon as the announcement arrives. The accounts are kept in the cache
 *   jobs' lists are kept in (jobs/list-cache.ts), each account its own owner: a read during which
 *   its change was announced is answered but not kept;
 * - otherwise `ttlMs` (default 5 s), so another process's change is seen within `ttlMs`.
 *
 * This process forgets an account at once when it changes it. An account that is not found is
 * never kept.
 */
export function cachedUserLookups(
  users: UserRepository,
  {
    ttlMs = 5000,
    keptMs = 10 * 60_000,
    maxEntries = 10_000,
    now = () => Date.now(),
  }: { ttlMs?: number; keptMs?: number; maxEntries?: number; now?: () => number } = {},
): CachedUserRepository {
  const announced = createListCache(maxEntries);
  const found = new Map<string, { user: User; until: number }>();

  // A change (made here or announced): the account is read again, and no read under way is kept.
  const changed = (id: string) => {
    announced.changed(id);
    found.delete(id);
  };

  async function keptUntilChanged(id: string): Promise<User | null> {
    const kept = announced.get<{ user: User; until: number }>(id, id);
    if (kept !== null && kept.until > now()) return kept.user;
    const stamp = announced.stamp(id);
    const user = await users.findById(id);
    if (user !== null) announced.set(id, id, stamp, { user, until: now() + keptMs });
    return user;
  }

  async function keptForTtl(id: string): Promise<User | null> {
    const hit = found.get(id);
    if (hit !== undefined && hit.until > now()) return hit.user;
    found.delete(id);
    const user = await users.findById(id);
    if (user !== null) {
      found.set(id, { user, until: now() + ttlMs });
      if (found.size > maxEntries) found.delete(found.keys().next().value!);
    }
    return user;
  }

  return {
    ...users,
    findById: (id) => (announced.listening ? keptUntilChanged(id) : keptForTtl(id)),
    async setPassword(id, passwordHash) {
      const sessionGeneration = await users.setPassword(id, passwordHash);
      changed(id);
      return sessionGeneration;
    },
    async newSessionGeneration(id) {
      const sessionGeneration = await users.newSessionGeneration(id);
      changed(id);
      return sessionGeneration;
    },
    forget: changed,
    changed,
    setListening(on) {
      announced.setListening(on);
      found.clear();
    },
  };
}
