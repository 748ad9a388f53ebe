import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AttemptOutcome,
  type AttemptVerdict,
  addressBucket,
  FailedAuthLimiter,
  type FailedAuthLimiterOptions,
} from '../../../src/modules/access/failed-auth-limiter.js';

/** The per-address budget of failed authentications, on a clock the test moves. */

const hash = (name: string) => createHash('sha256').update(name).digest();

function limiterAt(options: Omit<FailedAuthLimiterOptions, 'now'>) {
  const clock = { now: 1_000 };
  const limiter = new FailedAuthLimiter({ ...options, now: () => clock.now });
  /** One request from `address` with key `key`, settled at once with `outcome`; returns the verdict. */
  const request = (address: string, key: string, outcome: AttemptOutcome = 'invalid'): AttemptVerdict => {
    const verdict = limiter.attempt(address, hash(key));
    if (!verdict.throttled) verdict.settle(outcome);
    return verdict;
  };
  return { clock, limiter, request };
}

describe('FailedAuthLimiter', () => {
  it('refuses an address once it failed `limit` times in the window, until the oldest failure leaves it', () => {
    const { clock, request } = limiterAt({ limit: 3, windowMs: 10_000 });
    for (let n = 0; n < 3; n++) {
      expect(request('203.0.113.7', `bad ${n}`).throttled).toBe(false);
      clock.now += 1_000;
    }
    // Failures at 1000, 2000 and 3000; now 4000: the first leaves the window at 11000.
    expect(request('203.0.113.7', 'bad 3')).toEqual({ throttled: true, retryAfterMs: 7_000 });
    // Refused requests are not counted: the wait only shrinks.
    clock.now += 5_000;
    expect(request('203.0.113.7', 'bad 4')).toEqual({ throttled: true, retryAfterMs: 2_000 });
    clock.now += 2_000;
    // One more lookup, which fails: refused again until the second failure leaves.
    expect(request('203.0.113.7', 'bad 5').throttled).toBe(false);
    expect(request('203.0.113.7', 'bad 6')).toEqual({ throttled: true, retryAfterMs: 1_000 });
  });

  it('counts only failed lookups: valid keys, refusals for other reasons and errors are not held against anyone', () => {
    const { request } = limiterAt({ limit: 2 });
    for (let n = 0; n < 10; n++) {
      expect(request('198.51.100.1', 'good', 'valid').throttled).toBe(false);
      expect(request('198.51.100.1', `forbidden or error ${n}`, 'other').throttled).toBe(false);
    }
    expect(request('198.51.100.1', 'bad 1').throttled).toBe(false);
    expect(request('198.51.100.1', 'bad 2').throttled).toBe(false);
    expect(request('198.51.100.1', 'bad 3').throttled).toBe(true);
  });

  it('a key verified recently stays admitted from a throttled address; once it fails it is not exempt any more', () => {
    const { request } = limiterAt({ limit: 2 });
    expect(request('192.0.2.9', 'good', 'valid').throttled).toBe(false);
    request('192.0.2.9', 'bad 1');
    request('192.0.2.9', 'bad 2');
    expect(request('192.0.2.9', 'never verified', 'valid').throttled).toBe(true);
    for (let n = 0; n < 5; n++) expect(request('192.0.2.9', 'good', 'valid').throttled).toBe(false);
    // Revoked: looked up (it is exempt), fails, and from then on it is refused like any other key.
    expect(request('192.0.2.9', 'good', 'invalid').throttled).toBe(false);
    expect(request('192.0.2.9', 'good', 'valid').throttled).toBe(true);
  });

  it('another address is unaffected; IPv4-mapped addresses are their IPv4 address, IPv6 ones count by /64', () => {
    const { request } = limiterAt({ limit: 1 });
    request('10.0.0.1', 'bad');
    expect(request('10.0.0.1', 'bad').throttled).toBe(true);
    expect(request('::ffff:10.0.0.1', 'bad').throttled).toBe(true);
    expect(request('10.0.0.2', 'bad').throttled).toBe(false);
    request('2001:db8:1:2::1', 'bad');
    expect(request('2001:db8:1:2:ffff:ffff:ffff:ffff', 'bad').throttled).toBe(true);
    expect(request('2001:db8:1:3::1', 'bad').throttled).toBe(false);
    expect(addressBucket('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('127.0.0.1')).toBe('127.0.0.1');
  });

  it('lookups in flight count against the budget, so a concurrent flood gets no more than `limit` lookups', () => {
    const { limiter } = limiterAt({ limit: 3 });
    const inFlight = Array.from({ length: 10 }, (_, n) => limiter.attempt('203.0.113.50', hash(`bad ${n}`)));
    expect(inFlight.map((verdict) => verdict.throttled)).toEqual([false, false, false, ...Array(7).fill(true)]);
    const [first, second] = inFlight;
    // A lookup in flight ends soon: the refusal asks for the shortest wait Retry-After can say.
    expect(inFlight[3]).toEqual({ throttled: true, retryAfterMs: 1_000 });
    if (first?.throttled === false) first.settle('valid');
    // One ended well: room for one more lookup.
    expect(limiter.attempt('203.0.113.50', hash('next')).throttled).toBe(false);
    // Settling twice changes nothing.
    if (second?.throttled === false) {
      second.settle('other');
      second.settle('other');
    }
    expect(limiter.attempt('203.0.113.50', hash('after')).throttled).toBe(false);
    expect(limiter.attempt('203.0.113.50', hash('full')).throttled).toBe(true);
  });

  it("a key's own concurrent lookups count once: a valid key's first burst is never refused for itself", () => {
    const { limiter } = limiterAt({ limit: 2 });
    const burst = Array.from({ length: 50 }, () => limiter.attempt('203.0.113.60', hash('valid, not yet verified')));
    expect(burst.every((verdict) => !verdict.throttled)).toBe(true);
    // Made-up keys beside it still get only the rest of the budget.
    expect(limiter.attempt('203.0.113.60', hash('bad 1')).throttled).toBe(false);
    expect(limiter.attempt('203.0.113.60', hash('bad 2')).throttled).toBe(true);
    for (const verdict of burst) if (!verdict.throttled) verdict.settle('valid');
    expect(limiter.attempt('203.0.113.60', hash('bad 3')).throttled).toBe(false);
  });

  it('a spent budget refuses even a key whose lookup is in flight: one made-up key cannot be kept going', () => {
    const { limiter } = limiterAt({ limit: 2 });
    const first = limiter.attempt('203.0.113.70', hash('bad, repeated'));
    const second = limiter.attempt('203.0.113.70', hash('bad, repeated'));
    expect([first.throttled, second.throttled]).toEqual([false, false]);
    const other = limiter.attempt('203.0.113.70', hash('bad, other'));
    if (!other.throttled) other.settle('invalid');
    if (!second.throttled) second.settle('invalid');
    // Two failures counted while `first` is still in flight: its key's next request is refused all the same.
    expect(limiter.attempt('203.0.113.70', hash('bad, repeated')).throttled).toBe(true);
    if (!first.throttled) first.settle('invalid');
  });

  it('a request whose address is unknown (its socket gone) is never throttled', () => {
    const { limiter } = limiterAt({ limit: 1 });
    for (let n = 0; n < 5; n++) {
      const verdict = limiter.attempt(undefined, hash(`bad ${n}`));
      expect(verdict.throttled).toBe(false);
      if (!verdict.throttled) verdict.settle('invalid');
    }
    expect(limiter.size.addresses).toBe(0);
  });

  it('remembers at most maxAddresses addresses, forgetting the least recently failing first', () => {
    const { request, limiter } = limiterAt({ limit: 1, maxAddresses: 3 });
    for (const address of ['10.1.0.1', '10.1.0.2', '10.1.0.3']) request(address, 'bad');
    // 10.1.0.1 fails again (refused, so not counted) — still the least recent failure.
    expect(request('10.1.0.1', 'bad').throttled).toBe(true);
    request('10.1.0.4', 'bad');
    expect(limiter.size.addresses).toBe(3);
    expect(request('10.1.0.1', 'bad').throttled).toBe(false);
    expect(request('10.1.0.3', 'bad').throttled).toBe(true);
    // Addresses with nothing against them are not kept at all.
    for (let n = 0; n < 50; n++) request(`10.2.0.${n}`, 'good', 'valid');
    expect(limiter.size.addresses).toBe(3);
  });

  it('remembers at most maxTrustedKeys keys, each for trustedKeyTtlMs after its last success', () => {
    const { clock, request, limiter } = limiterAt({ limit: 1, maxTrustedKeys: 2, trustedKeyTtlMs: 60_000 });
    for (const key of ['a', 'b', 'c']) request('10.3.0.1', key, 'valid');
    expect(limiter.size.trustedKeys).toBe(2);
    request('10.3.0.1', 'bad');
    expect(request('10.3.0.1', 'a', 'valid').throttled).toBe(true);
    expect(request('10.3.0.1', 'b', 'valid').throttled).toBe(false);
    expect(request('10.3.0.1', 'c', 'valid').throttled).toBe(false);
    clock.now += 59_000;
    // Used again at 59 s: trusted for another minute from then; the others lapse at 60 s.
    expect(request('10.3.0.1', 'c', 'valid').throttled).toBe(false);
    clock.now += 2_000;
    request('10.3.0.1', 'bad');
    expect(request('10.3.0.1', 'b', 'valid').throttled).toBe(true);
    expect(request('10.3.0.1', 'c', 'valid').throttled).toBe(false);
  });

  it('refuses a limit below 1 (0 means no limiter at all)', () => {
    expect(() => new FailedAuthLimiter({ limit: 0 })).toThrow(RangeError);
  });
});
