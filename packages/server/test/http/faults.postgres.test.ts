import { request as httpRequest } from 'node:http';
import { ItemSchema } from '@coinventory/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import { type RunningServer, startServer } from '../../src/entry/server.js';
import { loadEnv } from '../../src/env.js';
import { createClusterDatabase } from '../support/admin.js';
import { type Running, start, stop } from '../support/binary.js';
import { ERROR_BODY } from '../support/errors.js';
import { client } from '../support/http.js';
import { type Api, createItem, freshApi } from '../support/items.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { holdInOtherSession } from '../support/sessions.js';

/**
 * What only a real PostgreSQL shows: a statement held by another session's lock past the request's deadline or the
 * shutdown timeout. The answer must say what happened: a 500 or 503 means the change never commits, not even once the
 * lock is released.
 */

const UNLIMITED = { maxRequests: 1_000_000, windowSeconds: 60 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Backends of the server that are waiting on a lock: a cancelled statement is no longer among them. */
async function waitingOnLocks(server: TestServer): Promise<number> {
  const [row] = await server.database.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = 'coinventory-server'
  `;
  return row?.n ?? 0;
}

describe('the request deadline, with a statement blocked by another session', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let api: Api;

  beforeAll(async () => {
    server = await startTestServer({ policy: UNLIMITED, requestTimeoutMs: 600 });
    organization = await createTestOrganization(server.database.sql);
    api = await freshApi(server, organization);
  });
  afterAll(() => server.close());

  it('answers 500, cancels the statement, and the PATCH never commits, even once the lock is gone', async () => {
    const item = await createItem(api, { sku: 'HELD-PATCH', title: 'Before', quantity: 1 });
    const holder = await holdInOtherSession(server, (tx) => tx`SELECT 1 FROM items WHERE id = ${item.id} FOR UPDATE`);
    try {
      const response = await api.patch(`/items/${item.id}`, { body: { title: 'After', quantity: 7 } });
      expect(response.status).toBe(500);
      expect(response.body).toEqual(ERROR_BODY.INTERNAL_SERVER_ERROR);
      // The blocked UPDATE was cancelled at the deadline, not left waiting for the lock.
      for (let i = 0; i < 50 && (await waitingOnLocks(server)) > 0; i += 1) await sleep(20);
      expect(await waitingOnLocks(server)).toBe(0);
    } finally {
      await holder.release();
    }
    await sleep(300);
    const after = ItemSchema.parse((await api.get(`/items/${item.id}`)).body);
    expect(after.title).toBe('Before');
    expect(after.quantity.available).toBe(1);
  });

  it('answers 500 and the POST never commits, even once the blocking insert of the same SKU rolls back', async () => {
    const holder = await holdInOtherSession(
      server,
      (tx) => tx`
        INSERT INTO items (organization_id, sku, title, warehouse_id, zone_id)
        VALUES (${organization.organizationId}, 'HELD-POST', 'Holder', ${organization.defaultWarehouseId}, ${organization.defaultZoneId})
      `,
    );
    try {
      const response = await api.post('/items', { body: { sku: 'HELD-POST', title: 'Mine' } });
      expect(response.status).toBe(500);
    } finally {
      await holder.release();
    }
    await sleep(300);
    const listed = await api.get('/items?sku=HELD-POST');
    expect(listed.body).toMatchObject({ items: [] });
  });
});

/** One request on its own keep-alive connection; resolves with its status, headers and body. */
function keepAliveRequest(origin: string, key: string, method: string, path: string, body?: unknown) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: unknown }>(
    (resolve, reject) => {
      const req = httpRequest(
        `${origin}${path}`,
        {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            connection: 'keep-alive',
            ...(payload && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    },
  );
}

describe('a graceful shutdown', () => {
  let database: { url: string; drop(): Promise<void> };
  let running: RunningServer;
  let testServer: TestServer;
  const lines: Array<{ level: number; msg: string; requestId?: string }> = [];

  beforeAll(async () => {
    const clusterUrl = inject('postgresUrl');
    if (!clusterUrl) throw new Error('the postgres project provides a cluster');
    database = await createClusterDatabase(clusterUrl);
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) },
    );
    const env = loadEnv({
      DATABASE_URL: database.url,
      PORT: '0',
      SHUTDOWN_TIMEOUT_MS: '800',
      SYNC_WORKER: 'off',
      RATE_LIMIT_MAX_REQUESTS: '100000',
    });
    running = await startServer({ env, logger });
    // The test-server handle over the same database, for the helpers that take one.
    testServer = {
      baseUrl: running.baseUrl,
      origin: running.baseUrl.replace(/\/v1$/, ''),
      database: running.database,
      close: async () => {},
    };
  });
  afterAll(async () => {
    await running?.close();
    await database?.drop();
  });

  it('says Connection: close on what it answers while draining, and rolls back and answers 503 what it cuts off', async () => {
    const organization = await createTestOrganization(running.database.sql);
    const api = await freshApi(testServer, organization);
    const finishing = await createItem(api, { sku: 'DRAIN-FINISHES', title: 'Before' });
    const cut = await createItem(api, { sku: 'DRAIN-CUT', title: 'Before', quantity: 1 });
    const { origin } = testServer;

    // Two PATCHes held by row locks: one released during the drain, one held past SHUTDOWN_TIMEOUT_MS.
    const holdFinishing = await holdInOtherSession(
      testServer,
      (tx) => tx`SELECT 1 FROM items WHERE id = ${finishing.id} FOR UPDATE`,
    );
    const holdCut = await holdInOtherSession(
      testServer,
      (tx) => tx`SELECT 1 FROM items WHERE id = ${cut.id} FOR UPDATE`,
    );
    const finished = keepAliveRequest(origin, organization.key, 'PATCH', `/v1/items/${finishing.id}`, {
      title: 'After',
    });
    const cutOff = keepAliveRequest(origin, organization.key, 'PATCH', `/v1/items/${cut.id}`, {
      title: 'After',
      quantity: 9,
    });
    await sleep(200);

    const closing = running.close();
    await sleep(200);
    await holdFinishing.release();
    const first = await finished;
    expect(first.status).toBe(200);
    expect(first.headers.connection).toBe('close');

    const second = await cutOff;
    expect(second.status).toBe(503);
    expect(second.body).toEqual(ERROR_BODY.SERVICE_UNAVAILABLE);
    expect(second.headers.connection).toBe('close');
    expect(second.headers['retry-after']).toBe('1');
    expect(lines.some((line) => line.level === 40 && line.msg.startsWith('request cut off by shutdown'))).toBe(true);
    await holdCut.release();
    await closing;

    // The database outlives the server: the cut-off PATCH was rolled back, not committed once the lock went.
    const sql = createSql(database.url, { max: 1, statementTimeoutMs: 0 });
    try {
      const rows = await sql<{ sku: string; title: string; quantity_available: number }[]>`
        SELECT sku, title, quantity_available FROM items WHERE id IN (${finishing.id}, ${cut.id}) ORDER BY sku
      `;
      expect(rows).toEqual([
        { sku: 'DRAIN-CUT', title: 'Before', quantity_available: 1 },
        { sku: 'DRAIN-FINISHES', title: 'After', quantity_available: 1 },
      ]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 30_000);
});

describe('four servers starting at once on an empty database, then a burst across them', () => {
  let database: { url: string; drop(): Promise<void> };
  const servers: Running[] = [];

  beforeAll(async () => {
    const clusterUrl = inject('postgresUrl');
    if (!clusterUrl) throw new Error('the postgres project provides a cluster');
    database = await createClusterDatabase(clusterUrl);
  });
  afterAll(async () => {
    await Promise.all(servers.map((running) => stop(running)));
    await database?.drop();
  });

  it('all four migrate and listen; every POST answered 200 is stored and every other one is not', async () => {
    const env = {
      DATABASE_URL: database.url,
      SYNC_WORKER: 'off',
      RATE_LIMIT_MAX_REQUESTS: '1000000',
      REQUEST_QUEUE_LIMIT: '15',
      REQUEST_TIMEOUT_MS: '500',
      DATABASE_POOL_SIZE: '4',
    };
    const started = await Promise.allSettled(Array.from({ length: 4 }, () => start(env)));
    for (const outcome of started) if (outcome.status === 'fulfilled') servers.push(outcome.value);
    expect(started.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'started'))).toEqual(
      Array(4).fill('started'),
    );

    const sql = createSql(database.url, { max: 2, statementTimeoutMs: 0 });
    try {
      const organization = await createTestOrganization(sql);
      const apis = servers.map((running) => client(running.baseUrl, organization.key));
      const skus = Array.from({ length: 400 }, (_, i) => `FOUR-${i}`);
      const responses = await Promise.all(
        skus.map((sku, i) => apis[i % apis.length]?.post('/items', { body: { sku, title: sku } })),
      );
      const answered = new Map<string, number>();
      responses.forEach((response, i) => {
        answered.set(skus[i] ?? '', response?.status ?? 0);
      });
      const statuses = new Set(answered.values());
      expect(
        [...statuses].every((status) => [200, 500, 503].includes(status)),
        [...statuses].join(),
      ).toBe(true);

      // Given-up work finishes rolling back within moments; then the stored set must be exactly the 200s.
      let stored: string[] = [];
      for (let i = 0, previous = ''; i < 50; i += 1) {
        const rows = await sql<{ sku: string }[]>`
          SELECT sku FROM items WHERE organization_id = ${organization.organizationId} ORDER BY sku
        `;
        stored = rows.map((row) => row.sku).sort();
        if (stored.join() === previous) break;
        previous = stored.join();
        await sleep(300);
      }
      const ok = [...answered].filter(([, status]) => status === 200).map(([sku]) => sku);
      expect(stored).toEqual(ok.sort());
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 120_000);
});
