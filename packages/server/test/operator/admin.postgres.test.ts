import { readdirSync } from 'node:fs';
import { MeSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import {
  type Admin,
  adminCli,
  CreatedKeyJson,
  CreatedOrganizationJson,
  createClusterDatabase,
  createKeyJson,
  DemoJson,
  EXIT,
  expectDuplicatesRefused,
  expectFailure,
  expectInvalidOptions,
  expectJson,
  expectNextRequest,
  expectOk,
  KEY_VALUE,
  KeyJson,
  KeyListJson,
  ListedOrganizationJson,
  MemberJson,
  me,
  RemovedMemberJson,
  UserJson,
} from '../support/admin.js';
import { type Running, removeTempDirs, start, stop, tempDir } from '../support/binary.js';
import { ERROR_BODY } from '../support/errors.js';

describe('operator commands on DATABASE_URL', () => {
  let database: { url: string; drop(): Promise<void> } | undefined;
  let env: Record<string, string> = {};
  const admin: Admin = (command, ...args) => adminCli(env)(command, ...args);
  const state = { orgId: '', ownerId: '', adminId: '', ownerKey: { id: '', key: '' }, adminKey: '', spareKey: '' };

  beforeAll(async () => {
    database = await createClusterDatabase(inject('postgresUrl'));
    // A data directory of its own, which nothing should touch: DATABASE_URL is where the data is.
    env = { DATABASE_URL: database.url, COINVENTORY_DATA_DIR: tempDir() };
  });
  afterAll(async () => {
    await database?.drop();
    removeTempDirs();
  });

  it('migrate --json applies every migration to a new database, then none', async () => {
    expect(JSON.parse(expectOk(await admin('migrate', '--json')))).toEqual({
      applied: migrations.map(({ version, name }) => ({ version, name })),
      current: migrations.length,
    });
    expect(JSON.parse(expectOk(await admin('migrate', '--json')))).toEqual({ applied: [], current: migrations.length });
  });

  it('org create, org list, user create and member add', async () => {
    const text = expectOk(
      await admin('org create', '--name', 'Harbor Mint', '--slug', 'harbor-mint', '--plan', 'business'),
    );
    expect(text).toMatch(/^Created organization harbor-mint \([0-9a-f-]{36}\) on the business plan\.\n$/);
    const shop = expectJson(
      await admin('org create', '--name', 'Side Shop', '--slug', 'side-shop', '--plan', 'free', '--json'),
      CreatedOrganizationJson,
    );
    expect(shop).toMatchObject({ name: 'Side Shop', slug: 'side-shop', plan: 'free' });

    const orgs = expectJson(await admin('org list', '--json'), ListedOrganizationJson.array());
    expect(orgs.map((org) => [org.slug, org.plan])).toEqual([
      ['harbor-mint', 'business'],
      ['side-shop', 'free'],
    ]);
    state.orgId = orgs[0]?.id ?? '';
    expect(text).toContain(`(${state.orgId})`);
    expect(orgs[1]).toEqual({
      id: shop.id,
      name: shop.name,
      slug: shop.slug,
      plan: shop.plan,
      createdAt: shop.createdAt,
      keys: { live: 0, test: 0 },
    });

    const owner = expectJson(
      await admin('user create', '--email', 'olive@harbor-mint.example', '--name', 'Olive Park', '--json'),
      UserJson,
    );
    expect(owner).toMatchObject({ email: 'olive@harbor-mint.example', name: 'Olive Park' });
    state.ownerId = owner.id;
    expect(expectOk(await admin('user create', '--email', 'ash@harbor-mint.example'))).toMatch(
      /^Created user ash@harbor-mint\.example \([0-9a-f-]{36}\)\.\n$/,
    );
    expect(
      expectOk(
        await admin('member add', '--org', 'harbor-mint', '--user', 'olive@harbor-mint.example', '--role', 'owner'),
      ),
    ).toBe('olive@harbor-mint.example is now an owner of the organization.\n');
    const added = expectJson(
      await admin(
        'member add',
        '--org',
        'harbor-mint',
        '--user',
        'ash@harbor-mint.example',
        '--role',
        'admin',
        '--json',
      ),
      MemberJson,
    );
    expect(added).toMatchObject({ organizationId: state.orgId, email: 'ash@harbor-mint.example', role: 'admin' });
    state.adminId = added.userId;
  });

  it('key create prints the value once; key list never shows it; --creator still names the user', async () => {
    const text = expectOk(
      await admin(
        'key create',
        '--org',
        'harbor-mint',
        '--user',
        'olive@harbor-mint.example',
        '--name',
        'Shop sync',
        '--scopes',
        'read,write',
      ),
    );
    const match =
      /^Created key ([0-9a-f-]{36}) "Shop sync" \(read, write\) for harbor-mint\.\nIts value is shown this once; store it now:\n\n {2}(\S+)\n$/.exec(
        text,
      );
    expect(match, text).not.toBeNull();
    state.ownerKey = { id: match?.[1] ?? '', key: match?.[2] ?? '' };
    expect(state.ownerKey.key).toMatch(KEY_VALUE);

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const byAdmin = expectJson(
      await admin(
        'key create',
        '--org',
        state.orgId,
        // The former name of --user: still accepted, as scripts written before it use it.
        '--creator',
        state.adminId,
        '--name',
        'Reports',
        '--scopes',
        'read',
        '--expires-at',
        expiresAt,
        '--json',
      ),
      CreatedKeyJson,
    );
    expect(byAdmin).toMatchObject({
      organizationId: state.orgId,
      organizationSlug: 'harbor-mint',
      createdBy: 'ash@harbor-mint.example',
      name: 'Reports',
      scopes: ['read'],
      expiresAt,
    });
    state.adminKey = byAdmin.key;
    state.spareKey = (
      await createKeyJson(admin, {
        org: 'harbor-mint',
        creator: 'olive@harbor-mint.example',
        name: 'Spare',
        scopes: 'read',
      })
    ).key;

    const listText = expectOk(await admin('key list', '--org', 'harbor-mint'));
    expect(listText).not.toContain('cvk_live_');
    expect(listText).toContain(`${state.ownerKey.id}  live  Shop sync  …${state.ownerKey.key.slice(-4)}  read,write`);
    const listed = await admin('key list', '--org', 'harbor-mint', '--json');
    expect(listed.stdout).not.toContain('cvk_live_');
    const list = expectJson(listed, KeyListJson);
    expect(list.organization.id).toBe(state.orgId);
    expect(
      list.keys.map((key) => [key.name, key.hint, key.scopes, key.createdBy, key.expiresAt, key.revokedAt]),
    ).toEqual([
      ['Shop sync', state.ownerKey.key.slice(-4), ['read', 'write'], state.ownerId, null, null],
      ['Reports', state.adminKey.slice(-4), ['read'], state.adminId, expiresAt, null],
      ['Spare', state.spareKey.slice(-4), ['read'], state.ownerId, null, null],
    ]);
  });

  it('exits 2, 3, 4 and 5 as on the embedded database', async () => {
    expectInvalidOptions(await admin('org set-plan', '--org', 'harbor-mint', '--plan', 'platinum'), 'plan');
    expectFailure(await admin('org set-plan', '--org', 'nope', '--plan', 'free'), EXIT.notFound, 'No organization');
    expectFailure(
      await admin('member remove', '--org', 'harbor-mint', '--user', 'ghost@harbor-mint.example'),
      EXIT.notFound,
      'No user with id or email "ghost@harbor-mint.example".',
    );
    expectFailure(
      await admin('key revoke', '--org', 'side-shop', '--key', state.ownerKey.id),
      EXIT.notFound,
      `No key in side-shop with id "${state.ownerKey.id}".`,
    );
    await expectDuplicatesRefused(admin, {
      slug: 'side-shop',
      email: 'Olive@Harbor-Mint.example',
      member: { org: 'harbor-mint', user: state.adminId, role: 'member', shownAs: 'ash@harbor-mint.example' },
    });
    expectFailure(
      await admin('key create', '--org', 'side-shop', '--user', state.ownerId, '--name', 'x', '--scopes', 'read'),
      EXIT.refused,
      'side-shop is on the free plan, which does not include API access (business or enterprise does).',
    );
    expectFailure(
      await admin('key create', '--org', 'harbor-mint', '--user', 'x@y.example', '--name', 'x', '--scopes', 'read'),
      EXIT.notFound,
      'No user with id or email "x@y.example".',
    );
    expectFailure(
      await admin(
        'key create',
        '--org',
        'harbor-mint',
        '--creator',
        state.ownerId,
        '--name',
        'x',
        '--scopes',
        'read',
        '--expires-at',
        '2000-01-01T00:00:00+01:00',
      ),
      EXIT.refused,
      'The expiry date is in the past.',
    );
    expect(expectJson(await admin('key list', '--org', 'harbor-mint', '--json'), KeyListJson).keys).toHaveLength(3);
  });

  describe('with a server on the same DATABASE_URL', () => {
    let server: Running | undefined;
    const baseUrl = () => server?.baseUrl ?? '';

    beforeAll(async () => {
      server = await start(env);
    });
    afterAll(async () => {
      if (server) await stop(server);
    });

    it('keys made by key create authenticate, as their organization and key', async () => {
      const owner = await me(baseUrl(), state.ownerKey.key);
      expect(owner.status).toBe(200);
      const body = MeSchema.parse(owner.body);
      expect(body.organization).toEqual({ id: state.orgId, name: 'Harbor Mint', slug: 'harbor-mint' });
      expect(body.apiKey).toEqual({
        id: state.ownerKey.id,
        name: 'Shop sync',
        expiresAt: null,
        scopes: ['read', 'write'],
      });
      expect((await me(baseUrl(), state.adminKey)).status).toBe(200);
      expect((await me(baseUrl(), state.spareKey)).status).toBe(200);
      // On PostgreSQL the server takes no data directory lock and opens no operator socket.
      expect(readdirSync(env.COINVENTORY_DATA_DIR ?? '')).toEqual([]);
    });

    it('a key created while the server runs works on its first request, and stops at its expiry', async () => {
      const expiresAt = new Date(Date.now() + 5_000);
      const created = expectJson(
        await admin(
          'key create',
          '--org',
          'harbor-mint',
          '--creator',
          state.adminId,
          '--name',
          'Short-lived',
          '--scopes',
          'read',
          '--expires-at',
          expiresAt.toISOString(),
          '--json',
        ),
        CreatedKeyJson,
      );
      expect((await me(baseUrl(), created.key)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now()) + 100));
      const expired = await me(baseUrl(), created.key);
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual(ERROR_BODY.UNAUTHORIZED);
    });

    it('key revoke: the very next request with that key is 401', async () => {
      const { stdout } = await expectNextRequest(
        baseUrl(),
        state.ownerKey.key,
        () => admin('key revoke', '--org', 'harbor-mint', '--key', state.ownerKey.id, '--json'),
        401,
      );
      const revoked = KeyJson.parse(JSON.parse(stdout));
      expect(revoked).toMatchObject({ id: state.ownerKey.id, name: 'Shop sync' });
      expect(revoked.revokedAt).not.toBeNull();
      expect((await me(baseUrl(), state.spareKey)).status).toBe(200);
    });

    it("member remove: the removed member's keys get 403 on the very next request", async () => {
      const { stdout } = await expectNextRequest(
        baseUrl(),
        state.adminKey,
        () => admin('member remove', '--org', 'harbor-mint', '--user', state.adminId, '--json'),
        403,
      );
      expect(RemovedMemberJson.parse(JSON.parse(stdout))).toEqual({
        organizationId: state.orgId,
        userId: state.adminId,
        email: 'ash@harbor-mint.example',
        removed: true,
      });
      expect((await me(baseUrl(), state.spareKey)).status).toBe(200);
    });

    it('member set-role member: 403; owner again: 200', async () => {
      const setRole = (role: string) =>
        admin('member set-role', '--org', 'harbor-mint', '--user', state.ownerId, '--role', role);
      await expectNextRequest(baseUrl(), state.spareKey, () => setRole('member'), 403);
      await expectNextRequest(baseUrl(), state.spareKey, () => setRole('owner'), 200);
    });

    it('org set-plan free: 403 on the very next request; enterprise: 200 again', async () => {
      const setPlan = (plan: string) => admin('org set-plan', '--org', 'harbor-mint', '--plan', plan);
      await expectNextRequest(baseUrl(), state.spareKey, () => setPlan('free'), 403);
      await expectNextRequest(baseUrl(), state.spareKey, () => setPlan('enterprise'), 200);
      // The revoked key stays revoked, and the removed member's key stays refused.
      expect((await me(baseUrl(), state.ownerKey.key)).status).toBe(401);
      expect((await me(baseUrl(), state.adminKey)).status).toBe(403);
    });
  });

  it('seed-demo creates the demo organization once; a second run exits 4', async () => {
    const demo = expectJson(await admin('seed-demo', '--json'), DemoJson);
    expect(demo.key.scopes).toEqual(['read', 'write']);
    expect(demo.counts.items).toBeGreaterThan(0);
    expectFailure(await admin('seed-demo'), EXIT.conflict, 'The demo organization "liberty-coin" already exists.');
    const orgs = expectJson(await admin('org list', '--json'), ListedOrganizationJson.array());
    expect(orgs.map((org) => org.slug).sort()).toEqual(['harbor-mint', 'liberty-coin', 'side-shop']);
  });
});
