import { randomInt } from 'node:crypto';
import { type ContractRoute, contractRoutes } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, issueApiKey } from '../../src/modules/access/index.js';
import { addMember } from '../../src/modules/organizations/store.js';
import { ERROR_BODY } from '../support/errors.js';
import { type ApiResponse, call, client } from '../support/http.js';
import { addMemberWithKey, createTestOrganization, type TestOrganization } from '../support/organization.js';
import {
  type ConcreteRequest,
  readRoutes,
  requestFor,
  rowCounts,
  type SeededResources,
  seedResources,
  send,
  writeRoutes,
} from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomBase62 = (length: number) => Array.from({ length }, () => BASE62[randomInt(62)]).join('');
/** Looks like a key (prefix, length, alphabet) but was never issued, and its checksum is almost surely wrong. */
const lookalikeKey = () => `cvk_live_${randomBase62(38)}`;
/** Replaces the character at `index` (negative: from the end) with a different base62 character. */
function typo(key: string, index: number): string {
  const at = index < 0 ? key.length + index : index;
  const current = key[at] ?? '';
  const replacement = BASE62[(BASE62.indexOf(current) + 1) % 62] ?? '0';
  return `${key.slice(0, at)}${replacement}${key.slice(at + 1)}`;
}

const everyRoute = contractRoutes.map((entry) => [entry.key, entry] as const);
const everyReadRoute = readRoutes.map((entry) => [entry.key, entry] as const);
const everyWriteRoute = writeRoutes.map((entry) => [entry.key, entry] as const);

let server: TestServer;
let organization: TestOrganization;
let data: SeededResources;

const sql = () => server.database.sql;
const requestOf = (entry: ContractRoute): ConcreteRequest => requestFor(entry, data);
const sendWith = (entry: ContractRoute, headers: Record<string, string>, request = requestOf(entry)) =>
  send(server.baseUrl, request, { headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function expectUnauthorized(response: ApiResponse, label?: string) {
  expect(response.status, label).toBe(401);
  expect(response.body, label).toEqual(ERROR_BODY.UNAUTHORIZED);
}
function expectForbidden(response: ApiResponse, label?: string) {
  expect(response.status, label).toBe(403);
  expect(response.body, label).toEqual(ERROR_BODY.FORBIDDEN);
}

/** Everything a request could have changed: the organization's rows and what GET shows of its item. */
async function stateOf(target: TestOrganization, ids: SeededResources) {
  const item = await client(server.baseUrl, target.key).get(`/items/${ids.itemId}`);
  return { item: { status: item.status, body: item.body }, counts: await rowCounts(sql(), target.organizationId) };
}

beforeAll(async () => {
  // Not about the rate limit: each key here calls every route several times, more than 120 a minute.
  server = await startTestServer({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  organization = await createTestOrganization(sql());
  data = await seedResources(sql(), server.baseUrl, organization, 'AUTH');
});
afterAll(() => server.close());

describe('every contract route without a usable key', () => {
  it.each(everyRoute)('%s: no Authorization header → 401', async (_key, entry) => {
    expectUnauthorized(await sendWith(entry, {}));
  });

  it.each(everyRoute)('%s: a key-shaped value never issued → 401', async (_key, entry) => {
    expectUnauthorized(await sendWith(entry, bearer(lookalikeKey())));
  });

  it.each(everyRoute)('%s: a well-formed key with a valid checksum, never issued → 401', async (_key, entry) => {
    expectUnauthorized(await sendWith(entry, bearer(generateKey())));
  });

  it.each(everyRoute)(
    '%s: the valid key in ?api_key= or ?access_token= without a header → 401',
    async (_key, entry) => {
      const request = requestOf(entry);
      for (const parameter of ['api_key', 'access_token']) {
        const path = `${request.path}?${parameter}=${encodeURIComponent(organization.key)}`;
        expectUnauthorized(await sendWith(entry, {}, { ...request, path }), parameter);
      }
    },
  );
});

describe('the Authorization header', () => {
  const meWith = (authorization: string) => call(server.baseUrl, 'GET', '/me', { headers: { authorization } });

  it.each([
    ['Basic abc', () => 'Basic abc'],
    ['Basic with the key', () => `Basic ${Buffer.from(`${organization.key}:`).toString('base64')}`],
    ['the bare key without a scheme', () => organization.key],
    ['"Bearer" alone', () => 'Bearer'],
    ['"Bearer" and spaces', () => 'Bearer  '],
    ['"Bearer:" with a colon', () => `Bearer:${organization.key}`],
    ['"Token" scheme', () => `Token ${organization.key}`],
    ['two keys', () => `Bearer ${organization.key} ${organization.key}`],
    ['the key twice, comma-separated', () => `Bearer ${organization.key}, Bearer ${organization.key}`],
    ['the key with a typo in its last character', () => `Bearer ${typo(organization.key, -1)}`],
    ['the key with a typo in the middle', () => `Bearer ${typo(organization.key, 20)}`],
    ['the key without its last character', () => `Bearer ${organization.key.slice(0, -1)}`],
    ['the key with an extra character', () => `Bearer ${organization.key}x`],
    ['the key in lower case', () => `Bearer ${organization.key.toLowerCase()}`],
    ['the key with another prefix', () => `Bearer ${organization.key.replace('cvk_live_', 'cvk_test_')}`],
    ['the key quoted', () => `Bearer "${organization.key}"`],
  ])('%s → 401', async (_label, header) => {
    expectUnauthorized(await meWith(header()));
  });

  it.each([
    ['Bearer <key>', () => `Bearer ${organization.key}`],
    ['bearer <key> (the scheme is case-insensitive)', () => `bearer ${organization.key}`],
    ['BEARER <key>', () => `BEARER ${organization.key}`],
    ['bEaReR <key>', () => `bEaReR ${organization.key}`],
  ])('%s → 200', async (_label, header) => {
    const response = await meWith(header());
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ organization: { id: organization.organizationId } });
  });
});

describe('a read-only key', () => {
  it.each(everyReadRoute)('%s → 200', async (_key, entry) => {
    const response = await sendWith(entry, bearer(organization.readKey));
    expect(response.status).toBe(200);
  });

  it.each(everyWriteRoute)('%s → 403 Insufficient access, and nothing changes', async (_key, entry) => {
    const before = await stateOf(organization, data);
    expectForbidden(await sendWith(entry, bearer(organization.readKey)));
    expect(await stateOf(organization, data)).toEqual(before);
  });

  it('every write route is a POST, PATCH or DELETE that needs the write scope, and every GET needs read', () => {
    for (const { key, route } of contractRoutes) {
      expect(route.metadata.scope, key).toBe(route.method === 'GET' ? 'read' : 'write');
    }
    expect(writeRoutes.length).toBeGreaterThan(0);
  });
});

describe('authentication comes before validation', () => {
  /** A request for the route that fails validation: bad path id, unknown query parameter, bad body. */
  function invalidRequest(entry: ContractRoute): ConcreteRequest {
    const request = requestOf(entry);
    if (entry.route.path.includes(':id')) {
      return { ...request, path: entry.route.path.replace(':id', 'not-a-uuid') };
    }
    if (request.body !== undefined) return { ...request, body: { unknownField: true, sku: 5 } };
    return { ...request, path: `${request.path}?limit=0&unknownParameter=1` };
  }

  it.each(everyRoute)('%s: an invalid request without a key → 401', async (_key, entry) => {
    expectUnauthorized(await sendWith(entry, {}, invalidRequest(entry)));
  });

  it.each(everyRoute)('%s: an invalid request with an unknown key → 401', async (_key, entry) => {
    expectUnauthorized(await sendWith(entry, bearer(generateKey()), invalidRequest(entry)));
  });

  it.each(everyWriteRoute)('%s: an invalid request with a read-only key → 403', async (_key, entry) => {
    expectForbidden(await sendWith(entry, bearer(organization.readKey), invalidRequest(entry)));
  });

  it('POST /items with an invalid body and a read-only key → 403, not 400', async () => {
    const response = await call(server.baseUrl, 'POST', '/items', {
      key: organization.readKey,
      body: { sku: '', title: 'x'.repeat(10_000), quantity: -1 },
    });
    expectForbidden(response);
  });

  it('POST and PATCH with a body that is not JSON, without a key → 401', async () => {
    for (const [method, path] of [
      ['POST', '/items'],
      ['PATCH', `/items/${data.itemId}`],
    ] as const) {
      const response = await call(server.baseUrl, method, path, {
        rawBody: '{"sku": ',
        headers: { 'content-type': 'application/json' },
      });
      expectUnauthorized(response, `${method} ${path}`);
    }
  });
});

describe('keys that stopped working', () => {
  it('revoked → 401 on every route', async () => {
    const issued = await issueApiKey(sql(), {
      organizationId: organization.organizationId,
      createdBy: organization.ownerId,
      name: 'to revoke',
      scopes: ['read', 'write'],
    });
    expect((await client(server.baseUrl, issued.key).get('/me')).status).toBe(200);
    await sql()`UPDATE api_keys SET revoked_at = now() WHERE organization_id = ${organization.organizationId} AND id = ${issued.id}`;
    const before = await stateOf(organization, data);
    for (const entry of contractRoutes) expectUnauthorized(await sendWith(entry, bearer(issued.key)), entry.key);
    expect(await stateOf(organization, data)).toEqual(before);
  });

  it('expired a minute ago → 401 on every route; one expiring in the future still works', async () => {
    const issued = await issueApiKey(sql(), {
      organizationId: organization.organizationId,
      createdBy: organization.ownerId,
      name: 'to expire',
      scopes: ['read', 'write'],
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const me = await client(server.baseUrl, issued.key).get('/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ apiKey: { id: issued.id, expiresAt: expect.any(String) } });
    await sql()`
      UPDATE api_keys SET expires_at = now() - interval '1 minute'
      WHERE organization_id = ${organization.organizationId} AND id = ${issued.id}
    `;
    const before = await stateOf(organization, data);
    for (const entry of contractRoutes) expectUnauthorized(await sendWith(entry, bearer(issued.key)), entry.key);
    expect(await stateOf(organization, data)).toEqual(before);
  });

  it('missing, malformed, unknown, expired and revoked keys get byte-identical 401 responses', async () => {
    const make = (name: string) =>
      issueApiKey(sql(), {
        organizationId: organization.organizationId,
        createdBy: organization.ownerId,
        name,
        scopes: ['read'],
      });
    const revoked = await make('revoked for comparison');
    const expired = await make('expired for comparison');
    await sql()`UPDATE api_keys SET revoked_at = now() WHERE organization_id = ${organization.organizationId} AND id = ${revoked.id}`;
    await sql()`
      UPDATE api_keys SET expires_at = now() - interval '1 minute'
      WHERE organization_id = ${organization.organizationId} AND id = ${expired.id}
    `;
    const headers: Record<string, Record<string, string>> = {
      missing: {},
      malformed: { authorization: 'Basic abc' },
      lookalike: bearer(lookalikeKey()),
      unknown: bearer(generateKey()),
      typo: bearer(typo(organization.key, -1)),
      expired: bearer(expired.key),
      revoked: bearer(revoked.key),
    };
    for (const entry of contractRoutes) {
      const texts = new Map<string, string>();
      const contentTypes = new Set<string | null>();
      for (const [label, header] of Object.entries(headers)) {
        const response = await sendWith(entry, header);
        expect(response.status, `${entry.key} ${label}`).toBe(401);
        texts.set(label, response.text);
        contentTypes.add(response.headers.get('content-type'));
      }
      expect(new Set(texts.values()), entry.key).toEqual(new Set([JSON.stringify(ERROR_BODY.UNAUTHORIZED)]));
      expect(contentTypes.size, entry.key).toBe(1);
    }
  });
});

describe("the organization's plan", () => {
  let planned: TestOrganization;
  let plannedData: SeededResources;
  beforeAll(async () => {
    planned = await createTestOrganization(sql());
    plannedData = await seedResources(sql(), server.baseUrl, planned, 'PLAN');
  });

  const setPlan = (plan: string) => sql()`UPDATE organizations SET plan = ${plan} WHERE id = ${planned.organizationId}`;

  describe.each(['free', 'starter'])('downgraded to %s', (plan) => {
    beforeAll(() => setPlan(plan));
    afterAll(() => setPlan('business'));

    it.each(everyRoute)('%s with the read/write key → 403 and nothing changes', async (_key, entry) => {
      const before = await rowCounts(sql(), planned.organizationId);
      expectForbidden(await send(server.baseUrl, requestFor(entry, plannedData), { key: planned.key }));
      expect(await rowCounts(sql(), planned.organizationId)).toEqual(before);
    });

    it.each(everyReadRoute)('%s with the read-only key → 403', async (_key, entry) => {
      expectForbidden(await send(server.baseUrl, requestFor(entry, plannedData), { key: planned.readKey }));
    });
  });

  it.each(['business', 'enterprise'])('on %s the keys work again', async (plan) => {
    await setPlan(plan);
    for (const entry of readRoutes) {
      const response = await send(server.baseUrl, requestFor(entry, plannedData), { key: planned.key });
      expect(response.status, `${plan} ${entry.key}`).toBe(200);
    }
    await setPlan('business');
  });

  it('an organization created on the free plan cannot use its keys', async () => {
    const free = await createTestOrganization(sql(), { plan: 'free' });
    expectForbidden(await client(server.baseUrl, free.key).get('/me'));
    expectForbidden(await client(server.baseUrl, free.key).post('/items', { body: { sku: 'FREE-1', title: 'Free' } }));
    expect(await rowCounts(sql(), free.organizationId)).toMatchObject({ items: 0 });
  });

  it('a revoked key on a free plan is 401, not 403 (the key is checked first)', async () => {
    const free = await createTestOrganization(sql(), { plan: 'free' });
    await sql()`UPDATE api_keys SET revoked_at = now() WHERE organization_id = ${free.organizationId}`;
    expectUnauthorized(await client(server.baseUrl, free.key).get('/me'));
  });
});

describe("the key creator's membership", () => {
  let adminId: string;
  let adminKey: string;
  let adminData: SeededResources;

  beforeAll(async () => {
    ({ userId: adminId, key: adminKey } = await addMemberWithKey(sql(), organization.organizationId, {
      email: `admin-${organization.organizationId}@example.test`,
      name: 'Admin',
      role: 'admin',
    }));
    adminData = await seedResources(sql(), server.baseUrl, { ...organization, key: adminKey }, 'ADMIN');
  });

  const setRole = (role: string) =>
    sql()`UPDATE memberships SET role = ${role} WHERE organization_id = ${organization.organizationId} AND user_id = ${adminId}`;

  it("an admin's key works on every read route", async () => {
    for (const entry of readRoutes) {
      const response = await send(server.baseUrl, requestFor(entry, adminData), { key: adminKey });
      expect(response.status, entry.key).toBe(200);
    }
  });

  describe('creator demoted to member', () => {
    beforeAll(() => setRole('member'));
    afterAll(() => setRole('admin'));

    it.each(everyRoute)('%s → 403 and nothing changes', async (_key, entry) => {
      const before = await stateOf(organization, adminData);
      expectForbidden(await send(server.baseUrl, requestFor(entry, adminData), { key: adminKey }));
      expect(await stateOf(organization, adminData)).toEqual(before);
    });

    it("the owner's key is unaffected", async () => {
      expect((await client(server.baseUrl, organization.key).get('/me')).status).toBe(200);
    });
  });

  describe('creator removed from the organization', () => {
    beforeAll(async () => {
      await sql()`DELETE FROM memberships WHERE organization_id = ${organization.organizationId} AND user_id = ${adminId}`;
    });
    afterAll(() => addMember(sql(), organization.organizationId, adminId, 'admin'));

    it.each(everyRoute)('%s → 403 and nothing changes', async (_key, entry) => {
      const before = await stateOf(organization, adminData);
      expectForbidden(await send(server.baseUrl, requestFor(entry, adminData), { key: adminKey }));
      expect(await stateOf(organization, adminData)).toEqual(before);
    });
  });

  it('creator promoted back to admin, or to owner: the key works again', async () => {
    for (const role of ['admin', 'owner']) {
      await setRole(role);
      expect((await client(server.baseUrl, adminKey).get('/me')).status, role).toBe(200);
    }
    await setRole('admin');
  });

  it('a member of another organization with the same user id does not revive the key', async () => {
    const other = await createTestOrganization(sql());
    await setRole('member');
    await addMember(sql(), other.organizationId, adminId, 'owner');
    expectForbidden(await client(server.baseUrl, adminKey).get('/me'));
    await setRole('admin');
  });
});
