import { afterEach, describe, expect, it } from 'vitest';
import { createPasswordChecker, type PasswordChecker } from './password-check';

let checker: PasswordChecker | null = null;
afterEach(async () => {
  await checker?.close();
  checker = null;
});

describe('the password strength check in its own thread', () => {
  it('refuses an easy password with advice and accepts a strong one, one after the other and at once', async () => {
    checker = createPasswordChecker();
    expect(await checker.weakReason('password123', 'reader@example.com')).toMatch(
      /^This password is too easy to guess\. /,
    );
    expect(await checker.weakReason('correct horse battery staple lighthouse', 'reader@example.com')).toBeNull();
    // The reader's own address is no help to a password.
    expect(await checker.weakReason('reader@example.com', 'reader@example.com')).not.toBeNull();
    const answers = await Promise.all([
      checker.weakReason('qwertyuiop', 'a@example.com'),
      checker.weakReason('violet tundra mosaic 4417 ember', 'b@example.com'),
      checker.weakReason('11111111', 'c@example.com'),
    ]);
    expect(answers.map((a) => a === null)).toEqual([false, true, false]);
  }, 30_000);

  it('ends its thread after a quiet spell and starts a new one for the next check', async () => {
    checker = createPasswordChecker({ idleMs: 50 });
    expect(checker.running).toBe(false);
    expect(await checker.weakReason('password123', 'reader@example.com')).not.toBeNull();
    expect(checker.running).toBe(true);
    await expect.poll(() => checker!.running, { timeout: 5_000 }).toBe(false);
    expect(await checker.weakReason('violet tundra mosaic 4417 ember', 'reader@example.com')).toBeNull();
  }, 30_000);
});
