import { type ContractRoute, contractRoutes } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import type { Sql } from '../../src/db/types.js';
import { expectHealth, expectInternalError } from '../support/fail-closed.js';
import { type ApiResponse, call } from '../support/http.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { requestFor, type SeededResources, seedResources } from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('the database refuses connections, then accepts them again', () => {
  /**
   * Longest a request may go unanswered while the store is down: failing closed means answering. Well under the
   * server's request deadline (12 s), so the 500 must come from the refused connection, not from a stranded query.
   */
  const ANSWER_DEADLINE_MS = 5_000;
  let server: TestServer;
  let organization: TestOrganization;
  let data: SeededResources;
  let admin: Sql;
  let name: string;

  const setAllowConnections = async (allow: boolean) => {
    await admin`ALTER DATABASE ${admin(name)} WITH ALLOW_CONNECTIONS ${admin.unsafe(allow ? 'true' : 'false')}`;
    // Existing sessions end too, as when the server restarts or a network path fails.
    if (!allow) await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
  };

  /** The route's request, abandoned (and reported as such) if unanswered by the deadline. */
  async function sendWithDeadline(entry: ContractRoute): Promise<ApiResponse | 'no answer'> {
    const request = requestFor(entry, data);
    try {
      const response = await fetch(`${server.baseUrl}${request.path}`, {
        method: request.method,
        headers: {
          authorization: `Bearer ${organization.key}`,
          ...(request.body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
      });
      const text = await response.text();
      // An export's 200 is NDJSON, not one JSON body (its lines are checked in test/modules/items/export.test.ts).
      const streamed = entry.route.metadata.streamed && response.status === 200;
      return { status: response.status, headers: response.headers, body: streamed ? text : JSON.parse(text), text };
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') return 'no answer';
      throw error;
    }
  }

  beforeAll(async () => {
    server = await startTestServer();
    organization = await createTestOrganization(server.database.sql);
    data = await seedResources(server.database.sql, server.baseUrl, organization, 'DOWN');
    const [row] = await server.database.sql<{ name: string }[]>`SELECT current_database() AS name`;
    if (!row) throw new Error('no database name');
    name = row.name;
    admin = createSql(inject('postgresUrl'), { max: 1, statementTimeoutMs: 0 });
  });
  afterAll(async () => {
    await setAllowConnections(true);
    await admin.end({ timeout: 5 });
    await server.close();
  });

  it('every route answers 500 promptly while it is down (pool warm when it went), then 200 again', async () => {
    for (let round = 1; round <= 2; round++) {
      // A busy server: the pool holds several open connections when the store goes away.
      const warm = await Promise.all(
        Array.from({ length: 20 }, () => call(server.baseUrl, 'GET', '/me', { key: organization.key })),
      );
      expect(warm.map((response) => response.status)).toEqual(Array(20).fill(200));
      await setAllowConnections(false);
      for (const entry of [...contractRoutes, ...contractRoutes]) {
        const response = await sendWithDeadline(entry);
        const label = `round ${round} ${entry.key}`;
        if (response === 'no answer') throw new Error(`${label}: no answer within ${ANSWER_DEADLINE_MS} ms`);
        expectInternalError(response, label);
      }
      await expectHealth(server, false);

      await setAllowConnections(true);
      await expectHealth(server, true);
      for (const entry of contractRoutes.filter((candidate) => candidate.route.method === 'GET')) {
        const response = await sendWithDeadline(entry);
        if (response === 'no answer') throw new Error(`${entry.key}: no answer after recovery`);
        expect(response.status, entry.key).toBe(200);
      }
    }
  }, 60_000);
});
