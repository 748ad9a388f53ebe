import { afterAll, beforeAll, beforeEach } from 'vitest';
import { issueApiKey } from '../../src/modules/access/index.js';
import { client } from './http.js';
import { createTestOrganization, type TestOrganization } from './organization.js';
import { type SeededResources, seedResources } from './routes.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * The server the validation suites (queries, bodies) run against, for the calling file: one organization holding one
 * of everything, and a fresh read/write key per test, so no test runs into a per-key rate limit because of others.
 */
export function validationServer() {
  let server: TestServer | undefined;
  let organization: TestOrganization | undefined;
  let data: SeededResources | undefined;
  let key: string | undefined;
  const started = () => {
    if (!server || !organization || !data || !key) throw new Error('the validation server starts in beforeAll');
    return { server, organization, data, key };
  };

  beforeAll(async () => {
    server = await startTestServer();
    organization = await createTestOrganization(server.database.sql);
    data = await seedResources(server.database.sql, server.baseUrl, organization, 'VALID');
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    if (!server || !organization) throw new Error('the validation server did not start');
    const issued = await issueApiKey(server.database.sql, {
      organizationId: organization.organizationId,
      createdBy: organization.ownerId,
      name: 'validation',
      scopes: ['read', 'write'],
    });
    key = issued.key;
  });

  return {
    get server() {
      return started().server;
    },
    get organization() {
      return started().organization;
    },
    get data() {
      return started().data;
    },
    /** This test's key. */
    get key() {
      return started().key;
    },
    api: () => client(started().server.baseUrl, started().key),
    /** The organization's items, to prove a refused request created nothing. */
    itemCount: async () => {
      const { server, organization } = started();
      const [row] = await server.database.sql<{ count: number }[]>`
        SELECT count(*)::int AS count FROM items WHERE organization_id = ${organization.organizationId}
      `;
      return row?.count ?? -1;
    },
  };
}

/** `length` copies of `char`. */
export const long = (length: number, char = 'x') => char.repeat(length);
