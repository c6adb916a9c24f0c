import type { Db } from '../db/types';
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
 * - while the database announces account changes (`listenForAccountChanges`), until its account
 *   changes or `keptMs` (default 10 minutes) has passed: a listener's saves every few seconds then
 *   read no account at all, and a password changed or sessions ended in any process take effect
 *   everywhere as soon as the announcement arrives;
 * - otherwise `ttlMs` (default 5 s), so another process's change is seen within `ttlMs`.
 *
 * This process forgets an account at once when it changes it. An account that is not found is
 * never kept, nor one read while a change to it was announced (the read may predate the change).
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
  const found = new Map<string, { user: User; until: number }>();
  // The reads under way, by account: one that a change was announced during (or listening started
  // or stopped during) may predate the change, so it is answered but not kept.
  const reading = new Map<string, Set<{ stale: boolean }>>();
  let listening = false;

  const staleAll = (reads: Iterable<Iterable<{ stale: boolean }>>) => {
    for (const set of reads) for (const read of set) read.stale = true;
  };

  // A change (made here or announced): the account is read again, and no read under way is kept.
  const changed = (id: string) => {
    staleAll([reading.get(id) ?? []]);
    found.delete(id);
  };

  return {
    ...users,
    async findById(id) {
      const hit = found.get(id);
      if (hit !== undefined && hit.until > now()) {
        // Most recently used last, so the least used is the first to go.
        found.delete(id);
        found.set(id, hit);
        return hit.user;
      }
      found.delete(id);
      const read = { stale: false };
      const reads = reading.get(id) ?? new Set();
      reading.set(id, reads.add(read));
      try {
        const user = await users.findById(id);
        if (user !== null && !read.stale) {
          found.set(id, { user, until: now() + (listening ? keptMs : ttlMs) });
          if (found.size > maxEntries) found.delete(found.keys().next().value!);
        }
        return user;
      } finally {
        reads.delete(read);
        if (reads.size === 0) reading.delete(id);
      }
    },
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
      listening = on;
      staleAll(reading.values());
      found.clear();
    },
  };
}

/** Feeds the cache from the database's account announcements; without LISTEN support it keeps `ttlMs`. */
export async function listenForAccountChanges(db: Db, users: CachedUserRepository): Promise<() => Promise<void>> {
  if (db.listen === undefined) return async () => undefined;
  return db.listen(
    ACCOUNT_CHANGES_CHANNEL,
    (id) => users.changed(id),
    (on) => users.setListening(on),
  );
}
