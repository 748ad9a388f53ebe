import { type ContractRoute, contractRoutes, SCOPES } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, issueApiKey } from '../../src/modules/access/index.js';
import { addMember, removeMember, setPlan, setRole } from '../../src/modules/organizations/store.js';
import { ERROR_BODY } from '../support/errors.js';
import { type ApiResponse, call } from '../support/http.js';
import { addMemberWithKey, createTestOrganization, type TestOrganization } from '../support/organization.js';
import { requestFor, type SeededResources, seedResources, send, writeRoutes } from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The WWW-Authenticate challenges of 401 and 403 (RFC 6750 §3) and the protected-resource metadata they point at
 * (RFC 9728), on every contract route.
 */

const JSON_TYPE = /^application\/json(;|$)/;
const METADATA_SUFFIX = '/.well-known/oauth-protected-resource/v1';

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

// RFC 9110 §11: token, quoted-string (with quoted-pair), auth-param = token BWS "=" BWS ( token / quoted-string ).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const AUTH_PARAM = new RegExp(`^(${TOKEN})[ \\t]*=[ \\t]*(?:(${TOKEN})|"((?:[^"\\\\]|\\\\.)*)")`);

/** Parses a single challenge strictly: the whole header must be one scheme followed by auth-params. */
function parseChallenge(header: string | null): Challenge {
  if (header === null) throw new Error('no WWW-Authenticate header');
  const schemeMatch = new RegExp(`^(${TOKEN})(?: +|$)`).exec(header);
  if (!schemeMatch?.[1]) throw new Error(`no auth-scheme in ${JSON.stringify(header)}`);
  const params: Record<string, string> = {};
  let rest = header.slice(schemeMatch[0].length);
  while (rest.length > 0) {
    const match = AUTH_PARAM.exec(rest);
    if (!match?.[1]) throw new Error(`bad auth-param at ${JSON.stringify(rest)} in ${JSON.stringify(header)}`);
    const name = match[1].toLowerCase();
    if (name in params) throw new Error(`auth-param ${name} repeated in ${JSON.stringify(header)}`);
    params[name] = match[2] ?? (match[3] ?? '').replace(/\\(.)/g, '$1');
    rest = rest.slice(match[0].length);
    const separator = /^[ \t]*,[ \t]*/.exec(rest);
    if (separator) {
      rest = rest.slice(separator[0].length);
      if (rest.length === 0) throw new Error(`trailing comma in ${JSON.stringify(header)}`);
    } else if (rest.length > 0) throw new Error(`junk after auth-param: ${JSON.stringify(rest)}`);
  }
  return { scheme: schemeMatch[1], params };
}

const everyRoute = contractRoutes.map((entry) => [entry.key, entry] as const);
const everyWriteRoute = writeRoutes.map((entry) => [entry.key, entry] as const);

let server: TestServer;
let organization: TestOrganization;
let data: SeededResources;
let metadataUrl: string;

const sql = () => server.database.sql;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const sendAs = (entry: ContractRoute, headers: Record<string, string>, ids: SeededResources = data) =>
  send(server.baseUrl, requestFor(entry, ids), { headers });

function expectUnauthorized(response: ApiResponse, label: string) {
  expect(response.status, label).toBe(401);
  expect(response.body, label).toEqual(ERROR_BODY.UNAUTHORIZED);
  expect(response.text, label).toBe(JSON.stringify(ERROR_BODY.UNAUTHORIZED));
  expect(response.headers.get('content-type'), label).toMatch(JSON_TYPE);
}

function expectForbidden(response: ApiResponse, label: string) {
  expect(response.status, label).toBe(403);
  expect(response.body, label).toEqual(ERROR_BODY.FORBIDDEN);
  expect(response.text, label).toBe(JSON.stringify(ERROR_BODY.FORBIDDEN));
}

/** The challenge of a 401 for a key that was sent but is not valid. */
const invalidTokenChallenge = () => ({
  scheme: 'Bearer',
  params: { error: 'invalid_token', error_description: expect.any(String), resource_metadata: metadataUrl },
});

/** The challenge of a 403 for a valid key whose organization or creator lost access (no scope would help). */
const accessRevokedChallenge = () => ({
  scheme: 'Bearer',
  params: { error: 'insufficient_scope', error_description: expect.any(String), resource_metadata: metadataUrl },
});

beforeAll(async () => {
  server = await startTestServer();
  metadataUrl = `${server.origin}${METADATA_SUFFIX}`;
  organization = await createTestOrganization(sql());
  data = await seedResources(sql(), server.baseUrl, organization, 'CHAL');
});
afterAll(() => server.close());

describe('no Authorization header', () => {
  it.each(everyRoute)('%s → 401 with a bare challenge naming the metadata URL', async (_key, entry) => {
    const response = await sendAs(entry, {});
    expectUnauthorized(response, entry.key);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    expect(parseChallenge(response.headers.get('www-authenticate'))).toEqual({
      scheme: 'Bearer',
      params: { resource_metadata: metadataUrl },
    });
  });

  it.each(everyRoute)('%s: a valid key in ?api_key=, ?access_token= or ?key= only → 401', async (_key, entry) => {
    const request = requestFor(entry, data);
    for (const parameter of ['api_key', 'access_token', 'key']) {
      const path = `${request.path}?${parameter}=${encodeURIComponent(organization.key)}`;
      const response = await send(server.baseUrl, { ...request, path });
      expectUnauthorized(response, `${entry.key} ?${parameter}=`);
      expect(response.headers.get('www-authenticate'), parameter).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    }
  });
});

describe('a key that is unknown, expired, revoked or malformed', () => {
  let expiredKey: string;
  let revokedKey: string;

  beforeAll(async () => {
    const make = (name: string) =>
      issueApiKey(sql(), {
        organizationId: organization.organizationId,
        createdBy: organization.ownerId,
        name,
        scopes: ['read', 'write'],
      });
    const expired = await make('expired');
    const revoked = await make('revoked');
    await sql()`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`;
    await sql()`UPDATE api_keys SET revoked_at = now() WHERE id = ${revoked.id}`;
    expiredKey = expired.key;
    revokedKey = revoked.key;
  });

  const variants = (): Array<[string, Record<string, string>]> => [
    ['unknown', bearer(generateKey())],
    ['expired', bearer(expiredKey)],
    ['revoked', bearer(revokedKey)],
    ['malformed (not a key)', bearer('not-a-key')],
    [
      'malformed (key with a bad checksum)',
      bearer(`${organization.key.slice(0, -1)}${organization.key.endsWith('0') ? '1' : '0'}`),
    ],
    ['malformed (truncated key)', bearer(organization.key.slice(0, -1))],
  ];

  it.each(everyRoute)('%s → 401 invalid_token, byte-identical for every kind of bad key', async (_key, entry) => {
    const seen = new Map<string, string>();
    for (const [label, headers] of variants()) {
      const response = await sendAs(entry, headers);
      expectUnauthorized(response, `${entry.key} ${label}`);
      const header = response.headers.get('www-authenticate');
      expect(parseChallenge(header), label).toEqual(invalidTokenChallenge());
      seen.set(label, `${response.status}\n${response.headers.get('content-type')}\n${header}\n${response.text}`);
    }
    expect(new Set(seen.values()).size, [...seen.entries()].join('\n\n')).toBe(1);
  });
});

describe('credentials of another scheme, or a Bearer without one well-formed token (RFC 6750 §3.1)', () => {
  /** The challenge of a 401 whose Bearer credentials are not one token: invalid_request. */
  const invalidRequestChallenge = () => ({
    scheme: 'Bearer',
    params: { error: 'invalid_request', error_description: expect.any(String), resource_metadata: metadataUrl },
  });

  it.each(everyRoute)(
    '%s: Basic, Digest or another scheme → 401 with a bare challenge, no error',
    async (_key, entry) => {
      for (const authorization of [
        `Basic ${Buffer.from(`user:${organization.key}`).toString('base64')}`,
        `Digest username="x", realm="y"`,
        `Token ${organization.key}`,
        `${organization.key}`,
      ]) {
        const response = await sendAs(entry, { authorization });
        expectUnauthorized(response, `${entry.key} ${authorization}`);
        expect(response.headers.get('www-authenticate'), authorization).toBe(
          `Bearer resource_metadata="${metadataUrl}"`,
        );
      }
    },
  );

  it.each(everyRoute)(
    '%s: Bearer alone, with spaces in the token or a bad token68 → invalid_request',
    async (_key, entry) => {
      for (const authorization of [
        'Bearer',
        'Bearer   ',
        'bearer',
        'Bearer a b',
        `Bearer ${organization.key} ${organization.key}`,
        'Bearer ab=c',
        'Bearer key="value"',
        'Bearer ab,cd',
        'Bearer caf\u00e9',
      ]) {
        const response = await sendAs(entry, { authorization });
        expectUnauthorized(response, `${entry.key} ${JSON.stringify(authorization)}`);
        expect(parseChallenge(response.headers.get('www-authenticate')), authorization).toEqual(
          invalidRequestChallenge(),
        );
      }
    },
  );

  it.each(everyRoute)(
    '%s: one well-formed token that is no valid key → invalid_token, however spelt',
    async (_key, entry) => {
      for (const authorization of [
        `Bearer ${generateKey()}`,
        `bearer ${generateKey()}`,
        `BEARER   ${generateKey()}`,
        'Bearer abc==',
      ]) {
        const response = await sendAs(entry, { authorization });
        expectUnauthorized(response, `${entry.key} ${authorization}`);
        expect(parseChallenge(response.headers.get('www-authenticate')), authorization).toEqual(
          invalidTokenChallenge(),
        );
      }
    },
  );
});

describe('a valid key that lost access → 403 with a Bearer challenge', () => {
  let planned: TestOrganization;
  let plannedData: SeededResources;
  let adminId: string;
  let adminKey: string;

  beforeAll(async () => {
    planned = await createTestOrganization(sql());
    plannedData = await seedResources(sql(), server.baseUrl, planned, 'CHALPLAN');
    ({ userId: adminId, key: adminKey } = await addMemberWithKey(sql(), organization.organizationId, {
      email: `chal-admin-${organization.organizationId}@example.test`,
      name: null,
      role: 'admin',
    }));
  });

  describe('plan downgraded to starter', () => {
    beforeAll(() => setPlan(sql(), planned.organizationId, 'starter'));
    afterAll(() => setPlan(sql(), planned.organizationId, 'business'));

    it.each(everyRoute)('%s → 403', async (_key, entry) => {
      const response = await sendAs(entry, bearer(planned.key), plannedData);
      expectForbidden(response, entry.key);
      expect(parseChallenge(response.headers.get('www-authenticate'))).toEqual(accessRevokedChallenge());
    });
  });

  describe('creator demoted to member', () => {
    beforeAll(() => setRole(sql(), organization.organizationId, adminId, 'member'));
    afterAll(() => setRole(sql(), organization.organizationId, adminId, 'admin'));

    it.each(everyRoute)('%s → 403', async (_key, entry) => {
      const response = await sendAs(entry, bearer(adminKey));
      expectForbidden(response, entry.key);
      expect(parseChallenge(response.headers.get('www-authenticate'))).toEqual(accessRevokedChallenge());
    });
  });

  describe('creator removed from the organization', () => {
    beforeAll(() => removeMember(sql(), organization.organizationId, adminId));
    afterAll(() => addMember(sql(), organization.organizationId, adminId, 'admin'));

    it.each(everyRoute)('%s → 403', async (_key, entry) => {
      const response = await sendAs(entry, bearer(adminKey));
      expectForbidden(response, entry.key);
      expect(parseChallenge(response.headers.get('www-authenticate'))).toEqual(accessRevokedChallenge());
    });
  });

  it('the three 403s are byte-identical (status, headers that matter, body)', async () => {
    const entry = contractRoutes.find((r) => r.key === 'me');
    if (!entry) throw new Error('no me route');
    const snapshot = (response: ApiResponse) =>
      `${response.status}\n${response.headers.get('www-authenticate')}\n${response.text}`;
    await setPlan(sql(), planned.organizationId, 'free');
    const plan = snapshot(await sendAs(entry, bearer(planned.key), plannedData));
    await setPlan(sql(), planned.organizationId, 'business');
    await setRole(sql(), organization.organizationId, adminId, 'member');
    const demoted = snapshot(await sendAs(entry, bearer(adminKey)));
    await removeMember(sql(), organization.organizationId, adminId);
    const removed = snapshot(await sendAs(entry, bearer(adminKey)));
    await addMember(sql(), organization.organizationId, adminId, 'admin');
    expect(demoted).toBe(plan);
    expect(removed).toBe(plan);
    // And access comes back.
    expect((await sendAs(entry, bearer(adminKey))).status).toBe(200);
    expect((await sendAs(entry, bearer(planned.key), plannedData)).status).toBe(200);
  });
});

describe('a read-only key on a write route', () => {
  it.each(everyWriteRoute)('%s → 403 insufficient_scope with scope="write"', async (_key, entry) => {
    const response = await sendAs(entry, bearer(organization.readKey));
    expectForbidden(response, entry.key);
    expect(parseChallenge(response.headers.get('www-authenticate'))).toEqual({
      scheme: 'Bearer',
      params: {
        error: 'insufficient_scope',
        error_description: expect.any(String),
        scope: 'write',
        resource_metadata: metadataUrl,
      },
    });
  });
});

describe('successful requests carry no challenge', () => {
  it('GET /me with a valid key → 200 without WWW-Authenticate', async () => {
    const response = await call(server.baseUrl, 'GET', '/me', { key: organization.key });
    expect(response.status).toBe(200);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });
});

/** Cache-Control directives, lower-cased, as name → value (or true). */
function cacheDirectives(header: string | null): Map<string, string | true> {
  const directives = new Map<string, string | true>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', value] = part.trim().split('=');
    if (name) directives.set(name.toLowerCase(), value ?? true);
  }
  return directives;
}

function expectMetadata(response: ApiResponse, resource: string) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
  expect(response.body).toEqual({
    resource,
    scopes_supported: ['read', 'write'],
    bearer_methods_supported: ['header'],
    resource_name: expect.any(String),
    resource_documentation: expect.any(String),
  });
  const body = response.body as { resource_name: string; resource_documentation: string };
  expect(body.resource_name.length).toBeGreaterThan(0);
  expect(new URL(body.resource_documentation).protocol).toMatch(/^https?:$/);
  expect([...SCOPES]).toEqual(['read', 'write']);
  const directives = cacheDirectives(response.headers.get('cache-control'));
  expect(directives.get('public')).toBe(true);
  expect(String(directives.get('max-age'))).toMatch(/^[1-9][0-9]*$/);
  expect(directives.has('no-store')).toBe(false);
  expect(directives.has('private')).toBe(false);
  expect(directives.has('no-cache')).toBe(false);
}

describe('protected-resource metadata (RFC 9728)', () => {
  it('GET /.well-known/oauth-protected-resource/v1 without auth → 200 with exactly the documented fields', async () => {
    const response = await call(server.origin, 'GET', METADATA_SUFFIX);
    expectMetadata(response, `${server.origin}/v1`);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('the metadata URL in every challenge serves the metadata of this resource', async () => {
    const challenge = parseChallenge((await call(server.baseUrl, 'GET', '/me')).headers.get('www-authenticate')).params
      .resource_metadata;
    if (challenge === undefined) throw new Error('no resource_metadata');
    const url = new URL(challenge);
    expectMetadata(await call(url.origin, 'GET', url.pathname), `${server.origin}/v1`);
  });
});

describe('behind a proxy: publicBaseUrl https://api.example.com/v1', () => {
  let proxied: TestServer;
  let proxiedOrganization: TestOrganization;
  const publicMetadata = 'https://api.example.com/.well-known/oauth-protected-resource/v1';

  beforeAll(async () => {
    proxied = await startTestServer({ publicBaseUrl: 'https://api.example.com/v1' });
    proxiedOrganization = await createTestOrganization(proxied.database.sql);
  });
  afterAll(() => proxied.close());

  it('the metadata names the public resource', async () => {
    const response = await call(proxied.origin, 'GET', METADATA_SUFFIX);
    expectMetadata(response, 'https://api.example.com/v1');
  });

  it("every route's challenges point at the public metadata URL", async () => {
    const expiredKey = await issueApiKey(proxied.database.sql, {
      organizationId: proxiedOrganization.organizationId,
      createdBy: proxiedOrganization.ownerId,
      name: 'expired',
      scopes: ['read'],
      expiresAt: new Date(Date.now() - 60_000),
    });
    for (const entry of contractRoutes) {
      const request = requestFor(entry, '00000000-0000-4000-8000-000000000000');
      const missing = await send(proxied.baseUrl, request);
      expect(missing.status, entry.key).toBe(401);
      expect(missing.headers.get('www-authenticate'), entry.key).toBe(`Bearer resource_metadata="${publicMetadata}"`);

      for (const key of [generateKey(), expiredKey.key]) {
        const invalid = await send(proxied.baseUrl, request, { key });
        expect(invalid.status, entry.key).toBe(401);
        expect(parseChallenge(invalid.headers.get('www-authenticate')), entry.key).toEqual({
          scheme: 'Bearer',
          params: { error: 'invalid_token', error_description: expect.any(String), resource_metadata: publicMetadata },
        });
      }
      if (entry.route.method !== 'GET') {
        const scoped = await send(proxied.baseUrl, request, { key: proxiedOrganization.readKey });
        expect(scoped.status, entry.key).toBe(403);
        expect(parseChallenge(scoped.headers.get('www-authenticate')).params, entry.key).toEqual({
          error: 'insufficient_scope',
          error_description: expect.any(String),
          scope: 'write',
          resource_metadata: publicMetadata,
        });
      }
    }
  });

  it('a demoted plan → 403 pointing at the public metadata URL', async () => {
    await setPlan(proxied.database.sql, proxiedOrganization.organizationId, 'starter');
    const response = await call(proxied.baseUrl, 'GET', '/me', { key: proxiedOrganization.key });
    expect(response.status).toBe(403);
    expect(parseChallenge(response.headers.get('www-authenticate')).params.resource_metadata).toBe(publicMetadata);
    await setPlan(proxied.database.sql, proxiedOrganization.organizationId, 'business');
  });
});

describe('the challenge parser used above', () => {
  it('reads quoted-pairs and refuses junk', () => {
    expect(parseChallenge('Bearer a="x\\"y", b=tok')).toEqual({ scheme: 'Bearer', params: { a: 'x"y', b: 'tok' } });
    expect(() => parseChallenge('Bearer a="x", ')).toThrow();
    expect(() => parseChallenge('Bearer a="x" b="y"')).toThrow();
    expect(() => parseChallenge('Bearer a="x", a="y"')).toThrow();
  });
});
