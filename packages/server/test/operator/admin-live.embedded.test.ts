import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MeSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Admin,
  adminCli,
  createKeyJson,
  EXIT,
  expectDuplicatesRefused,
  expectFailure,
  expectJson,
  expectNextRequest,
  expectOk,
  KeyListJson,
  ListedOrganizationJson,
  me,
  PROPAGATION_BOUND_MS,
  type ProvisionedOrganization,
  provisionOrganization,
} from '../support/admin.js';
import {
  deadPid,
  fromStderr,
  type Running,
  removeTempDirs,
  runToEnd,
  start,
  stop,
  tempDir,
} from '../support/binary.js';

afterAll(removeTempDirs);

describe('operator commands while a server runs on the same embedded database', () => {
  const env = { COINVENTORY_DATA_DIR: join(tempDir(), 'data') };
  const admin: Admin = adminCli(env);
  const lockFile = join(env.COINVENTORY_DATA_DIR, 'coinventory.lock');
  const socketFile = join(env.COINVENTORY_DATA_DIR, 'admin.sock');
  let server: Running | undefined;
  let organization: ProvisionedOrganization;
  let secondKey = '';
  let secondKeyId = '';
  let directKey = '';
  const baseUrl = () => server?.baseUrl ?? '';

  beforeAll(async () => {
    server = await start(env);
  });
  afterAll(async () => {
    if (server) await stop(server);
  });

  it('listens on <dataDir>/admin.sock with mode 0600 and holds the lock', () => {
    const stat = statSync(socketFile);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(server?.child.pid));
  });

  it('creates an organization, owner and key through the socket; the key works at once', async () => {
    organization = await provisionOrganization(admin, { slug: 'live-coins' });
    const first = await me(baseUrl(), organization.key);
    expect(first.status).toBe(200);
    expect(first.afterMs).toBeLessThan(PROPAGATION_BOUND_MS);
    const body = MeSchema.parse(first.body);
    expect(body.organization).toEqual({ id: organization.organizationId, name: 'Org live-coins', slug: 'live-coins' });
    expect(body.apiKey).toEqual({ id: organization.keyId, name: 'sync', expiresAt: null, scopes: ['read', 'write'] });
    // The commands were run by the server (it logs each), not by opening its database a second time.
    for (const command of ['org create', 'user create', 'member add', 'key create']) {
      expect(server?.stdout()).toContain(`"command":"${command}"`);
    }
    const second = await createKeyJson(admin, {
      org: 'live-coins',
      creator: organization.ownerEmail,
      name: 'second',
      scopes: 'read',
    });
    secondKey = second.key;
    secondKeyId = second.id;
    expect((await me(baseUrl(), secondKey)).status).toBe(200);
  });

  it('key revoke: the very next request with that key is 401, others keep working', async () => {
    await expectNextRequest(
      baseUrl(),
      organization.key,
      () => admin('key revoke', '--org', 'live-coins', '--key', organization.keyId),
      401,
    );
    expect((await me(baseUrl(), secondKey)).status).toBe(200);
  });

  it("member set-role to member: the creator's keys get 403; back to admin: 200", async () => {
    const setRole = (role: string) =>
      admin('member set-role', '--org', 'live-coins', '--user', organization.ownerEmail, '--role', role);
    await expectNextRequest(baseUrl(), secondKey, () => setRole('member'), 403);
    await expectNextRequest(baseUrl(), secondKey, () => setRole('admin'), 200);
  });

  it('org set-plan starter: 403; back to business: 200', async () => {
    const setPlan = (plan: string) => admin('org set-plan', '--org', 'live-coins', '--plan', plan);
    await expectNextRequest(baseUrl(), secondKey, () => setPlan('starter'), 403);
    await expectNextRequest(baseUrl(), secondKey, () => setPlan('business'), 200);
  });

  it('exits 3, 4 and 5 through the socket as it does directly, and changes nothing', async () => {
    const clerk = 'clerk@live-coins.example';
    expectOk(await admin('user create', '--email', clerk));
    expectOk(await admin('member add', '--org', 'live-coins', '--user', clerk, '--role', 'member'));
    expectOk(await admin('org create', '--name', 'Corner Shop', '--slug', 'corner-shop', '--plan', 'starter'));
    expectOk(await admin('member add', '--org', 'corner-shop', '--user', organization.ownerEmail, '--role', 'owner'));
    const keyCreate = (org: string, creator: string, ...more: string[]) =>
      admin('key create', '--org', org, '--creator', creator, '--name', 'refused', '--scopes', 'read', ...more);

    expectFailure(await admin('key list', '--org', 'nope'), EXIT.notFound, 'No organization with id or slug "nope".');
    expectFailure(
      await admin('member add', '--org', 'live-coins', '--user', 'ghost@live-coins.example', '--role', 'admin'),
      EXIT.notFound,
      'No user with id or email "ghost@live-coins.example".',
    );
    const unknownKey = '3f1c2b9e-8a4d-4c6e-9b7a-1d2e3f4a5b6c';
    expectFailure(
      await admin('key revoke', '--org', 'live-coins', '--key', unknownKey),
      EXIT.notFound,
      `No key in live-coins with id "${unknownKey}".`,
    );
    // Another organization's key is not found, and keeps working.
    expectFailure(
      await admin('key revoke', '--org', 'corner-shop', '--key', secondKeyId),
      EXIT.notFound,
      `No key in corner-shop with id "${secondKeyId}".`,
    );
    expect((await me(baseUrl(), secondKey)).status).toBe(200);
    expectFailure(
      await admin('member set-role', '--org', 'corner-shop', '--user', clerk, '--role', 'admin'),
      EXIT.notFound,
      `${clerk} is not a member of corner-shop.`,
    );

    await expectDuplicatesRefused(admin, {
      slug: 'live-coins',
      email: 'CLERK@Live-Coins.Example',
      member: { org: 'live-coins', user: clerk, role: 'admin', shownAs: clerk },
    });
    expectFailure(await admin('seed-demo'), EXIT.conflict, 'The demo organization "liberty-coin" already exists.');

    // The refused member add left the clerk a member, who may not create keys.
    expectFailure(
      await keyCreate('live-coins', clerk),
      EXIT.refused,
      `${clerk} is a member of live-coins; only an owner or an admin can create keys.`,
    );
    expectFailure(
      await keyCreate('corner-shop', organization.ownerEmail),
      EXIT.refused,
      'corner-shop is on the starter plan, which does not include API access (business or enterprise does).',
    );
    expectFailure(
      await keyCreate('live-coins', organization.ownerEmail, '--expires-at', '2001-01-01T00:00:00Z'),
      EXIT.refused,
      'The expiry date is in the past.',
    );
    const [liveKeys, shopKeys] = await Promise.all([
      admin('key list', '--org', 'live-coins', '--json'),
      admin('key list', '--org', 'corner-shop', '--json'),
    ]);
    expect(expectJson(liveKeys, KeyListJson).keys.map((key) => key.name)).toEqual(['sync', 'second']);
    expect(expectJson(shopKeys, KeyListJson).keys).toEqual([]);
  });

  it('a second start on the data directory exits 6 naming the process that holds it, in one line', async () => {
    const pid = server?.child.pid;
    const second = await runToEnd(['start'], env);
    expect(second.code, second.stderr).toBe(EXIT.unavailable);
    expect(second.stderr).toMatch(
      new RegExp(
        `^coinventory-server: The embedded database in \\S+ is in use by process ${pid}; stop that process, or set COINVENTORY_DATA_DIR to another directory\\n$`,
      ),
    );
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(pid));
    expect((await me(baseUrl(), secondKey)).status).toBe(200);
  });

  it('after SIGTERM the lock and socket are gone and operator commands open the database directly', async () => {
    if (!server) throw new Error('no server');
    expect(await stop(server)).toBe(0);
    server = undefined;
    expect(existsSync(lockFile)).toBe(false);
    expect(existsSync(socketFile)).toBe(false);
    const keys = expectJson(await admin('key list', '--org', 'live-coins', '--json'), KeyListJson).keys;
    expect(keys.map((key) => [key.name, key.revokedAt === null])).toEqual([
      ['sync', false],
      ['second', true],
    ]);
    directKey = (
      await createKeyJson(admin, {
        org: 'live-coins',
        creator: organization.ownerEmail,
        name: 'direct',
        scopes: 'read',
      })
    ).key;
    expect(existsSync(lockFile)).toBe(false);
  });

  it('a stale lock (its process is gone) is taken over by an operator command and by start', async () => {
    writeFileSync(lockFile, String(deadPid()));
    expect(expectJson(await admin('org list', '--json'), ListedOrganizationJson.array()).map((o) => o.slug)).toContain(
      'live-coins',
    );
    expect(existsSync(lockFile)).toBe(false);

    writeFileSync(lockFile, String(deadPid()));
    server = await start(env);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(server.child.pid));
    // No new demo organization on a database that already has organizations (the first start's demo key, never used, is
    // shown again as such), and the key made with no server works.
    // Its stderr and the "listening" line on stdout are read apart: the demo key's lines may arrive a moment later.
    expect(
      await fromStderr(server, /Demo organization "liberty-coin": its API key \(read and write\), not used yet/),
    ).not.toBeNull();
    expect(server.stderr()).not.toMatch(/Demo organization "[^"]+" created/);
    expect((await me(baseUrl(), directKey)).status).toBe(200);
    expect(expectOk(await admin('key list', '--org', 'live-coins'))).toContain('direct');
  });

  it('a server killed with SIGKILL leaves a stale lock and socket that the next command takes over', async () => {
    if (!server) throw new Error('no server');
    const pid = server.child.pid;
    expect(await stop(server, 'SIGKILL')).toBeNull();
    server = undefined;
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(pid));
    expect(existsSync(socketFile)).toBe(true);
    const result = await admin('key list', '--org', 'live-coins', '--json');
    expect(expectJson(result, KeyListJson).keys).toHaveLength(3);
    expect(existsSync(lockFile)).toBe(false);
  });
});
