import { contractRoutes } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../../src/db/connect.js';
import { gatedReads } from '../../../src/http/router.js';
import { authenticateKey, hashKey } from '../../../src/modules/access/index.js';
import type { ReadWithGrant } from '../../../src/modules/access/store.js';
import { createTestDatabase } from '../../support/database.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';

/**
 * A read that travels in the authentication statement (request/gated-read.ts) runs only for a request that is
 * admitted with the read's scope. Each refusal is tried with a read that fails the statement if it runs at all
 * (a division by zero PostgreSQL cannot fold away at planning, random() being volatile), so a refused request that
 * still read would show as an error here, not as a value that happens to be ignored.
 */
describe('a read in the authentication statement', () => {
  let database: Database;
  let organization: TestOrganization;
  const policy = { maxRequests: 1000, windowSeconds: 60 };

  beforeAll(async () => {
    database = await createTestDatabase();
    organization = await createTestOrganization(database.sql);
  });
  afterAll(() => database.close());

  const failing = (): ReadWithGrant => ({
    scope: 'read',
    query: () => database.sql`SELECT 1 / (random() * 0)::int AS boom`,
  });
  const harmless = (scope: 'read' | 'write' = 'read'): ReadWithGrant => ({
    scope,
    query: (organizationId) => database.sql`SELECT ${organizationId} AS organization_id`,
  });

  it('runs for an admitted caller with the scope, on the organization of the key', async () => {
    const result = await authenticateKey(database.sql, hashKey(organization.readKey), policy, harmless());
    expect(result.kind).toBe('authenticated');
    if (result.kind !== 'authenticated') return;
    expect(result.rate.admitted).toBe(true);
    expect(result.resource).toEqual({ organization_id: organization.organizationId });
    await expect(authenticateKey(database.sql, hashKey(organization.readKey), policy, failing())).rejects.toThrow(
      /division by zero/,
    );
  });

  it('does not run for a key without the scope', async () => {
    const result = await authenticateKey(database.sql, hashKey(organization.readKey), policy, {
      ...failing(),
      scope: 'write',
    });
    expect(result.kind).toBe('authenticated');
    if (result.kind === 'authenticated') expect(result.resource).toBeUndefined();
  });

  it('does not run for a request over the rate limit', async () => {
    const { key } = await createTestOrganization(database.sql);
    const tight = { maxRequests: 1, windowSeconds: 60 };
    const first = await authenticateKey(database.sql, hashKey(key), tight, harmless());
    expect(first.kind === 'authenticated' && first.rate.admitted).toBe(true);
    const second = await authenticateKey(database.sql, hashKey(key), tight, failing());
    expect(second.kind === 'authenticated' && second.rate.admitted).toBe(false);
  });

  // PostgreSQL only: the embedded database runs one statement at a time, so no two requests ever wait on a lock.
  it.runIf(Boolean(inject('postgresUrl')))(
    "runs before the key's row is locked: a slow read holds up none of the key's other requests",
    async () => {
      const { key } = await createTestOrganization(database.sql);
      const order: string[] = [];
      const slow = authenticateKey(database.sql, hashKey(key), policy, {
        scope: 'read',
        query: () => database.sql`SELECT pg_sleep(3) AS slept`,
      }).then(() => order.push('slow read'));
      // Well into the slow read's statement before the next request starts.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const quick = authenticateKey(database.sql, hashKey(key), policy).then(() => order.push('plain request'));
      await Promise.all([slow, quick]);
      // Were the read under the count's lock, the plain request would wait for the slow statement to commit.
      expect(order).toEqual(['plain request', 'slow read']);
    },
    30_000,
  );

  it('does not run for a revoked key, an unknown one, or an organization without API access', async () => {
    const revoked = await createTestOrganization(database.sql);
    await database.sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${revoked.keyId}`;
    expect((await authenticateKey(database.sql, hashKey(revoked.key), policy, failing())).kind).toBe('invalid');
    const unknown = hashKey(`${organization.key.slice(0, -4)}0000`);
    expect((await authenticateKey(database.sql, unknown, policy, failing())).kind).toBe('invalid');
    const starter = await createTestOrganization(database.sql, { plan: 'starter' });
    expect((await authenticateKey(database.sql, hashKey(starter.key), policy, failing())).kind).toBe('forbidden');
  });
});

it('every GET of one object by id is read in its authentication statement', () => {
  const byId = contractRoutes
    .filter(({ route }) => route.method === 'GET' && route.path.endsWith('/:id'))
    .map(({ route }) => route.metadata.operationId)
    .sort();
  expect(byId.length).toBeGreaterThanOrEqual(6);
  expect(gatedReads.map((read) => read.operationId).sort()).toEqual(byId);
});
