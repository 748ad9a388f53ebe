import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import openApiDocument, { type ResponseObject } from '@coinventory/contract/openapi';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { createApp } from '../../../src/http/app.js';
import { FailedAuthLimiter, generateKey, issueApiKey } from '../../../src/modules/access/index.js';
import { sharedTestDatabase } from '../../support/database.js';
import { ERROR_BODY } from '../../support/errors.js';
import { meFrom as me, type NodeAnswer } from '../../support/http.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';

/**
 * An address that keeps presenting keys the database does not know is answered 429, with Retry-After, without its
 * keys being looked up, once it spent its budget of failed lookups; keys this process verified recently keep
 * working from the same address, and other addresses are unaffected. Every request goes over real HTTP from a
 * chosen loopback address (127.0.0.1, 127.0.0.2, …), and the key lookups are counted on the way to the database.
 * How AUTH_FAILURE_LIMIT configures a started server is in failed-auth-setting.test.ts.
 */

// One database for the file: each suite builds its own app and limiter on it.
const database = sharedTestDatabase();

/** The pool, with every key lookup (the statement that also counts the request) counted on its way through. */
function countingLookups(sql: Sql): { sql: Sql; lookups: () => number } {
  let lookups = 0;
  const counting = new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const [strings] = args;
      if (Array.isArray(strings) && strings.join('').includes('rate_limit_admit')) lookups += 1;
      return Reflect.apply(target, thisArg, args);
    },
  });
  return { sql: counting, lookups: () => lookups };
}

function expectThrottled(answer: NodeAnswer, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual(ERROR_BODY.TOO_MANY_REQUESTS);
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  // The policy, as on every API response; nothing about a key that was never looked up.
  expect(answer.headers['ratelimit-policy']).toBe('"default";q=120;w=60');
  expect(answer.headers.ratelimit).toBeUndefined();
  // As the OpenAPI document describes a 429: every header it requires is there, and every one sent is described.
  const documented = openApiDocument.paths['/me']?.get?.responses['429'];
  if (!documented) throw new Error('GET /me documents no 429');
  const resolved: ResponseObject | undefined =
    '$ref' in documented
      ? openApiDocument.components.responses[documented.$ref.replace('#/components/responses/', '')]
      : documented;
  const headers = Object.entries(resolved?.headers ?? {});
  expect(headers.length).toBeGreaterThan(0);
  for (const [name, header] of headers) {
    if (header.required) expect(answer.headers[name.toLowerCase()], name).toBeDefined();
  }
  for (const name of ['RateLimit', 'WWW-Authenticate']) {
    if (answer.headers[name.toLowerCase()] !== undefined) expect(headers.map(([n]) => n)).toContain(name);
  }
  return retryAfter;
}

describe('failed authentications from one address', () => {
  const LIMIT = 5;
  const WINDOW_MS = 2_000;
  let organization: TestOrganization;
  let server: Server;
  let origin: string;
  let lookups: () => number;

  beforeAll(async () => {
    organization = await createTestOrganization(database().sql);
    const counted = countingLookups(database().sql);
    lookups = counted.lookups;
    const app = createApp({
      sql: counted.sql,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      failedAuth: new FailedAuthLimiter({ limit: LIMIT, windowMs: WINDOW_MS }),
    });
    server = createServer(app);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('after its budget, bad keys get 429 with Retry-After and no lookup; a verified key keeps getting 200', async () => {
    const from = '127.0.0.1';
    expect((await me(origin, from, organization.key)).status).toBe(200);
    const before = lookups();
    for (let n = 0; n < LIMIT; n++) {
      const answer = await me(origin, from, generateKey());
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(ERROR_BODY.UNAUTHORIZED);
    }
    expect(lookups() - before).toBe(LIMIT);

    const flooding = lookups();
    let valid = 0;
    for (let n = 0; n < 60; n++) {
      expectThrottled(await me(origin, from, generateKey()), WINDOW_MS / 1000);
      if (n % 10 === 0) {
        // The integration behind the same address is looked up, verified and answered as ever.
        const answer = await me(origin, from, organization.key);
        expect(answer.status).toBe(200);
        expect(answer.headers.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
        valid += 1;
      }
    }
    // 60 refusals cost the database nothing: the only lookups were the valid key's.
    expect(lookups() - flooding).toBe(valid);

    // A key this process has not verified yet is not told apart from a guess while the address is throttled.
    expectThrottled(await me(origin, from, organization.readKey), WINDOW_MS / 1000);
    // Requests without a key, or with a malformed one, never reach the database and are answered 401 as ever.
    expect((await me(origin, from, null)).status).toBe(401);
    expect((await me(origin, from, 'cvk_live_not-a-key')).status).toBe(401);
    expect(lookups() - flooding).toBe(valid);
  });

  it('another address is unaffected', async () => {
    const other = '127.0.0.2';
    expect((await me(origin, other, generateKey())).status).toBe(401);
    expect((await me(origin, other, organization.readKey)).status).toBe(200);
    // The first address is still throttled.
    expectThrottled(await me(origin, '127.0.0.1', generateKey()), WINDOW_MS / 1000);
  });

  it('once Retry-After has passed, the address gets one more lookup per failure that leaves the window', async () => {
    const from = '127.0.0.1';
    const retryAfter = expectThrottled(await me(origin, from, generateKey()), WINDOW_MS / 1000);
    await sleep(retryAfter * 1000 + 50);
    const before = lookups();
    expect((await me(origin, from, generateKey())).status).toBe(401);
    expect(lookups() - before).toBe(1);
  });

  it('a verified key that is revoked is refused on its very next request, and exempt no more', async () => {
    const from = '127.0.0.4';
    const issued = await issueApiKey(database().sql, {
      organizationId: organization.organizationId,
      createdBy: organization.ownerId,
      name: 'to revoke',
      scopes: ['read'],
    });
    expect((await me(origin, from, issued.key)).status).toBe(200);
    for (let n = 0; n < LIMIT; n++) expect((await me(origin, from, generateKey())).status).toBe(401);
    expect((await me(origin, from, issued.key)).status).toBe(200);
    await database().sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${issued.id}`;
    const revoked = await me(origin, from, issued.key);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual(ERROR_BODY.UNAUTHORIZED);
    expectThrottled(await me(origin, from, issued.key), WINDOW_MS / 1000);
  });

  it('a concurrent flood from a fresh address gets exactly its budget of lookups', async () => {
    const from = '127.0.0.3';
    const before = lookups();
    const answers = await Promise.all(Array.from({ length: 100 }, () => me(origin, from, generateKey())));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - LIMIT);
    expect(lookups() - before).toBe(LIMIT);
  });
});

describe("a valid key's first burst, before this process has verified it", () => {
  it('is never refused, even while all its lookups are still in flight', async () => {
    // Every key lookup is held for 300 ms, so the whole burst is in flight at once, as it is on a busy database.
    const slow = new Proxy(database().sql, {
      apply(target, thisArg, args: unknown[]) {
        const [strings] = args;
        const query = () => Reflect.apply(target, thisArg, args);
        if (Array.isArray(strings) && strings.join('').includes('rate_limit_admit'))
          return new Promise((resolve) => setTimeout(resolve, 300)).then(query);
        return query();
      },
    });
    const server = createServer(
      createApp({
        sql: slow,
        logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
        failedAuth: new FailedAuthLimiter({ limit: 5 }),
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const organization = await createTestOrganization(database().sql);
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const answers = await Promise.all(Array.from({ length: 60 }, () => me(origin, '127.0.0.6', organization.key)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(200));
      // Made-up keys, all in flight at once too, still get only the budget.
      const guesses = await Promise.all(Array.from({ length: 20 }, () => me(origin, '127.0.0.7', generateKey())));
      expect(guesses.filter((answer) => answer.status === 401)).toHaveLength(5);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
