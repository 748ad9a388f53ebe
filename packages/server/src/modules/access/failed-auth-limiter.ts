/**
 * A per-address budget of failed authentications, kept in memory by each server process.
 *
 * Every key that is well formed costs a database lookup, so a client cycling through made-up keys turns each of its
 * requests into database work (one client made 8,341 such lookups in 8 seconds). Once an address has spent its
 * budget of failed lookups (unknown, expired or revoked keys) in the window, its further requests are refused with
 * 429 before the database is asked, until the oldest failure leaves the window, except requests with a key this
 * process recently verified: a valid integration behind the same address keeps working. That set only exempts a
 * key from the address's budget; the key is still looked up and verified on every request, so a revocation takes
 * effect on the next one.
 *
 * Memory is bounded: at most `maxAddresses` addresses (the least recently failing are forgotten first), each with
 * at most `limit` failure times; an entry per address with lookups in flight; and at most `maxTrustedKeys` key
 * hashes, each forgotten `trustedKeyTtlMs` after its last success.
 */

export interface FailedAuthLimiterOptions {
  /** Failed authentications one address may make per window. */
  limit: number;
  windowMs?: number;
  maxAddresses?: number;
  maxTrustedKeys?: number;
  trustedKeyTtlMs?: number;
  /** A monotonic clock in milliseconds (tests pass their own). */
  now?: () => number;
}

/** How a lookup the limiter let through ended. */
export type AttemptOutcome = 'valid' | 'invalid' | 'other';

export type AttemptVerdict =
  /** The address has spent its budget and the key is not known to be valid: refuse without a lookup. */
  | { throttled: true; retryAfterMs: number }
  /** Look the key up, then settle the attempt with how the lookup ended (exactly once). */
  | { throttled: false; settle(outcome: AttemptOutcome): void };

export const FAILED_AUTH_WINDOW_MS = 10_000;

/**
 * The bucket an address is counted in: IPv4 addresses (also IPv4-mapped IPv6) one by one, IPv6 addresses by their
 * /64 prefix, since one host commonly holds a whole /64 and could otherwise take a fresh address per request.
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]?.toLowerCase().split('::') ?? [];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

export class FailedAuthLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly maxAddresses: number;
  private readonly maxTrustedKeys: number;
  private readonly trustedKeyTtlMs: number;
  private readonly now: () => number;
  /**
   * Each address's most recent failure times, oldest first, at most `limit`; the least recently failing address
   * first (a Map iterates in insertion order, and a failure re-inserts).
   */
  private readonly addresses = new Map<string, number[]>();
  /**
   * Lookups let through and not yet settled, by address and key: each distinct key in flight counts against the
   * budget until its lookups end, so a concurrent flood of made-up keys gets no more lookups than a sequential one,
   * while a valid key's own concurrent requests (an integration's first burst, before this process has verified
   * the key) count once and are never refused for each other. Bounded by the requests in flight.
   */
  private readonly pending = new Map<string, Map<string, number>>();
  /** Hashes of keys recently verified, hex, each with when it stops being trusted; least recently verified first. */
  private readonly trustedKeys = new Map<string, number>();

  constructor({
    limit,
    windowMs = FAILED_AUTH_WINDOW_MS,
    maxAddresses = 10_000,
    maxTrustedKeys = 10_000,
    trustedKeyTtlMs = 10 * 60_000,
    now = () => performance.now(),
  }: FailedAuthLimiterOptions) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    this.limit = limit;
    this.windowMs = windowMs;
    this.maxAddresses = maxAddresses;
    this.maxTrustedKeys = maxTrustedKeys;
    this.trustedKeyTtlMs = trustedKeyTtlMs;
    this.now = now;
  }

  /** Addresses and keys currently remembered (for tests of the bounds). */
  get size(): { addresses: number; trustedKeys: number } {
    return { addresses: this.addresses.size, trustedKeys: this.trustedKeys.size };
  }

  /**
   * Decides, before any database work, whether a request from `address` presenting the key with this hash may be
   * looked up. An unknown address (a socket already gone) is never throttled.
   */
  attempt(address: string | undefined, keyHash: Buffer): AttemptVerdict {
    const key = keyHash.toString('hex');
    if (address === undefined || this.isTrusted(key)) {
      return { throttled: false, settle: (outcome) => this.settle(undefined, key, outcome) };
    }
    const bucket = addressBucket(address);
    const now = this.now();
    const failures = this.addresses.get(bucket) ?? [];
    this.dropExpired(failures, now);
    const inFlight = this.pending.get(bucket) ?? new Map<string, number>();
    // A key already being looked up from this address holds its place in the budget: its repeats share it.
    const held = inFlight.size - (inFlight.has(key) ? 1 : 0);
    if (failures.length >= this.limit || failures.length + held >= this.limit) {
      // Counted failures free the budget as they leave the window; a budget held only by lookups in flight frees
      // as they end, sooner than the one second Retry-After can express.
      const oldest = failures[failures.length + held - this.limit];
      const retryAfterMs = oldest === undefined ? 1_000 : oldest + this.windowMs - now;
      return { throttled: true, retryAfterMs: Math.max(1, retryAfterMs) };
    }
    inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    this.pending.set(bucket, inFlight);
    let settled = false;
    return {
      throttled: false,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left > 0) inFlight.set(key, left);
        else inFlight.delete(key);
        if (inFlight.size === 0) this.pending.delete(bucket);
        this.settle(bucket, key, outcome);
      },
    };
  }

  private settle(bucket: string | undefined, key: string, outcome: AttemptOutcome): void {
    if (outcome === 'valid') this.trust(key);
    if (outcome !== 'invalid') return;
    // A key that stopped working (revoked, expired) is no longer exempt.
    this.trustedKeys.delete(key);
    if (bucket === undefined) return;
    const now = this.now();
    const failures = this.addresses.get(bucket) ?? [];
    this.dropExpired(failures, now);
    failures.push(now);
    if (failures.length > this.limit) failures.shift();
    // Most recently failing last, so the address that failed least recently is forgotten first.
    this.addresses.delete(bucket);
    this.addresses.set(bucket, failures);
    while (this.addresses.size > this.maxAddresses) {
      const oldest = this.addresses.keys().next().value;
      if (oldest === undefined) break;
      this.addresses.delete(oldest);
    }
  }

  private dropExpired(failures: number[], now: number): void {
    const cutoff = now - this.windowMs;
    let expired = 0;
    while (expired < failures.length && (failures[expired] ?? 0) <= cutoff) expired += 1;
    if (expired > 0) failures.splice(0, expired);
  }

  private isTrusted(key: string): boolean {
    const until = this.trustedKeys.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.trustedKeys.delete(key);
    return false;
  }

  private trust(key: string): void {
    this.trustedKeys.delete(key);
    this.trustedKeys.set(key, this.now() + this.trustedKeyTtlMs);
    while (this.trustedKeys.size > this.maxTrustedKeys) {
      const oldest = this.trustedKeys.keys().next().value;
      if (oldest === undefined) break;
      this.trustedKeys.delete(oldest);
    }
  }
}
