import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import openApiDocument, { type ResponseObject } from '@coinventory/contract/openapi';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql, type Database } from '../../../src/db/connect.js';
import type { Sql } from '../../../src/db/types.js';
import { type RunningServer, startServer } from '../../../src/entry/server.js';
import { loadEnv } from '../../../src/env.js';
import { createApp } from '../../../src/http/app.js';
import { FailedAuthLimiter, generateKey, issueApiKey } from '../../../src/modules/access/index.js';
import { createTestDatabase } from '../../support/database.js';
import { ERROR_BODY } from '../../support/errors.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';

/**
 * An address that keeps presenting keys the database does not know is answered 429, with Retry-After, without its
 * keys being looked up, once it spent its budget of failed lookups; keys this process verified recently keep
 * working from the same address, and other addresses are unaffected. Every request goes over real HTTP from a
 * chosen loopback address (127.0.0.1, 127.0.0.2, …), and the key lookups are counted on the way to the database.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** GET /v1/me from `from` (a loopback address), with `key` as a bearer key when given. */
function me(origin: string, from: string, key: string | null): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}/v1/me`,
      { localAddress: from, headers: key === null ? {} : { authorization: `Bearer ${key}` }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

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

function expectThrottled(answer: Answer, windowSeconds: number) {
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
  let database: Database;
  let organization: TestOrganization;
  let server: Server;
  let origin: string;
  let lookups: () => number;

  beforeAll(async () => {
    database = await createTestDatabase();
    organization = await createTestOrganization(database.sql);
    const counted = countingLookups(database.sql);
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
    await database?.close();
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
    const issued = await issueApiKey(database.sql, {
      organizationId: organization.organizationId,
      createdBy: organization.ownerId,
      name: 'to revoke',
      scopes: ['read'],
    });
    expect((await me(origin, from, issued.key)).status).toBe(200);
    for (let n = 0; n < LIMIT; n++) expect((await me(origin, from, generateKey())).status).toBe(401);
    expect((await me(origin, from, issued.key)).status).toBe(200);
    await database.sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${issued.id}`;
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
    const database = await createTestDatabase();
    // Every key lookup is held for 300 ms, so the whole burst is in flight at once, as it is on a busy database.
    const slow = new Proxy(database.sql, {
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
      const organization = await createTestOrganization(database.sql);
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const answers = await Promise.all(Array.from({ length: 60 }, () => me(origin, '127.0.0.6', organization.key)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(200));
      // Made-up keys, all in flight at once too, still get only the budget.
      const guesses = await Promise.all(Array.from({ length: 20 }, () => me(origin, '127.0.0.7', generateKey())));
      expect(guesses.filter((answer) => answer.status === 401)).toHaveLength(5);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    }
  });
});

describe('AUTH_FAILURE_LIMIT', () => {
  let admin: Sql | undefined;
  let databaseName: string | undefined;
  let dataDir: string | undefined;
  const running: RunningServer[] = [];

  /**
   * The server as `coinventory-server start` runs it, configured by these variables. The first start makes its
   * database; the next reopens it (the one before has closed), as a restart with new settings would.
   */
  async function start(variables: Record<string, string>): Promise<RunningServer> {
    const clusterUrl = inject('postgresUrl');
    const env: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', SYNC_WORKER: 'off', ...variables };
    if (clusterUrl) {
      admin ??= createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
      databaseName ??= `test_${randomBytes(6).toString('hex')}`;
      if (running.length === 0) await admin`CREATE DATABASE ${admin(databaseName)}`;
      const url = new URL(clusterUrl);
      url.pathname = `/${databaseName}`;
      env.DATABASE_URL = url.toString();
    } else {
      dataDir ??= mkdtempSync(join(tmpdir(), 'coinventory-failed-auth-'));
      env.COINVENTORY_DATA_DIR = dataDir;
    }
    const started = await startServer({ env: loadEnv(env), logger: pino({ level: 'silent' }) });
    running.push(started);
    return started;
  }

  afterAll(async () => {
    for (const server of running) await server.close();
    if (admin && databaseName) await admin`DROP DATABASE IF EXISTS ${admin(databaseName)} WITH (FORCE)`;
    await admin?.end({ timeout: 5 });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('defaults to 20 failed lookups per address', () => {
    expect(loadEnv({}).AUTH_FAILURE_LIMIT).toBe(20);
  });

  it('sets the budget of the server it starts; 0 turns the limiter off', async () => {
    const limited = await start({ AUTH_FAILURE_LIMIT: '3' });
    const limitedOrigin = limited.baseUrl.replace(/\/v1$/, '');
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push((await me(limitedOrigin, '127.0.0.1', generateKey())).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    await limited.close();

    const unlimited = await start({ AUTH_FAILURE_LIMIT: '0' });
    const unlimitedOrigin = unlimited.baseUrl.replace(/\/v1$/, '');
    for (let n = 0; n < 30; n++) expect((await me(unlimitedOrigin, '127.0.0.1', generateKey())).status).toBe(401);
  }, 60_000);
});
