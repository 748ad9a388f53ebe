import type { ResponseObserver } from '../session.js';

// The API's rate limit headers (draft-ietf-httpapi-ratelimit-headers), as every response carries them:
//   RateLimit: "default";r=<requests remaining>;t=<seconds until the count goes down>
//   RateLimit-Policy: "default";q=<requests>;w=<window in seconds>

export interface RateLimitState {
  remaining: number;
  /** Seconds until a request more is allowed. */
  resetSeconds: number;
}

export interface RateLimitPolicy {
  quota: number;
  windowSeconds: number;
}

/** A parameter of a structured header's first item: `r` of `"default";r=5;t=10`. */
function parameter(header: string, name: string): number | undefined {
  const match = new RegExp(`;\\s*${name}=(\\d+)`).exec(header.split(',')[0] ?? '');
  return match ? Number(match[1]) : undefined;
}

export function parseRateLimit(header: string | null): RateLimitState | undefined {
  if (!header) return undefined;
  const remaining = parameter(header, 'r');
  const resetSeconds = parameter(header, 't');
  return remaining === undefined || resetSeconds === undefined ? undefined : { remaining, resetSeconds };
}

export function parseRateLimitPolicy(header: string | null): RateLimitPolicy | undefined {
  if (!header) return undefined;
  const quota = parameter(header, 'q');
  const windowSeconds = parameter(header, 'w');
  return quota === undefined || windowSeconds === undefined ? undefined : { quota, windowSeconds };
}

/**
 * Requests an import leaves unspent before it pauses for the window to move on: one, so that another command with
 * the same key (an `items list` while it runs) still gets through.
 */
export const RESERVE = 1;

/** What every response of a run says of the rate limit: the 429s counted, and the latest policy (for the pauses). */
export class RateLimitWatch {
  /** 429 answers, each sent again after the wait. */
  rateLimited = 0;
  policy: RateLimitPolicy | undefined;

  readonly observe: ResponseObserver = (response) => {
    if (response.status === 429) this.rateLimited += 1;
    this.policy = parseRateLimitPolicy(response.headers.get('ratelimit-policy')) ?? this.policy;
  };
}
