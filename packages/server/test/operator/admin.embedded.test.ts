import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MeSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Admin,
  adminCli,
  CreatedKeyJson,
  CreatedOrganizationJson,
  createKeyJson,
  EXIT,
  expectDuplicatesRefused,
  expectFailure,
  expectInvalidOptions,
  expectJson,
  expectNextRequest,
  expectOk,
  KEY_VALUE,
  KeyListJson,
  MemberJson,
  me,
  OrganizationJson,
  PROPAGATION_BOUND_MS,
  type ProvisionedWorkspace,
  provisionWorkspace,
  UserJson,
} from '../support/admin.js';
import { type Running, removeTempDirs, runToEnd, start, stop, tempDir } from '../support/binary.js';

afterAll(removeTempDirs);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ISO = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';

/** The pid of a process that has exited: what a crashed server leaves in its lock file. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('could not spawn');
  expect(() => process.kill(pid, 0)).toThrow();
  return pid;
}

/**
 * With no server, every command that needs the database opens it itself (a few seconds each), so this part runs
 * each command once or twice; the full matrix of refusals runs through a server's socket further down.
 */
describe('admin commands on an embedded database with no server running', () => {
  const env = { COINVENTORY_DATA_DIR: join(tempDir(), 'data') };
  const admin: Admin = adminCli(env);
  const lockFile = join(env.COINVENTORY_DATA_DIR, 'coinventory.lock');
  const state = {
    acme: { id: '', createdAt: '' },
    barn: { id: '', createdAt: '' },
    danaId: '',
    jamieId: '',
    textKey: { id: '', key: '' },
    jsonKey: { id: '', key: '' },
  };

  it('org create prints the new organization as text, and with --json every field', async () => {
    const text = expectOk(await admin('org create', '--name', 'Acme Coins', '--slug', 'acme', '--plan', 'business'));
    const match = new RegExp(`^Created organization acme \\((${UUID})\\) on the business plan\\.\\n$`).exec(text);
    expect(match, text).not.toBeNull();
    state.acme.id = match?.[1] ?? '';

    const before = Date.now();
    const barn = expectJson(
      await admin('org create', '--name', '  Bullion Barn ', '--slug', 'bullion-barn', '--plan', 'starter', '--json'),
      CreatedOrganizationJson,
    );
    expect(barn).toMatchObject({ name: 'Bullion Barn', slug: 'bullion-barn', plan: 'starter' });
    expect(Math.abs(Date.parse(barn.createdAt) - before)).toBeLessThan(60_000);
    expect(new Set([barn.id, barn.defaultWarehouseId, barn.defaultZoneId, state.acme.id]).size).toBe(4);
    state.barn = { id: barn.id, createdAt: barn.createdAt };
    // No server runs here: the command took the lock, opened the database itself, and released the lock.
    expect(existsSync(lockFile)).toBe(false);
  });

  it('org list lists every organization, as JSON and as a table', async () => {
    const list = expectJson(await admin('org list', '--json'), OrganizationJson.array());
    state.acme.createdAt = list.find((org) => org.slug === 'acme')?.createdAt ?? '';
    expect(list).toEqual([
      { id: state.acme.id, name: 'Acme Coins', slug: 'acme', plan: 'business', createdAt: state.acme.createdAt },
      {
        id: state.barn.id,
        name: 'Bullion Barn',
        slug: 'bullion-barn',
        plan: 'starter',
        createdAt: state.barn.createdAt,
      },
    ]);

    const lines = expectOk(await admin('org list'))
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID {36}SLUG {10}PLAN {6}NAME$/);
    expect(lines[1]).toMatch(new RegExp(`^${state.acme.id} {2}acme {10}business {2}Acme Coins$`));
    expect(lines[2]).toMatch(new RegExp(`^${state.barn.id} {2}bullion-barn {2}starter {3}Bullion Barn$`));
  });

  it('user create and member add', async () => {
    const dana = expectOk(await admin('user create', '--email', 'dana@acme.example', '--name', 'Dana Whitfield'));
    const match = new RegExp(`^Created user dana@acme\\.example \\((${UUID})\\)\\.\\n$`).exec(dana);
    expect(match, dana).not.toBeNull();
    state.danaId = match?.[1] ?? '';

    const jamie = expectJson(await admin('user create', '--email', 'jamie@acme.example', '--json'), UserJson);
    expect(jamie).toMatchObject({ email: 'jamie@acme.example', name: null });
    state.jamieId = jamie.id;

    expect(expectOk(await admin('member add', '--org', 'acme', '--user', 'DANA@acme.example', '--role', 'owner'))).toBe(
      'dana@acme.example is now an owner of the organization.\n',
    );
    // By ids instead of slug and email.
    expect(
      expectJson(
        await admin('member add', '--org', state.acme.id, '--user', jamie.id, '--role', 'member', '--json'),
        MemberJson,
      ),
    ).toEqual({ organizationId: state.acme.id, userId: jamie.id, email: 'jamie@acme.example', role: 'member' });
  });

  it('key create prints the value once (text), and --json includes it', async () => {
    const text = expectOk(
      await admin(
        'key create',
        '--org',
        'acme',
        '--creator',
        'dana@acme.example',
        '--name',
        'Website sync',
        '--scopes',
        'write,read',
      ),
    );
    const match = new RegExp(
      `^Created key (${UUID}) "Website sync" \\(read, write\\) for acme\\.\\n` +
        'Its value is shown this once; store it now:\\n\\n {2}(\\S+)\\n$',
    ).exec(text);
    expect(match, text).not.toBeNull();
    state.textKey = { id: match?.[1] ?? '', key: match?.[2] ?? '' };
    expect(state.textKey.key).toMatch(KEY_VALUE);
    expect(text.split('cvk_live_')).toHaveLength(2);

    const json = expectJson(
      await admin(
        'key create',
        '--org',
        'acme',
        '--creator',
        state.danaId,
        '--name',
        'Read only',
        '--scopes',
        'read',
        '--expires-at',
        '2099-01-01T00:00:00+02:00',
        '--json',
      ),
      CreatedKeyJson,
    );
    expect(json).toMatchObject({
      organizationId: state.acme.id,
      organizationSlug: 'acme',
      createdBy: 'dana@acme.example',
      name: 'Read only',
      scopes: ['read'],
      expiresAt: '2098-12-31T22:00:00.000Z',
    });
    expect(json.key).not.toBe(state.textKey.key);
    state.jsonKey = { id: json.id, key: json.key };
  });

  it('key list never shows a value, only its last four characters', async () => {
    const text = expectOk(await admin('key list', '--org', 'acme'));
    expect(text).not.toContain('cvk_live_');
    expect(text).not.toContain(state.textKey.key.slice(9, 20));
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID +NAME +ENDS +SCOPES +CREATED +EXPIRES +REVOKED +LAST USED$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${state.textKey.id} {2}Website sync {2}…${state.textKey.key.slice(-4)} {2}read,write {2}${ISO} {2}— +— +—$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^${state.jsonKey.id} {2}Read only {5}…${state.jsonKey.key.slice(-4)} {2}read {8}${ISO} {2}2098-12-31T22:00:00\\.000Z {2}— +—$`,
      ),
    );
  });

  it('key revoke and org set-plan; key list --json then shows both, and still no value', async () => {
    const text = expectOk(await admin('key revoke', '--org', 'acme', '--key', state.textKey.id));
    const match = new RegExp(`^Revoked key ${state.textKey.id} "Website sync" at (${ISO})\\.\\n$`).exec(text);
    expect(match, text).not.toBeNull();
    const revokedAt = match?.[1] ?? '';
    expect(Math.abs(Date.parse(revokedAt) - Date.now())).toBeLessThan(60_000);

    expect(expectOk(await admin('org set-plan', '--org', 'acme', '--plan', 'enterprise'))).toBe(
      'acme is now on the enterprise plan.\n',
    );

    const result = await admin('key list', '--org', state.acme.id, '--json');
    expect(result.stdout).not.toContain('cvk_live_');
    const list = expectJson(result, KeyListJson);
    expect(list.organization).toEqual({
      id: state.acme.id,
      name: 'Acme Coins',
      slug: 'acme',
      plan: 'enterprise',
      createdAt: state.acme.createdAt,
    });
    expect(list.keys.map(({ createdAt: _, ...key }) => key)).toEqual([
      {
        id: state.textKey.id,
        name: 'Website sync',
        hint: state.textKey.key.slice(-4),
        scopes: ['read', 'write'],
        createdBy: state.danaId,
        expiresAt: null,
        revokedAt,
        lastUsedAt: null,
      },
      {
        id: state.jsonKey.id,
        name: 'Read only',
        hint: state.jsonKey.key.slice(-4),
        scopes: ['read'],
        createdBy: state.danaId,
        expiresAt: '2098-12-31T22:00:00.000Z',
        revokedAt: null,
        lastUsedAt: null,
      },
    ]);
  });

  it('member set-role and member remove', async () => {
    expect(
      expectJson(
        await admin('member set-role', '--org', 'acme', '--user', 'jamie@acme.example', '--role', 'admin', '--json'),
        MemberJson,
      ),
    ).toEqual({ organizationId: state.acme.id, userId: state.jamieId, email: 'jamie@acme.example', role: 'admin' });
    expect(expectOk(await admin('member remove', '--org', 'acme', '--user', state.jamieId))).toBe(
      'jamie@acme.example is no longer a member of the organization.\n',
    );
  });

  it('maps not found, conflict and refusal to exits 3, 4 and 5', async () => {
    expectFailure(
      await admin('member remove', '--org', 'acme', '--user', 'jamie@acme.example', '--json'),
      EXIT.notFound,
      'jamie@acme.example is not a member of acme.',
    );
    expectFailure(
      await admin('org create', '--name', 'Other Acme', '--slug', 'acme', '--plan', 'free'),
      EXIT.conflict,
      'An organization with the slug "acme" already exists.',
    );
    expectFailure(
      await admin(
        'key create',
        '--org',
        'bullion-barn',
        '--creator',
        'dana@acme.example',
        '--name',
        'k',
        '--scopes',
        'read',
      ),
      EXIT.refused,
      'bullion-barn is on the starter plan, which does not include API access (business or enterprise does).',
    );
  });

  it('seed-demo creates the demo workspace and prints its key once; a second run exits 4', async () => {
    const text = expectOk(await admin('seed-demo'));
    const match =
      /^Created the demo workspace liberty-coin \(\d+ items, \d+ invoices\)\.\nIts API key \(read and write\), shown this once:\n\n {2}(\S+)\n$/.exec(
        text,
      );
    expect(match, text).not.toBeNull();
    expect(match?.[1]).toMatch(KEY_VALUE);
    expectFailure(
      await admin('seed-demo', '--json'),
      EXIT.conflict,
      'The demo workspace "liberty-coin" already exists.',
    );
    expect(existsSync(lockFile)).toBe(false);
  });

  it('an organization cannot get a slug that lookups then take for an id', async () => {
    // `--org` treats a UUID-shaped value as an id, so a UUID-shaped slug must be refused (or still resolve).
    const slug = '0b9d8f2e-1c3a-4e5f-8a7b-6c5d4e3f2a1b';
    const created = await admin('org create', '--name', 'Looks Like An Id', '--slug', slug, '--plan', 'business');
    if (created.code === EXIT.usage) {
      expectInvalidOptions(created, 'slug');
      return;
    }
    expectOk(created);
    expect(expectOk(await admin('org set-plan', '--org', slug, '--plan', 'enterprise'))).toBe(
      `${slug} is now on the enterprise plan.\n`,
    );
  });

  it('exits 2 for usage errors, naming the option, without opening the database', async () => {
    const keyCreate = (...more: string[]) =>
      admin('key create', '--org', 'acme', '--creator', 'dana@acme.example', '--name', 'k', ...more);
    // A live process holds the lock: a command that tried to open the database would wait, then exit 1.
    writeFileSync(lockFile, String(process.pid));
    const results = await Promise.all([
      admin('org destroy'),
      admin('org list', '--bogus'),
      admin('org list', 'extra'),
      admin('org create', '--slug', 'x', '--plan', 'business'),
      admin('org create', '--name', 'X', '--slug', 'x', '--plan', 'gold'),
      admin('org create', '--name', 'X', '--slug', 'Bad_Slug', '--plan', 'free'),
      admin('org create', '--name', '   ', '--slug', 'x', '--plan', 'free'),
      admin('member add', '--org', 'acme', '--user', 'dana@acme.example', '--role', 'boss'),
      admin('user create', '--email', 'not-an-email'),
      keyCreate('--scopes', 'read,admin'),
      keyCreate('--scopes', ''),
      keyCreate('--scopes', 'read', '--expires-at', '2099-01-01'),
      keyCreate('--scopes', 'read', '--expires-at', 'tomorrow'),
      admin('key revoke', '--org', 'acme', '--key', 'not-a-uuid'),
    ]).finally(() => rmSync(lockFile));
    const [
      unknown,
      unknownOption,
      positional,
      noName,
      plan,
      slug,
      blankName,
      role,
      email,
      scopes,
      noScopes,
      date,
      word,
      key,
    ] = results;
    expectFailure(unknown, EXIT.usage, 'Unknown command "org destroy".');
    expectFailure(unknownOption, EXIT.usage, "Unknown option '--bogus'", 'Usage: coinventory-server org list');
    expectFailure(positional, EXIT.usage, 'Unexpected argument "extra".');
    expectInvalidOptions(noName, 'name');
    expect(noName.stderr).toContain('--name: is required');
    expect(noName.stderr).not.toMatch(/--(slug|plan):/);
    expectInvalidOptions(plan, 'plan');
    expect(plan.stderr).toContain('--plan: must be one of free, starter, business, enterprise');
    expectInvalidOptions(slug, 'slug');
    expectInvalidOptions(blankName, 'name');
    expectInvalidOptions(role, 'role');
    expect(role.stderr).toContain('--role: must be one of owner, admin, member');
    expectInvalidOptions(email, 'email');
    expectInvalidOptions(scopes, 'scopes');
    expectInvalidOptions(noScopes, 'scopes');
    expectInvalidOptions(date, 'expires-at');
    expectInvalidOptions(word, 'expires-at');
    expectInvalidOptions(key, 'key');
    // Each names only its own bad option, and is followed by the usage.
    expect(plan.stderr).not.toMatch(/--(name|slug):/);
    for (const result of results) expect(result.stderr).toContain('\nUsage: coinventory-server ');
  });

  it('--help on a command prints its usage and exits 0', async () => {
    const [long, short] = await Promise.all([admin('key create', '--help'), admin('member set-role', '-h')]);
    expect(expectOk(long)).toMatch(
      /^Usage: coinventory-server key create --org <id\|slug> --creator <user id\|email> --name <name> --scopes <read\[,write\]> \[--expires-at <date-time>\] \[--json\]\n\n/,
    );
    expect(expectOk(short)).toMatch(
      /^Usage: coinventory-server member set-role --org <id\|slug> --user <id\|email> --role <owner\|admin\|member> \[--json\]\n/,
    );
  });
});

describe('admin commands while a server runs on the same embedded database', () => {
  const env = { COINVENTORY_DATA_DIR: join(tempDir(), 'data') };
  const admin: Admin = adminCli(env);
  const lockFile = join(env.COINVENTORY_DATA_DIR, 'coinventory.lock');
  const socketFile = join(env.COINVENTORY_DATA_DIR, 'admin.sock');
  let server: Running | undefined;
  let workspace: ProvisionedWorkspace;
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
    workspace = await provisionWorkspace(admin, { slug: 'live-coins' });
    const first = await me(baseUrl(), workspace.key);
    expect(first.status).toBe(200);
    expect(first.afterMs).toBeLessThan(PROPAGATION_BOUND_MS);
    const body = MeSchema.parse(first.body);
    expect(body.organization).toEqual({ id: workspace.organizationId, name: 'Org live-coins', slug: 'live-coins' });
    expect(body.apiKey).toEqual({ id: workspace.keyId, name: 'sync', expiresAt: null, scopes: ['read', 'write'] });
    // The commands were run by the server (it logs each), not by opening its database a second time.
    for (const command of ['org create', 'user create', 'member add', 'key create']) {
      expect(server?.stdout()).toContain(`"command":"${command}"`);
    }
    const second = await createKeyJson(admin, {
      org: 'live-coins',
      creator: workspace.ownerEmail,
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
      workspace.key,
      () => admin('key revoke', '--org', 'live-coins', '--key', workspace.keyId),
      401,
    );
    expect((await me(baseUrl(), secondKey)).status).toBe(200);
  });

  it("member set-role to member: the creator's keys get 403; back to admin: 200", async () => {
    const setRole = (role: string) =>
      admin('member set-role', '--org', 'live-coins', '--user', workspace.ownerEmail, '--role', role);
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
    expectOk(await admin('member add', '--org', 'corner-shop', '--user', workspace.ownerEmail, '--role', 'owner'));
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
    expectFailure(await admin('seed-demo'), EXIT.conflict, 'The demo workspace "liberty-coin" already exists.');

    // The refused member add left the clerk a member, who may not create keys.
    expectFailure(
      await keyCreate('live-coins', clerk),
      EXIT.refused,
      `${clerk} is a member of live-coins; only an owner or an admin can create keys.`,
    );
    expectFailure(
      await keyCreate('corner-shop', workspace.ownerEmail),
      EXIT.refused,
      'corner-shop is on the starter plan, which does not include API access (business or enterprise does).',
    );
    expectFailure(
      await keyCreate('live-coins', workspace.ownerEmail, '--expires-at', '2001-01-01T00:00:00Z'),
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

  it('a second start on the data directory exits 1 naming the process that holds it', async () => {
    const pid = server?.child.pid;
    const second = await runToEnd(['start'], env);
    expect(second.code, second.stderr).toBe(EXIT.failure);
    expect(second.stderr).toContain(`is in use by process ${pid}.`);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(pid));
    expect((await me(baseUrl(), secondKey)).status).toBe(200);
  });

  it('after SIGTERM the lock and socket are gone and admin commands open the database directly', async () => {
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
      await createKeyJson(admin, { org: 'live-coins', creator: workspace.ownerEmail, name: 'direct', scopes: 'read' })
    ).key;
    expect(existsSync(lockFile)).toBe(false);
  });

  it('a stale lock (its process is gone) is taken over by an admin command and by start', async () => {
    writeFileSync(lockFile, String(deadPid()));
    expect(expectJson(await admin('org list', '--json'), OrganizationJson.array()).map((o) => o.slug)).toContain(
      'live-coins',
    );
    expect(existsSync(lockFile)).toBe(false);

    writeFileSync(lockFile, String(deadPid()));
    server = await start(env);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(server.child.pid));
    // No demo workspace on a database that already has organizations, and the key made with no server works.
    expect(server.stderr()).not.toContain('cvk_live_');
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
