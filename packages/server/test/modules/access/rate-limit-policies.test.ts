import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, createSql, type Database } from '../../../src/db/connect.js';
import { migrate } from '../../../src/db/migrate.js';
import { type Migration, migrations } from '../../../src/db/migrations/index.js';
import { createApp } from '../../../src/http/app.js';
import type { RatePolicy } from '../../../src/modules/access/index.js';
import { issueApiKey } from '../../../src/modules/access/index.js';
import { createTestDatabase } from '../../support/database.js';
import { type ApiResponse, call } from '../../support/http.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';

/**
 * Server processes with different rate-limit settings on one database, as in the middle of a rolling change of
 * RATE_LIMIT_MAX_REQUESTS: each counts every admission of the key, so no window ever holds more than the larger
 * limit, and each answers with its own policy's figures. A limit changed in the middle of a window (a process
 * restarted with another setting) keeps the window's count.
 */

interface Instance {
  policy: RatePolicy;
  baseUrl: string;
  server: Server;
}

let database: Database;
let organization: TestOrganization;
const instances: Instance[] = [];
let keys = 0;

/** Another server on the same database with its own rate-limit setting. */
async function instance(policy: RatePolicy): Promise<Instance> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const server = createServer(createApp({ sql: database.sql, logger, policy }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const started = { policy, baseUrl: `http://127.0.0.1:${port}/v1`, server };
  instances.push(started);
  return started;
}

async function freshKey(): Promise<string> {
  keys += 1;
  const issued = await issueApiKey(database.sql, {
    organizationId: organization.organizationId,
    createdBy: organization.ownerId,
    name: `policies ${keys}`,
    scopes: ['read'],
  });
  return issued.key;
}

const me = (at: Instance, key: string) => call(at.baseUrl, 'GET', '/me', { key });

function rateLimitOf(response: ApiResponse): { r: number; t: number } {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  if (!match) throw new Error(`bad RateLimit header: ${response.headers.get('ratelimit')}`);
  return { r: Number(match[1]), t: Number(match[2]) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  organization = await createTestOrganization(database.sql);
});

afterAll(async () => {
  for (const { server } of instances) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await database?.close();
});

describe('servers with different rate limits on one database', () => {
  it('two servers at 120 and 121 admit 121 of 400 concurrent requests of one key, not 400', async () => {
    const servers = [
      await instance({ maxRequests: 120, windowSeconds: 60 }),
      await instance({ maxRequests: 121, windowSeconds: 60 }),
    ];
    const key = await freshKey();
    const responses = await Promise.all(
      Array.from({ length: 400 }, (_, n) => {
        const at = servers[n % 2];
        if (!at) throw new Error('no server');
        return me(at, key);
      }),
    );
    expect(responses.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    const admitted = responses.filter((r) => r.status === 200).length;
    // The server at 121 admits once 120 are in the window, so 120 or 121 depending on who asks last.
    expect(admitted).toBeGreaterThanOrEqual(120);
    expect(admitted).toBeLessThanOrEqual(121);
  });

  it('requests of one key taking turns between limits of 5 and 6: 6 admitted in the window, each server’s figures its own', async () => {
    const five = await instance({ maxRequests: 5, windowSeconds: 60 });
    const six = await instance({ maxRequests: 6, windowSeconds: 60 });
    const key = await freshKey();
    const seen: Array<{ limit: number; status: number; r: number; policy: string | null }> = [];
    for (let n = 0; n < 20; n++) {
      const at = n % 2 === 0 ? five : six;
      const response = await me(at, key);
      seen.push({
        limit: at.policy.maxRequests,
        status: response.status,
        r: rateLimitOf(response).r,
        policy: response.headers.get('ratelimit-policy'),
      });
      if (response.status === 429) {
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    }
    // Every request within one window: admitted while fewer than the server's own limit are in it.
    expect(seen.slice(0, 8)).toEqual([
      { limit: 5, status: 200, r: 4, policy: '"default";q=5;w=60' },
      { limit: 6, status: 200, r: 4, policy: '"default";q=6;w=60' },
      { limit: 5, status: 200, r: 2, policy: '"default";q=5;w=60' },
      { limit: 6, status: 200, r: 2, policy: '"default";q=6;w=60' },
      { limit: 5, status: 200, r: 0, policy: '"default";q=5;w=60' },
      { limit: 6, status: 200, r: 0, policy: '"default";q=6;w=60' },
      { limit: 5, status: 429, r: 0, policy: '"default";q=5;w=60' },
      { limit: 6, status: 429, r: 0, policy: '"default";q=6;w=60' },
    ]);
    expect(seen.filter((s) => s.status === 200)).toHaveLength(6);
  });

  it('a limit changed up and down within one window keeps the window’s count', async () => {
    const byLimit = new Map<number, Instance>();
    for (const maxRequests of [3, 5, 6, 8])
      byLimit.set(maxRequests, await instance({ maxRequests, windowSeconds: 60 }));
    const key = await freshKey();
    let count = 0;
    // A process restarted with another setting, again and again, within one minute.
    for (const [limit, requests] of [
      [5, 4],
      [3, 2],
      [8, 6],
      [6, 2],
      [3, 1],
      [8, 2],
      [5, 2],
    ] as const) {
      const at = byLimit.get(limit);
      if (!at) throw new Error('no server');
      for (let n = 0; n < requests; n++) {
        const response = await me(at, key);
        const expected = count < limit ? 200 : 429;
        expect(response.status, `request ${n + 1} at ${limit} with ${count} in the window`).toBe(expected);
        if (expected === 200) count += 1;
        expect(rateLimitOf(response).r).toBe(Math.max(0, limit - count));
      }
    }
    // Never more than the largest limit in use, 8, where resetting the count at each change admitted all 19.
    expect(count).toBe(8);
  });

  it('with a 2-second window, turns between 5 and 6 never admit more than 6 in any 2 seconds', async () => {
    const five = await instance({ maxRequests: 5, windowSeconds: 2 });
    const six = await instance({ maxRequests: 6, windowSeconds: 2 });
    const key = await freshKey();
    const admitted: Array<{ sentAt: number; receivedAt: number }> = [];
    let refused = 0;
    const start = performance.now();
    for (let n = 0; performance.now() - start < 4_500; n++) {
      const at = n % 3 === 0 ? six : five;
      const sentAt = performance.now();
      const response = await me(at, key);
      const receivedAt = performance.now();
      expect([200, 429]).toContain(response.status);
      if (response.status === 200) admitted.push({ sentAt, receivedAt });
      else refused += 1;
      await sleep(20);
    }
    // Admissions i and i + 6 are at least a window apart, as the server stamped each between send and answer.
    for (let i = 0; i + 6 < admitted.length; i++) {
      const first = admitted[i];
      const next = admitted[i + 6];
      if (!first || !next) throw new Error('unreachable');
      expect(next.receivedAt - first.sentAt, `admissions ${i} and ${i + 6}`).toBeGreaterThanOrEqual(2_000);
    }
    expect(admitted.length).toBeGreaterThanOrEqual(10);
    expect(refused).toBeGreaterThan(0);
  });
});

/** A database with only the given migrations applied, dropped on close. */
async function databaseMigratedWith(applied: readonly Migration[]): Promise<Database> {
  const clusterUrl = inject('postgresUrl');
  if (!clusterUrl) {
    const embedded = await connectDatabase({ dataDir: 'memory://', poolSize: 1, statementTimeoutMs: 0 });
    await migrate(embedded.sql, applied);
    return embedded;
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  await admin`CREATE DATABASE ${admin(name)}`;
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  const opened = await connectDatabase({ url: url.toString(), dataDir: 'unused', poolSize: 2, statementTimeoutMs: 0 });
  await migrate(opened.sql, applied);
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`;
      await admin.end();
    },
  };
}

describe('the upgrade to the new counting', () => {
  it('a window counted before the upgrade is still counted after it', async () => {
    // The database as the release before it left it: every migration before the new counting.
    const upgrade = migrations.find((m) => m.name === 'rate_limit_mixed_policies');
    const previous = migrations.filter((m) => m.version < (upgrade?.version ?? 0));
    expect(previous.map((m) => m.version)).toEqual([1, 2, 3, 4, 5]);
    const old = await databaseMigratedWith(previous);
    try {
      const sqlOf = old.sql;
      const [state] = await sqlOf<{ version: number }[]>`SELECT max(version)::int AS version FROM schema_migrations`;
      expect(state?.version).toBe(previous.length);
      const key = '00000000-0000-4000-8000-000000000001';
      const admit = async (max: number) => {
        const [row] = await sqlOf<{ admitted: boolean; remaining: number }[]>`
          SELECT admitted, remaining FROM rate_limit_admit(${key}, ${max}, 60000)
        `;
        return row;
      };
      for (let n = 1; n <= 3; n++) expect(await admit(5)).toEqual({ admitted: true, remaining: 5 - n });
      await migrate(sqlOf);
      expect(await admit(5)).toEqual({ admitted: true, remaining: 1 });
      // A larger limit counts the same four, rather than starting again.
      expect(await admit(6)).toEqual({ admitted: true, remaining: 1 });
      expect(await admit(5)).toEqual({ admitted: false, remaining: 0 });
      expect(await admit(6)).toEqual({ admitted: true, remaining: 0 });
      expect(await admit(6)).toEqual({ admitted: false, remaining: 0 });
    } finally {
      await old.close();
    }
  });
});
