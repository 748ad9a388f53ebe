import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/http/app.js';
import { client } from '../../support/http.js';
import { serverWithOrganization } from '../../support/server.js';

const suite = serverWithOrganization();

const lastUsedAt = async (): Promise<Date | null> => {
  const [row] = await suite.server.database.sql<{ last_used_at: Date | null }[]>`
    SELECT last_used_at FROM api_keys WHERE id = ${suite.organization.keyId}
  `;
  return row?.last_used_at ?? null;
};

/** The write happens after the response; poll briefly for it rather than racing it. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return read();
}

describe('last_used_at', () => {
  it('is null until the key is used, then set shortly after a request', async () => {
    expect(await lastUsedAt()).toBeNull();
    expect((await client(suite.server.baseUrl, suite.organization.key).get('/me')).status).toBe(200);
    expect(await eventually(lastUsedAt, (value) => value !== null)).toBeInstanceOf(Date);
  });

  it('is written at most once a minute: more requests leave it unchanged', async () => {
    const first = await lastUsedAt();
    for (let i = 0; i < 5; i++)
      expect((await client(suite.server.baseUrl, suite.organization.key).get('/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsedAt()).toEqual(first);
  });

  it('is written again once the minute has passed', async () => {
    await suite.server.database.sql`
      UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = ${suite.organization.keyId}
    `;
    const aged = await lastUsedAt();
    // A fresh server process has no memory of earlier writes; the database's own condition decides.
    const other = await startTestServerOnSameDatabase();
    try {
      expect((await client(other.baseUrl, suite.organization.key).get('/me')).status).toBe(200);
      const after = await eventually(lastUsedAt, (value) => value?.getTime() !== aged?.getTime());
      expect(after?.getTime()).toBeGreaterThan(aged?.getTime() ?? 0);
    } finally {
      await other.close();
    }
  });
});

/** A second app on the same database, as a second process behind a load balancer would be. */
async function startTestServerOnSameDatabase() {
  const http = createServer(createApp({ sql: suite.server.database.sql, logger: pino({ level: 'silent' }) }));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
