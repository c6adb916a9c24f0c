import { clientKey } from '../http/client-address';
import { manualClock } from '../testing/app';
import { createLoginThrottle, type LoginAttempt } from './throttle';

describe('the login throttle', () => {
  it('counts attempts when they start: of 40 begun at once, exactly LOGIN_MAX_ATTEMPTS are let through', () => {
    const throttle = createLoginThrottle({ windowSeconds: 900, maxAttempts: 5, now: manualClock().now });
    const gates = Array.from({ length: 40 }, () => throttle.begin('ann@example.com', '10.0.0.1'));
    expect(gates.filter((gate) => gate.allowed)).toHaveLength(5);
    expect(gates[5]).toEqual({ allowed: false, retryAfterSeconds: 900 });
  });

  it('counts an attempt refused as busy for its client but not towards the account delay', () => {
    const throttle = createLoginThrottle({ windowSeconds: 900, maxAttempts: 1, now: manualClock().now });
    // Account delays start after 2 failures here; busy refusals from many addresses do not add up.
    for (let i = 0; i < 5; i++) {
      const gate = throttle.begin('ann@example.com', `10.0.0.${i}`);
      if (!gate.allowed) throw new Error('blocked');
      gate.attempt.refusedBusy();
      expect(throttle.begin('ann@example.com', `10.0.0.${i}`).allowed).toBe(false);
    }
    expect(throttle.begin('ann@example.com', '10.0.1.1').allowed).toBe(true);
  });

  it('takes back an attempt that could not be checked, and forgets the pair after a success', () => {
    const throttle = createLoginThrottle({ windowSeconds: 900, maxAttempts: 2, now: manualClock().now });
    const attempt = (): LoginAttempt => {
      const gate = throttle.begin('ann@example.com', '10.0.0.1');
      if (!gate.allowed) throw new Error('blocked');
      return gate.attempt;
    };
    attempt().notChecked();
    attempt().failed();
    attempt().succeeded();
    attempt().failed();
    attempt().failed();
    expect(throttle.begin('ann@example.com', '10.0.0.1').allowed).toBe(false);
    expect(throttle.begin('ann@example.com', '10.0.0.2').allowed).toBe(true);
  });
});

describe('clientKey', () => {
  it('counts IPv4 (also mapped into IPv6) as itself and IPv6 by its /64 network', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:0:12:a::1')).toBe('2001:db8:0:12::/64');
    expect(clientKey('2001:0db8:0000:0012:ffff:1:2:3')).toBe('2001:db8:0:12::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
