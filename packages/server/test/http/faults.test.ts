import { once } from 'node:events';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { ItemSchema } from '@coinventory/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { answerClientErrors } from '../../src/http/client-errors.js';
import { linkListing } from '../../src/modules/marketplace/store.js';
import { createTestDatabase } from '../support/database.js';
import { ERROR_BODY } from '../support/errors.js';
import type { ApiResponse } from '../support/http.js';
import { expectStatus } from '../support/http.js';
import { type Api, createItem, freshApi } from '../support/items.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The fault suite: under overload, slow bodies and races, an answer of 5xx (or 408) must mean the write did not
 * happen, and a 2xx that it did. Every test compares what the clients were told with what the database holds.
 */

const UNLIMITED = { maxRequests: 1_000_000, windowSeconds: 60 };

async function skusIn(server: TestServer, organization: TestOrganization, prefix: string): Promise<Set<string>> {
  const rows = await server.database.sql<{ sku: string }[]>`
    SELECT sku FROM items WHERE organization_id = ${organization.organizationId} AND sku LIKE ${`${prefix}%`}
  `;
  return new Set(rows.map((row) => row.sku));
}

/** Reads `read` until two reads 300 ms apart agree: work that was given up has finished rolling back by then. */
async function settledValue<T>(read: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last = JSON.stringify(await read());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const value = await read();
    const next = JSON.stringify(value);
    if (next === last || Date.now() > until) return value;
    last = next;
  }
}

describe('an overload burst', () => {
  let server: TestServer;
  let organization: TestOrganization;

  beforeAll(async () => {
    // A short deadline and a small queue, so one burst crosses both.
    server = await startTestServer({ policy: UNLIMITED, requestTimeoutMs: 400, queueLimit: 20 });
    organization = await createTestOrganization(server.database.sql);
  });
  afterAll(() => server.close());

  it('sheds what it cannot hold at once (503 + Retry-After), and commits exactly the writes it answered 200', async () => {
    const api = await freshApi(server, organization, 'burst');
    const skus = Array.from({ length: 400 }, (_, i) => `BURST-${i}`);
    const responses = await Promise.all(
      skus.map((sku) => api.post('/items', { body: { sku, title: `Burst ${sku}` } })),
    );

    const byStatus = new Map<number, string[]>();
    responses.forEach((response, i) => {
      byStatus.set(response.status, [...(byStatus.get(response.status) ?? []), skus[i] ?? '']);
    });
    expect(
      [...byStatus.keys()].every((status) => [200, 500, 503].includes(status)),
      [...byStatus.keys()].join(),
    ).toBe(true);
    expect(byStatus.get(503)?.length ?? 0, 'some requests were shed').toBeGreaterThan(0);
    expect(byStatus.get(200)?.length ?? 0, 'some requests were served').toBeGreaterThan(0);
    for (const response of responses.filter((r) => r.status === 503)) {
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.body).toEqual(ERROR_BODY.SERVICE_UNAVAILABLE);
    }
    for (const response of responses.filter((r) => r.status === 500)) {
      expect(response.body).toEqual(ERROR_BODY.INTERNAL_SERVER_ERROR);
    }

    const stored = await settledValue(async () => [...(await skusIn(server, organization, 'BURST-'))].sort());
    expect(stored).toEqual([...(byStatus.get(200) ?? [])].sort());
  }, 60_000);
});

/** Sends a request whose body stops half-way, and reads what the server answers. */
async function slowBody(server: TestServer, key: string, method: string, path: string, body: string) {
  const url = new URL(`${server.baseUrl}${path}`);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  const half = Math.floor(body.length / 2);
  socket.write(
    `${method} ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n` +
      body.slice(0, half),
  );
  // The rest comes after the server has given up: it must not turn into a write.
  await closed;
  if (!socket.destroyed) socket.end(body.slice(half));
  const text = Buffer.concat(received).toString('utf8');
  const [head = '', payload = ''] = text.split('\r\n\r\n');
  return { head, status: Number(head.split(' ')[1]), body: payload ? (JSON.parse(payload) as unknown) : undefined };
}

describe('a request body that arrives too slowly', () => {
  let server: TestServer;
  let organization: TestOrganization;

  beforeAll(async () => {
    server = await startTestServer({ policy: UNLIMITED, requestTimeoutMs: 3_000, requestBodyTimeoutMs: 300 });
    organization = await createTestOrganization(server.database.sql);
  });
  afterAll(() => server.close());

  it('gets 408 with a JSON body and Connection: close, and the POST never runs', async () => {
    const answer = await slowBody(
      server,
      organization.key,
      'POST',
      '/items',
      JSON.stringify({ sku: 'SLOW-1', title: 'x' }),
    );
    expect(answer.status).toBe(408);
    expect(answer.head.toLowerCase()).toContain('content-type: application/json');
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(answer.body).toEqual(ERROR_BODY.REQUEST_TIMEOUT);
    expect(await settledValue(() => skusIn(server, organization, 'SLOW-').then((s) => [...s]))).toEqual([]);
  });

  it('gets 408 on a PATCH, and the item is unchanged', async () => {
    const api = await freshApi(server, organization);
    const item = await createItem(api, { sku: 'SLOW-PATCH', title: 'Before' });
    const answer = await slowBody(
      server,
      organization.key,
      'PATCH',
      `/items/${item.id}`,
      JSON.stringify({ title: 'After' }),
    );
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual(ERROR_BODY.REQUEST_TIMEOUT);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await api.get(`/items/${item.id}`);
    expect(ItemSchema.parse(after.body).title).toBe('Before');
  });

  it('gets 408, not 500, when the request deadline comes before the body timeout', async () => {
    const quick = await startTestServer({ policy: UNLIMITED, requestTimeoutMs: 300, requestBodyTimeoutMs: 5_000 });
    try {
      const org = await createTestOrganization(quick.database.sql);
      const answer = await slowBody(quick, org.key, 'POST', '/items', JSON.stringify({ sku: 'SLOW-2', title: 'x' }));
      expect(answer.status).toBe(408);
      expect(await settledValue(() => skusIn(quick, org, 'SLOW-').then((s) => [...s]))).toEqual([]);
    } finally {
      await quick.close();
    }
  });
});

describe('a request whose headers never complete', () => {
  it("is answered 408 REQUEST_TIMEOUT with the JSON body once Node's headersTimeout passes", async () => {
    const database = await createTestDatabase();
    const logger = pino({ level: 'silent' });
    // Node checks its header and request timeouts every connectionsCheckingInterval; short ones keep this quick.
    const server = createServer({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 });
    server.on('request', createApp({ sql: database.sql, logger }));
    answerClientErrors(server, logger);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.on('error', () => {});
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write('GET /v1/me HTTP/1.1\r\nHost: localhost\r\n');
      await closed;
      const [head = '', body = ''] = Buffer.concat(received).toString('utf8').split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      expect(head.toLowerCase()).toContain('content-type: application/json');
      expect(JSON.parse(body)).toEqual(ERROR_BODY.REQUEST_TIMEOUT);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    }
  });
});

describe('concurrent PATCHes', () => {
  let server: TestServer;
  let organization: TestOrganization;

  beforeAll(async () => {
    server = await startTestServer({ policy: UNLIMITED, queueLimit: 1_000 });
    organization = await createTestOrganization(server.database.sql);
  });
  afterAll(() => server.close());

  it('each answer is the row its own transaction wrote (250 PATCHes of one item)', async () => {
    const api = await freshApi(server, organization);
    const item = await createItem(api, { sku: 'MANY-PATCHES', title: 'Start' });
    const titles = Array.from({ length: 250 }, (_, i) => `Title ${i}`);
    const responses = await Promise.all(titles.map((title) => api.patch(`/items/${item.id}`, { body: { title } })));
    responses.forEach((response, i) => {
      expectStatus(response, 200);
      expect(ItemSchema.parse(response.body).title).toBe(titles[i]);
    });
  }, 60_000);
});

interface JobCount {
  kind: string;
  quantity: number | null;
}

describe('PATCH and DELETE of a linked item, racing', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let api: Api;

  beforeAll(async () => {
    server = await startTestServer({ policy: UNLIMITED, queueLimit: 1_000 });
    organization = await createTestOrganization(server.database.sql);
    api = await freshApi(server, organization, 'race');
  });
  afterAll(() => server.close());

  /** One round: an item with a listing, a DELETE and five quantity PATCHes sent at once. */
  async function round(n: number) {
    const item = await createItem(api, { sku: `LINKED-${n}`, title: 'Linked', quantity: 1 });
    await linkListing(server.database.sql, {
      organizationId: organization.organizationId,
      itemId: item.id,
      marketplaceListingId: `mp-race-${n}`,
      externalUrl: null,
      quantity: 1,
    });
    const quantities = [2, 3, 4, 5, 6];
    const [deleted, ...patches] = await Promise.all([
      api.delete(`/items/${item.id}`),
      ...quantities.map((quantity) => api.patch(`/items/${item.id}`, { body: { quantity } })),
    ]);
    const jobs = await server.database.sql<JobCount[]>`
      SELECT kind, quantity FROM marketplace_sync_jobs
      WHERE organization_id = ${organization.organizationId} AND marketplace_listing_id = ${`mp-race-${n}`}
    `;
    return { deleted: deleted as ApiResponse, patches, quantities, jobs };
  }

  it('never deadlocks or fails (60 rounds, 0 × 5xx), and each answer matches what was queued', async () => {
    const rounds = await Promise.all(Array.from({ length: 60 }, (_, n) => round(n)));
    const statuses = rounds.flatMap((r) => [r.deleted.status, ...r.patches.map((p) => p.status)]);
    expect(statuses.filter((status) => status >= 500).length, statuses.join()).toBe(0);
    for (const { deleted, patches, quantities, jobs } of rounds) {
      expectStatus(deleted, 200);
      expect(jobs.filter((job) => job.kind === 'delete_listing')).toHaveLength(1);
      // A PATCH answered 200 queued its quantity; one answered 404 queued nothing.
      const applied = quantities.filter((_, i) => patches[i]?.status === 200);
      for (const patch of patches) expect([200, 404]).toContain(patch.status);
      const queued = jobs.filter((job) => job.kind === 'set_quantity').map((job) => job.quantity);
      expect(queued.sort()).toEqual(applied.sort());
    }
  }, 120_000);
});
