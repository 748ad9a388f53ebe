import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDEMPOTENCY, type Item } from '@coinventory/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/http/app.js';
import { ERROR_BODY } from '../../support/errors.js';
import { client, expectStatus } from '../../support/http.js';
import { type Api, createItem } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { holdInOtherSession } from '../../support/sessions.js';

/**
 * What only a real PostgreSQL shows: a write with Idempotency-Key held by another session's row lock, so that its
 * duplicate arrives while it still runs, in this server process or in another one on the same database.
 */

const UNLIMITED = { maxRequests: 1_000_000, windowSeconds: 60 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: TestServer;
let organization: TestOrganization;
let api: Api;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer({ policy: UNLIMITED, requestTimeoutMs: 1_500 });
  organization = await createTestOrganization(server.database.sql);
  // Keys belong to the API key that sent them: a duplicate is the same API key sending the same Idempotency-Key.
  apiKey = organization.key;
  api = client(server.baseUrl, apiKey);
});
afterAll(() => server.close());

/** Waits until one of the server's statements is waiting on a lock: the held request is inside its handler. */
async function untilBlocked(): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const [row] = await server.database.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = 'coinventory-server'
    `;
    if ((row?.n ?? 0) > 0) return;
    await sleep(10);
  }
  throw new Error('the request never reached the lock');
}

/** A second server process's app on the same database: its own memory of running keys, the same table of them. */
async function secondApp(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const http = createServer(
    createApp({ sql: server.database.sql, logger: pino({ level: 'silent' }), policy: UNLIMITED }),
  );
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe('a duplicate while the first request with the key still runs', () => {
  it.each(['this server process', 'another server process'])(
    'is refused with 409 and Retry-After from %s; then replayed',
    async (where) => {
      const item = await createItem(api, { sku: uniqueSku('HELD'), title: 'Before', quantity: 1 });
      const key = crypto.randomUUID();
      const headers = { [IDEMPOTENCY.header]: key };
      const elsewhere = where === 'another server process' ? await secondApp() : undefined;
      const duplicateApi = elsewhere ? client(elsewhere.baseUrl, apiKey) : api;
      const holder = await holdInOtherSession(server, (tx) => tx`SELECT 1 FROM items WHERE id = ${item.id} FOR UPDATE`);
      let first: Promise<Awaited<ReturnType<Api['patch']>>>;
      try {
        first = api.patch(`/items/${item.id}`, { body: { quantity: 4 }, headers });
        await untilBlocked();
        const duplicate = await duplicateApi.patch(`/items/${item.id}`, { body: { quantity: 4 }, headers });
        expect(duplicate.status).toBe(409);
        expect(duplicate.body).toEqual(ERROR_BODY.IDEMPOTENCY_KEY_IN_USE);
        expect(duplicate.headers.get('retry-after')).toBe('1');
      } finally {
        await holder.release();
      }
      const answered = await first;
      expectStatus(answered, 200);
      const retry = await duplicateApi.patch(`/items/${item.id}`, { body: { quantity: 4 }, headers });
      expect([retry.status, retry.text, retry.headers.get(IDEMPOTENCY.replayedHeader)]).toEqual([
        200,
        answered.text,
        'true',
      ]);
      await elsewhere?.close();
    },
  );
});

describe('a write that fails with a 5xx', () => {
  it('keeps no answer: the retry with the same key runs the write, once', async () => {
    const item = await createItem(api, { sku: uniqueSku('DEADLINE'), title: 'Before', quantity: 1 });
    const headers = { [IDEMPOTENCY.header]: crypto.randomUUID() };
    const holder = await holdInOtherSession(server, (tx) => tx`SELECT 1 FROM items WHERE id = ${item.id} FOR UPDATE`);
    try {
      const cut = await api.patch(`/items/${item.id}`, { body: { title: 'After' }, headers });
      expect(cut.status).toBe(500);
    } finally {
      await holder.release();
    }
    // The cut-off request may still be rolling back: 409 says so, and a client waits Retry-After and tries again.
    let retry = await api.patch<Item>(`/items/${item.id}`, { body: { title: 'After' }, headers });
    for (let tries = 0; retry.status === 409 && tries < 100; tries += 1) {
      await sleep(20);
      retry = await api.patch<Item>(`/items/${item.id}`, { body: { title: 'After' }, headers });
    }
    expectStatus(retry, 200);
    expect(retry.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
    expect(retry.body.title).toBe('After');
    const [kept] = await server.database.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM idempotency_keys WHERE key = ${headers[IDEMPOTENCY.header]}
    `;
    expect(kept?.n).toBe(1);
  });
});
