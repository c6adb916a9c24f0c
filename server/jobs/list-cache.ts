import type { Db } from '../db/types';

/**
 * What is read from a user's jobs, kept until their jobs change: serialized pages of GET /jobs
 * (every browser polls its list every few seconds and most polls find nothing new: those are
 * answered from here, and with 304 when the browser already has the page, without touching the
 * database), and the finished books a listener's progress saves are checked against.
 *
 * It is only trusted while change notifications arrive: migration 0005's trigger announces every
 * change a list shows on 'lectio_job_changes' with the owner's id, from whichever process wrote
 * it (API or worker), and each process LISTENs. When the listening connection fails the cache
 * empties and stays off until it listens again. A page's owner version is taken before its query,
 * so a change that lands while the page is read makes the stored page stale at once.
 */
export const JOB_CHANGES_CHANNEL = 'lectio_job_changes';

export interface CachedPage {
  etag: string;
  body: string;
}

interface Entry {
  value: unknown;
  userId: string;
  version: number;
  generation: number;
}

export interface Stamp {
  version: number;
  generation: number;
}

export function createListCache(maxEntries = 5000) {
  const versions = new Map<string, number>();
  const entries = new Map<string, Entry>();
  let listening = false;
  let generation = 0;

  const versionOf = (userId: string) => versions.get(userId) ?? 0;
  /** Nothing of the user's changed since `stamp` was taken, as far as the announcements tell. */
  const unchanged = (userId: string, stamp: Stamp) =>
    listening && stamp.generation === generation && stamp.version === versionOf(userId);

  return {
    /** A user's jobs changed (from a notification). */
    changed(userId: string): void {
      versions.set(userId, versionOf(userId) + 1);
    },
    /** Notifications arrive (true) or may be missed (false): off and emptied until they arrive again. */
    setListening(on: boolean): void {
      listening = on;
      generation += 1;
      entries.clear();
    },
    get listening(): boolean {
      return listening;
    },
    /** Take before reading the page from the database. */
    stamp(userId: string): Stamp {
      return { version: versionOf(userId), generation };
    },
    /** Whether what was read after `stamp` was taken is still what the database holds. */
    unchanged,
    /** What `set` kept under `key` for `userId` (of the type it was kept as), if nothing of theirs changed since. */
    get<T = CachedPage>(key: string, userId: string): T | null {
      if (!listening) return null;
      const entry = entries.get(key);
      if (entry === undefined || entry.userId !== userId) return null;
      if (!unchanged(userId, entry)) {
        entries.delete(key);
        return null;
      }
      // Most recently used last, so the oldest page is the first to go.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value as T;
    },
    set<T = CachedPage>(key: string, userId: string, stamp: Stamp, value: T): void {
      if (!unchanged(userId, stamp)) return;
      entries.delete(key);
      entries.set(key, { value, userId, ...stamp });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size(): number {
      return entries.size;
    },
  };
}

export type ListCache = ReturnType<typeof createListCache>;

/**
 * Feeds a cache from the database's announcements on `channel` (each one's payload the id whose
 * things changed): this one from JOB_CHANGES_CHANNEL, the accounts' (auth/user-cache.ts) from
 * theirs. Without LISTEN support the cache stays off.
 */
export async function listenForChanges(
  db: Db,
  channel: string,
  cache: Pick<ListCache, 'changed' | 'setListening'>,
): Promise<() => Promise<void>> {
  if (db.listen === undefined) return async () => undefined;
  return db.listen(
    channel,
    (id) => cache.changed(id),
    (on) => cache.setListening(on),
  );
}
