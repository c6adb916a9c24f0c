import { describe, expect, it } from 'vitest';
import { cachedUserLookups } from './user-cache';
import type { User, UserRepository } from './users';

function repository(users: Map<string, User>) {
  let lookups = 0;
  const repo = {
    async findById(id: string) {
      lookups += 1;
      return users.get(id) ?? null;
    },
  } as unknown as UserRepository;
  return { repo, lookups: () => lookups };
}

const reader: User = {
  id: 'u1',
  email: 'reader@example.com',
  createdAt: new Date('2030-01-01T00:00:00Z'),
} as unknown as User;

describe('cachedUserLookups', () => {
  it('answers a found account from memory for the TTL, then reads it again', async () => {
    let clock = 0;
    const users = new Map([[reader.id, reader]]);
    const { repo, lookups } = repository(users);
    const cached = cachedUserLookups(repo, { ttlMs: 5000, now: () => clock });
    expect(await cached.findById('u1')).toBe(reader);
    clock = 4999;
    expect(await cached.findById('u1')).toBe(reader);
    expect(lookups()).toBe(1);
    users.delete('u1');
    clock = 5000;
    expect(await cached.findById('u1')).toBeNull();
    expect(lookups()).toBe(2);
  });

  it('never keeps an account that was not found, and holds at most maxEntries', async () => {
    const users = new Map<string, User>();
    const { repo, lookups } = repository(users);
    const cached = cachedUserLookups(repo, { maxEntries: 2, now: () => 0 });
    expect(await cached.findById('u1')).toBeNull();
    users.set('u1', reader);
    expect(await cached.findById('u1')).toBe(reader);
    for (const id of ['u2', 'u3']) {
      users.set(id, { ...reader, id } as User);
      await cached.findById(id);
    }
    const before = lookups();
    await cached.findById('u1'); // pushed out by u2 and u3
    expect(lookups()).toBe(before + 1);
  });

  it('while changes are announced, keeps an account until it changes, not for the TTL', async () => {
    let clock = 0;
    const users = new Map([[reader.id, reader]]);
    const { repo, lookups } = repository(users);
    const cached = cachedUserLookups(repo, { ttlMs: 5000, keptMs: 600_000, now: () => clock });
    cached.setListening(true);
    await cached.findById('u1');
    clock = 60_000;
    expect(await cached.findById('u1')).toBe(reader);
    expect(lookups()).toBe(1);
    const renamed = { ...reader, email: 'new@example.com' } as User;
    users.set('u1', renamed);
    cached.changed('u1');
    expect(await cached.findById('u1')).toBe(renamed);
    expect(lookups()).toBe(2);
    // Announcements may be missed once listening stops: the TTL again, from an empty cache.
    cached.setListening(false);
    expect(await cached.findById('u1')).toBe(renamed);
    clock += 5000;
    await cached.findById('u1');
    expect(lookups()).toBe(4);
  });

  it('does not keep a read that a change was announced during (it may predate the change)', async () => {
    const users = new Map([[reader.id, reader]]);
    let release = () => undefined as void;
    let lookups = 0;
    const slow = {
      async findById(id: string) {
        lookups += 1;
        const user = users.get(id) ?? null;
        await new Promise<void>((resolve) => (release = resolve));
        return user;
      },
    } as unknown as UserRepository;
    const cached = cachedUserLookups(slow, { now: () => 0 });
    cached.setListening(true);
    const before = cached.findById('u1');
    await Promise.resolve();
    cached.changed('u1');
    release();
    expect(await before).toBe(reader);
    const after = cached.findById('u1');
    await Promise.resolve();
    release();
    await after;
    expect(lookups).toBe(2);
  });
});
