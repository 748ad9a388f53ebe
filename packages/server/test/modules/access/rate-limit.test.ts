import { setTimeout as sleep } from 'node:timers/promises';
import { MeSchema, RATE_LIMIT } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RatePolicy } from '../../../src/modules/access/index.js';
import { generateKey, issueApiKey } from '../../../src/modules/access/index.js';
import { setPlan } from '../../../src/modules/organizations/store.js';
import { sharedTestDatabase } from '../../support/database.js';
import { ERROR_BODY } from '../../support/errors.js';
import { type ApiResponse, call } from '../../support/http.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * The per-key rate limit (spec, Limits: 120 requests per 60 seconds per key, then 429 with Retry-After), with the
 * draft-ietf-httpapi-ratelimit-headers fields. Timing is measured only where the rule itself is about time.
 */

const RATE_LIMIT_HEADER = /^"default";r=(0|[1-9][0-9]*);t=(0|[1-9][0-9]*)$/;

/** One request as the client saw it: when it left, when its answer came back (performance.now()), and the answer. */
interface Exchange {
  sentAt: number;
  receivedAt: number;
  response: ApiResponse;
}

async function timed(send: () => Promise<ApiResponse>): Promise<Exchange> {
  const sentAt = performance.now();
  const response = await send();
  return { sentAt, receivedAt: performance.now(), response };
}

/** The `r` and `t` of a RateLimit header. */
function rateLimitOf(response: ApiResponse): { r: number; t: number } {
  const match = RATE_LIMIT_HEADER.exec(response.headers.get('ratelimit') ?? '');
  if (!match) throw new Error(`bad RateLimit header: ${response.headers.get('ratelimit')}`);
  return { r: Number(match[1]), t: Number(match[2]) };
}

/** Retry-After as a whole number of seconds (delta-seconds), or a failure. */
function retryAfterOf(response: ApiResponse): number {
  const value = response.headers.get('retry-after') ?? '';
  expect(value).toMatch(/^[1-9][0-9]*$/);
  return Number(value);
}

/**
 * The exact sliding-window rule, checked from the client's side on a sequential log: the server stamps each request
 * somewhere between sentAt and receivedAt, so
 *  - no window-long span holds more than max admissions: admissions i and i+max are at least windowMs apart;
 *  - nothing is refused that the rule admits: a refusal came less than windowMs after the max-th most recent admission.
 */
function expectExactSlidingWindow(log: Exchange[], policy: RatePolicy) {
  const windowMs = policy.windowSeconds * 1000;
  const admitted: Exchange[] = [];
  for (const exchange of log) {
    const { status } = exchange.response;
    expect([200, 429]).toContain(status);
    if (status === 200) {
      admitted.push(exchange);
      continue;
    }
    const oldest = admitted[admitted.length - policy.maxRequests];
    if (!oldest) throw new Error(`refused after only ${admitted.length} admissions`);
    expect(exchange.sentAt - oldest.receivedAt).toBeLessThan(windowMs);
  }
  for (let i = 0; i + policy.maxRequests < admitted.length; i++) {
    const first = admitted[i];
    const next = admitted[i + policy.maxRequests];
    if (!first || !next) throw new Error('unreachable');
    expect(next.receivedAt - first.sentAt, `admissions ${i} and ${i + policy.maxRequests}`).toBeGreaterThanOrEqual(
      windowMs,
    );
  }
  return admitted.length;
}

/** Seconds left of a window that began when `first` was sent, as a whole number rounded up. */
const secondsLeft = (windowSeconds: number, first: Exchange) =>
  Math.ceil(windowSeconds - (performance.now() - first.sentAt) / 1000);

// One database for the file: its servers differ only in their policies, and each suite counts keys of its own.
const database = sharedTestDatabase();

describe('the API limit: 120 requests per 60 seconds per key', () => {
  let server: TestServer;
  let organization: TestOrganization;
  const me = (key: string | null) => timed(() => call(server.baseUrl, 'GET', '/me', { key }));

  beforeAll(async () => {
    server = await startTestServer({ database });
    organization = await createTestOrganization(server.database.sql);
  });
  afterAll(() => server.close());

  it('the contract says 120 per 60 s', () => {
    expect(RATE_LIMIT).toEqual({ maxRequests: 120, windowSeconds: 60 });
  });

  it('admits 120, then 429 with a Retry-After that does not grow while refused requests go on', async () => {
    const log: Exchange[] = [];
    for (let n = 1; n <= 120; n++) {
      const exchange = await me(organization.key);
      log.push(exchange);
      const { response } = exchange;
      expect(response.status, `request ${n}`).toBe(200);
      expect(response.headers.get('ratelimit-policy'), `request ${n}`).toBe('"default";q=120;w=60');
      const { r, t } = rateLimitOf(response);
      expect(r, `request ${n}`).toBe(120 - n);
      expect(t, `request ${n}`).toBeGreaterThanOrEqual(1);
      expect(t, `request ${n}`).toBeLessThanOrEqual(60);
      const first = log[0];
      if (!first) throw new Error('unreachable');
      // t counts down to when the first admission leaves the window.
      expect(Math.abs(t - secondsLeft(60, first)), `request ${n}: t=${t}`).toBeLessThanOrEqual(1);
      if (n === 1) {
        expect(MeSchema.parse(response.body).rateLimit).toEqual({ maxRequests: 120, windowSeconds: 60 });
      }
    }
    const [first] = log;
    if (!first) throw new Error('unreachable');

    let previous = Number.POSITIVE_INFINITY;
    for (let n = 121; n <= 126; n++) {
      const { response } = await me(organization.key);
      expect(response.status, `request ${n}`).toBe(429);
      expect(response.body).toEqual(ERROR_BODY.TOO_MANY_REQUESTS);
      expect(response.text).toBe(JSON.stringify(ERROR_BODY.TOO_MANY_REQUESTS));
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=120;w=60');
      const retryAfter = retryAfterOf(response);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(
        Math.abs(retryAfter - secondsLeft(60, first)),
        `request ${n}: Retry-After ${retryAfter}`,
      ).toBeLessThanOrEqual(1);
      // Refused requests are not counted: the wait never grows.
      expect(retryAfter).toBeLessThanOrEqual(previous);
      previous = retryAfter;
      expect(rateLimitOf(response)).toEqual({ r: 0, t: retryAfter });
    }
  });

  it('another key of the same organization is unaffected', async () => {
    const { response } = await me(organization.readKey);
    expect(response.status).toBe(200);
    expect(rateLimitOf(response).r).toBe(119);
    expect((await me(organization.key)).response.status).toBe(429);
  });

  it('GET /me reports maxRequests 120 and windowSeconds 60', async () => {
    const { response } = await me(organization.readKey);
    expect(response.status).toBe(200);
    expect(MeSchema.parse(response.body).rateLimit).toEqual({ maxRequests: 120, windowSeconds: 60 });
  });
});

describe('a short configured window: 5 requests per 2 seconds', () => {
  const policy: RatePolicy = { maxRequests: 5, windowSeconds: 2 };
  let server: TestServer;
  let organization: TestOrganization;
  let keys = 0;

  const me = (key: string | null, headers?: Record<string, string>) =>
    timed(() => call(server.baseUrl, 'GET', '/me', { key, ...(headers && { headers }) }));
  /** A key no request has used yet. */
  const freshKey = async (target: TestOrganization = organization) => {
    keys += 1;
    return issueApiKey(server.database.sql, {
      organizationId: target.organizationId,
      createdBy: target.ownerId,
      name: `rate ${keys}`,
      scopes: ['read', 'write'],
    });
  };
  /** Waits until `ms` have passed since `since` (performance.now()). */
  const waitUntil = async (since: number, ms: number) => {
    const left = since + ms - performance.now();
    if (left > 0) await sleep(left);
  };

  beforeAll(async () => {
    server = await startTestServer({ database, policy });
    organization = await createTestOrganization(server.database.sql);
  });
  afterAll(() => server.close());

  it('GET /me and RateLimit-Policy report the configured policy', async () => {
    const { key } = await freshKey();
    const { response } = await me(key);
    expect(response.status).toBe(200);
    expect(MeSchema.parse(response.body).rateLimit).toEqual({ maxRequests: 5, windowSeconds: 2 });
    expect(response.headers.get('ratelimit-policy')).toBe('"default";q=5;w=2');
    expect(rateLimitOf(response)).toEqual({ r: 4, t: 2 });
  });

  it('admits 5 in a burst and refuses the 6th', async () => {
    const { key } = await freshKey();
    const log: Exchange[] = [];
    for (let n = 1; n <= 5; n++) {
      const exchange = await me(key);
      log.push(exchange);
      expect(exchange.response.status, `request ${n}`).toBe(200);
      expect(rateLimitOf(exchange.response).r).toBe(5 - n);
    }
    const sixth = await me(key);
    log.push(sixth);
    expect(sixth.response.status).toBe(429);
    expect(sixth.response.body).toEqual(ERROR_BODY.TOO_MANY_REQUESTS);
    const retryAfter = retryAfterOf(sixth.response);
    expect([1, 2]).toContain(retryAfter);
    const first = log[0];
    if (!first) throw new Error('unreachable');
    expect(Math.abs(retryAfter - secondsLeft(2, first))).toBeLessThanOrEqual(1);
    expectExactSlidingWindow(log, policy);
  });

  it('frees exactly one slot per aged-out admission (3, then 2 after 1.2 s, then exactly 3 more)', async () => {
    const { key } = await freshKey();
    const log: Exchange[] = [];
    const record = async () => {
      const exchange = await me(key);
      log.push(exchange);
      return exchange;
    };

    for (let n = 1; n <= 3; n++) expect((await record()).response.status).toBe(200);
    const firstBatch = log.slice(0, 3);
    const [first] = firstBatch;
    const third = firstBatch[2];
    if (!first || !third) throw new Error('unreachable');

    await waitUntil(first.sentAt, 1_200);
    const secondBatchStart = performance.now();
    expect((await record()).response.status).toBe(200);
    const last = await record();
    expect(last.response.status).toBe(200);
    expect(rateLimitOf(last.response).r).toBe(0);

    // The 6th: the oldest admission leaves the window in under a second.
    const sixth = await record();
    expect(sixth.response.status).toBe(429);
    expect(retryAfterOf(sixth.response)).toBe(1);
    expect(rateLimitOf(sixth.response)).toEqual({ r: 0, t: 1 });
    // More refusals are not counted and change nothing.
    for (let n = 0; n < 3; n++) {
      const refused = await record();
      expect(refused.response.status).toBe(429);
      expect(retryAfterOf(refused.response)).toBe(1);
    }

    // Once the first three are out of the window (and the last two still in it): exactly three more.
    await waitUntil(third.receivedAt, 2_050);
    expect(performance.now()).toBeLessThan(secondBatchStart + 2_000);
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push((await record()).response.status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(secondBatchStart + 2_000).toBeGreaterThan(performance.now());

    expect(expectExactSlidingWindow(log, policy)).toBe(8);
  });

  it('no 2-second span ever admits more than 5, and nothing the rule admits is refused (4.5 s of traffic)', async () => {
    const { key } = await freshKey();
    const log: Exchange[] = [];
    // A fixed pseudo-random sequence of pauses between 0 and 120 ms, so a failure can be replayed.
    let seed = 20_240_601;
    const nextPause = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % 121;
    };
    const start = performance.now();
    while (performance.now() - start < 4_500) {
      log.push(await me(key));
      await sleep(nextPause());
    }
    const admitted = expectExactSlidingWindow(log, policy);
    // 4.5 s of steady traffic spans parts of three windows: at least 10 and at most 15 admissions.
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(15);
    expect(log.length).toBeGreaterThan(admitted);
  });

  it('another key of the same organization is unaffected by an exhausted key', async () => {
    const exhausted = await freshKey();
    const other = await freshKey();
    for (let n = 0; n < 5; n++) expect((await me(exhausted.key)).response.status).toBe(200);
    expect((await me(exhausted.key)).response.status).toBe(429);
    const { response } = await me(other.key);
    expect(response.status).toBe(200);
    expect(rateLimitOf(response).r).toBe(4);
  });

  /** The key's next six requests: five admitted with r = 4..0, then 429 (its quota is untouched). */
  async function expectFullQuota(key: string) {
    const log: Exchange[] = [];
    for (let n = 1; n <= 6; n++) log.push(await me(key));
    expect(log.map((e) => e.response.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(log.slice(0, 5).map((e) => rateLimitOf(e.response).r)).toEqual([4, 3, 2, 1, 0]);
  }

  it('requests without a key, or with an unknown or malformed key, are not counted', async () => {
    const issued = await freshKey();
    for (let n = 0; n < 8; n++) {
      for (const exchange of [
        await me(null),
        await me(generateKey()),
        await me(null, { authorization: `Bearer ${issued.key}x` }),
        await me(null, { authorization: `Basic ${Buffer.from(`${issued.key}:`).toString('base64')}` }),
        await me(null, { authorization: `Bearer ${issued.key.slice(0, -1)}` }),
      ]) {
        expect(exchange.response.status).toBe(401);
        expect(exchange.response.headers.get('ratelimit')).toBeNull();
        expect(exchange.response.headers.get('retry-after')).toBeNull();
      }
    }
    await expectFullQuota(issued.key);
  });

  it('requests with a revoked key are not counted (the key keeps its quota if un-revoked)', async () => {
    const issued = await freshKey();
    await server.database.sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${issued.id}`;
    for (let n = 0; n < 8; n++) {
      const { response } = await me(issued.key);
      expect(response.status).toBe(401);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
    await server.database.sql`UPDATE api_keys SET revoked_at = NULL WHERE id = ${issued.id}`;
    await expectFullQuota(issued.key);
  });

  it('requests with an expired key are not counted (the key keeps its quota if extended)', async () => {
    const issued = await freshKey();
    await server.database.sql`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = ${issued.id}`;
    for (let n = 0; n < 8; n++) expect((await me(issued.key)).response.status).toBe(401);
    await server.database.sql`UPDATE api_keys SET expires_at = now() + interval '1 day' WHERE id = ${issued.id}`;
    await expectFullQuota(issued.key);
  });

  it('requests refused with 403 because the plan lost API access are not counted', async () => {
    const downgraded = await createTestOrganization(server.database.sql);
    await setPlan(server.database.sql, downgraded.organizationId, 'starter');
    for (let n = 0; n < 8; n++) {
      const { response } = await me(downgraded.key);
      expect(response.status).toBe(403);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
    await setPlan(server.database.sql, downgraded.organizationId, 'business');
    await expectFullQuota(downgraded.key);
  });
});
