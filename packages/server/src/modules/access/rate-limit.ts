/** The rate limit a key is counted against. */
export interface RatePolicy {
  maxRequests: number;
  windowSeconds: number;
}

/** The rate limiter's verdict on one request (see rate-limit-admit.sql). */
export interface RateDecision {
  admitted: boolean;
  /** Requests still admitted in the current window, after this one. */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (0 when none is counted). */
  resetMs: number;
  /** Milliseconds until one more request would be admitted; 0 when this one was. */
  retryAfterMs: number;
}

/** draft-ietf-httpapi-ratelimit-headers: the policy every key is held to. */
export const rateLimitPolicyHeader = (policy: RatePolicy) =>
  `"default";q=${policy.maxRequests};w=${policy.windowSeconds}`;

/** Whole seconds, rounded up: what Retry-After and the RateLimit header carry. */
export const seconds = (ms: number) => Math.ceil(ms / 1000);

/** The key's current standing: requests left in the window, and seconds until the count next goes down. */
export const rateLimitHeader = (rate: RateDecision) =>
  `"default";r=${rate.remaining};t=${seconds(rate.admitted ? rate.resetMs : rate.retryAfterMs)}`;
