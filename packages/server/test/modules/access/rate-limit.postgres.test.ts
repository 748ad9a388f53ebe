import { randomBytes } from 'node:crypto';
import { MeSchema, RATE_LIMIT } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../../src/db/connect.js';
import type { Sql } from '../../../src/db/types.js';
import { issueApiKey } from '../../../src/modules/access/index.js';
import { type Running, runToEnd, start, stop } from '../../support/binary.js';
import { ERROR_BODY } from '../../support/errors.js';
import { type ApiResponse, call } from '../../support/http.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';

/**
 * The rate limit is kept in the database, so several server processes on one database count the same requests:
 * the limit stays exact at 120, and a revoked key stops working on every process at once.
 */

/** The documented bound for a revocation to reach every process. */
const REVOCATION_BOUND_MS = 5_000;

let admin: Sql;
let sql: Sql;
let databaseName: string;
let servers: Running[] = [];
let organization: TestOrganization;

const me = (server: Running, key: string) => call(server.baseUrl, 'GET', '/me', { key });
const remainingOf = (response: ApiResponse) => {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  if (!match) throw new Error(`bad RateLimit header: ${response.headers.get('ratelimit')}`);
  return Number(match[1]);
};

beforeAll(async () => {
  const clusterUrl = inject('postgresUrl');
  admin = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  databaseName = `test_${randomBytes(6).toString('hex')}`;
  await admin`CREATE DATABASE ${admin(databaseName)}`;
  const url = new URL(clusterUrl);
  url.pathname = `/${databaseName}`;
  const env = { DATABASE_URL: url.toString(), SYNC_WORKER: 'off', DATABASE_POOL_SIZE: '10' };

  const migrated = await runToEnd(['migrate'], env);
  expect(migrated.code, migrated.stderr).toBe(0);
  servers = await Promise.all([start(env), start(env)]);

  sql = createSql(url.toString(), { max: 2, statementTimeoutMs: 0 });
  organization = await createTestOrganization(sql);
}, 120_000);

afterAll(async () => {
  for (const server of servers) await stop(server);
  await sql?.end({ timeout: 5 });
  if (databaseName) await admin`DROP DATABASE IF EXISTS ${admin(databaseName)} WITH (FORCE)`;
  await admin?.end({ timeout: 5 });
}, 60_000);

describe('two server processes on one database', () => {
  it('both run the API limit of 120 per 60 s', async () => {
    for (const server of servers) {
      const response = await call(server.baseUrl, 'GET', '/me', { key: organization.readKey });
      expect(response.status).toBe(200);
      expect(MeSchema.parse(response.body).rateLimit).toEqual(RATE_LIMIT);
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=120;w=60');
    }
  });

  it('the rate limit is exact at 120 with 200 concurrent requests split between them', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, n) => {
        const server = servers[n % 2];
        if (!server) throw new Error('no server');
        return me(server, organization.key);
      }),
    );
    const admitted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.map((r) => r.status).filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(admitted).toHaveLength(120);
    expect(refused).toHaveLength(80);

    // Every admission was counted once, in one order across both processes: remaining takes each value once.
    expect(admitted.map(remainingOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, n) => n));
    for (const response of refused) {
      expect(response.body).toEqual(ERROR_BODY.TOO_MANY_REQUESTS);
      const retryAfter = response.headers.get('retry-after') ?? '';
      expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(remainingOf(response)).toBe(0);
    }

    // Both processes keep refusing the exhausted key.
    for (const server of servers) expect((await me(server, organization.key)).status).toBe(429);
  });

  it('another key of the organization → 200 on both processes, counted once across them', async () => {
    const other = await issueApiKey(sql, {
      organizationId: organization.organizationId,
      createdBy: organization.ownerId,
      name: 'other',
      scopes: ['read'],
    });
    const [first, second] = servers;
    if (!first || !second) throw new Error('two servers expected');
    const onFirst = await me(first, other.key);
    const onSecond = await me(second, other.key);
    expect([onFirst.status, onSecond.status]).toEqual([200, 200]);
    expect([remainingOf(onFirst), remainingOf(onSecond)]).toEqual([119, 118]);
  });

  it('a key revoked in the database is refused by both processes on the next request', async () => {
    const issued = await issueApiKey(sql, {
      organizationId: organization.organizationId,
      createdBy: organization.ownerId,
      name: 'to revoke',
      scopes: ['read', 'write'],
    });
    for (const server of servers) expect((await me(server, issued.key)).status).toBe(200);

    await sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${issued.id}`;
    const revokedAt = performance.now();
    const outcomes = await Promise.all(
      servers.map(async (server) => {
        let attempts = 0;
        for (;;) {
          attempts += 1;
          const response = await me(server, issued.key);
          const delayMs = performance.now() - revokedAt;
          if (response.status !== 200 || delayMs > REVOCATION_BOUND_MS) {
            return {
              status: response.status,
              body: response.body,
              attempts,
              withinBound: delayMs <= REVOCATION_BOUND_MS,
            };
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    );
    for (const outcome of outcomes) {
      // Within the documented bound, and in fact on the very first request after the revocation.
      expect(outcome).toEqual({ status: 401, body: ERROR_BODY.UNAUTHORIZED, attempts: 1, withinBound: true });
    }
  });
});
