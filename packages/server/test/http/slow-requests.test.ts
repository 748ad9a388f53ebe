import { once } from 'node:events';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { ItemSchema } from '@coinventory/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { answerClientErrors } from '../../src/http/client-errors.js';
import { sharedTestDatabase } from '../support/database.js';
import { ERROR_BODY } from '../support/errors.js';
import { settledValue, skusIn } from '../support/faults.js';
import { createItem, freshApi } from '../support/items.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Requests too slow to be served: a body or headers that never finish arriving are answered 408 before any route
 * runs, so nothing is written. Settled in the HTTP layer before a statement is sent, this file runs on one database
 * (vitest.config.ts); what a deadline does to a statement already running is in test/http/faults*.test.ts.
 */

const UNLIMITED = { maxRequests: 1_000_000, windowSeconds: 60 };

// One database for the file: its servers differ only in their timeouts.
const database = sharedTestDatabase();

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
    server = await startTestServer({ database, policy: UNLIMITED, requestTimeoutMs: 3_000, requestBodyTimeoutMs: 300 });
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
    const quick = await startTestServer({
      database,
      policy: UNLIMITED,
      requestTimeoutMs: 300,
      requestBodyTimeoutMs: 5_000,
    });
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
    const logger = pino({ level: 'silent' });
    // Node checks its header and request timeouts every connectionsCheckingInterval; short ones keep this quick.
    const server = createServer({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 });
    server.on('request', createApp({ sql: database().sql, logger }));
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
    }
  });
});
