import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Admin,
  adminCli,
  CreatedKeyJson,
  CreatedOrganizationJson,
  EXIT,
  expectFailure,
  expectInvalidOptions,
  expectJson,
  expectOk,
  KEY_VALUE,
  KeyListJson,
  ListedOrganizationJson,
  MemberJson,
  TEST_KEY_VALUE,
  UserJson,
} from '../support/admin.js';
import { type Running, removeTempDirs, start, stop, tempDir } from '../support/binary.js';

afterAll(removeTempDirs);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ISO = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';

/**
 * What every command prints, as text and with --json, and how it exits. Opening the embedded database costs a
 * process a few seconds of CPU, so only the first command opens it itself (no server running); the rest run through
 * the operator socket of a server on the same data directory, which runs the same command code and prints the same
 * output. admin-live.embedded.test.ts covers the lock, the socket and taking over after a server stops.
 */
describe('operator commands on an embedded database', () => {
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

  // The one command that opens the database itself: a new data directory (initdb and the migrations in WebAssembly,
  // which a loaded CI machine takes well over the default 30 s for).
  it('org create prints the new organization as text, with no server running', { timeout: 120_000 }, async () => {
    const text = expectOk(await admin('org create', '--name', 'Acme Coins', '--slug', 'acme', '--plan', 'business'));
    const match = new RegExp(`^Created organization acme \\((${UUID})\\) on the business plan\\.\\n$`).exec(text);
    expect(match, text).not.toBeNull();
    state.acme.id = match?.[1] ?? '';
    // No server runs here: the command took the lock, opened the database itself, and released the lock.
    expect(existsSync(lockFile)).toBe(false);
  });

  describe('run by the server that holds the database', () => {
    let server: Running | undefined;
    beforeAll(async () => {
      server = await start(env);
    });
    afterAll(async () => {
      if (server) await stop(server);
    });

    it('org create --json prints every field', async () => {
      const before = Date.now();
      const barn = expectJson(
        await admin('org create', '--name', '  Bullion Barn ', '--slug', 'bullion-barn', '--plan', 'starter', '--json'),
        CreatedOrganizationJson,
      );
      expect(barn).toMatchObject({ name: 'Bullion Barn', slug: 'bullion-barn', plan: 'starter' });
      expect(Math.abs(Date.parse(barn.createdAt) - before)).toBeLessThan(60_000);
      expect(new Set([barn.id, barn.defaultWarehouseId, barn.defaultZoneId, state.acme.id]).size).toBe(4);
      state.barn = { id: barn.id, createdAt: barn.createdAt };
    });

    it('org list lists every organization, as JSON and as a table', async () => {
      const list = expectJson(await admin('org list', '--json'), ListedOrganizationJson.array());
      state.acme.createdAt = list.find((org) => org.slug === 'acme')?.createdAt ?? '';
      expect(list).toEqual([
        {
          id: state.acme.id,
          name: 'Acme Coins',
          slug: 'acme',
          plan: 'business',
          createdAt: state.acme.createdAt,
          keys: { live: 0, test: 0 },
        },
        {
          id: state.barn.id,
          name: 'Bullion Barn',
          slug: 'bullion-barn',
          plan: 'starter',
          createdAt: state.barn.createdAt,
          keys: { live: 0, test: 0 },
        },
      ]);

      const lines = expectOk(await admin('org list'))
        .trimEnd()
        .split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^ID {36}SLUG {10}PLAN {6}LIVE KEYS {2}TEST KEYS {2}NAME$/);
      expect(lines[1]).toMatch(new RegExp(`^${state.acme.id} {2}acme {10}business {2}0 {10}0 {10}Acme Coins$`));
      expect(lines[2]).toMatch(new RegExp(`^${state.barn.id} {2}bullion-barn {2}starter {3}0 {10}0 {10}Bullion Barn$`));
    });

    it('user create and member add', async () => {
      const dana = expectOk(await admin('user create', '--email', 'dana@acme.example', '--name', 'Dana Whitfield'));
      const match = new RegExp(`^Created user dana@acme\\.example \\((${UUID})\\)\\.\\n$`).exec(dana);
      expect(match, dana).not.toBeNull();
      state.danaId = match?.[1] ?? '';

      const jamie = expectJson(await admin('user create', '--email', 'jamie@acme.example', '--json'), UserJson);
      expect(jamie).toMatchObject({ email: 'jamie@acme.example', name: null });
      state.jamieId = jamie.id;

      expect(
        expectOk(await admin('member add', '--org', 'acme', '--user', 'DANA@acme.example', '--role', 'owner')),
      ).toBe('dana@acme.example is now an owner of the organization.\n');
      // By ids instead of slug and email.
      expect(
        expectJson(
          await admin('member add', '--org', state.acme.id, '--user', jamie.id, '--role', 'member', '--json'),
          MemberJson,
        ),
      ).toEqual({ organizationId: state.acme.id, userId: jamie.id, email: 'jamie@acme.example', role: 'member' });
    });

    it('key create prints the value once (text), and --json includes it; --creator still names the user', async () => {
      const text = expectOk(
        await admin(
          'key create',
          '--org',
          'acme',
          '--user',
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
          // The former name of --user: still accepted, as scripts written before it use it.
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
      expect(lines[0]).toMatch(/^ID +MODE +NAME +ENDS +SCOPES +CREATED +EXPIRES +REVOKED +LAST USED$/);
      expect(lines[1]).toMatch(
        new RegExp(
          `^${state.textKey.id} {2}live {2}Website sync {2}…${state.textKey.key.slice(-4)} {2}read,write {2}${ISO} {2}— +— +—$`,
        ),
      );
      expect(lines[2]).toMatch(
        new RegExp(
          `^${state.jsonKey.id} {2}live {2}Read only {5}…${state.jsonKey.key.slice(-4)} {2}read {8}${ISO} {2}2098-12-31T22:00:00\\.000Z {2}— +—$`,
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
          mode: 'live',
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
          mode: 'live',
          hint: state.jsonKey.key.slice(-4),
          scopes: ['read'],
          createdBy: state.danaId,
          expiresAt: '2098-12-31T22:00:00.000Z',
          revokedAt: null,
          lastUsedAt: null,
        },
      ]);
    });

    it('key create --mode test makes the sandbox with the key; the lists count and show it; it reaches the sandbox', async () => {
      const test = expectJson(
        await admin(
          'key create',
          '--org',
          'acme',
          '--user',
          state.danaId,
          '--name',
          'Sandbox',
          '--scopes',
          'read,write',
          '--mode',
          'test',
          '--json',
        ),
        CreatedKeyJson,
      );
      expect(test).toMatchObject({ organizationId: state.acme.id, mode: 'test', name: 'Sandbox' });
      expect(test.key).toMatch(TEST_KEY_VALUE);
      const listed = expectJson(await admin('org list', '--json'), ListedOrganizationJson.array());
      // The text key was revoked above: one live key left, and the new test key.
      expect(listed.find((org) => org.slug === 'acme')?.keys).toEqual({ live: 1, test: 1 });
      const keys = expectJson(await admin('key list', '--org', 'acme', '--json'), KeyListJson).keys;
      expect(keys.map((key) => [key.name, key.mode])).toEqual([
        ['Website sync', 'live'],
        ['Read only', 'live'],
        ['Sandbox', 'test'],
      ]);
      expect(expectOk(await admin('listing simulator', '--org', 'acme', '--mode', 'test'))).toBe(
        'The simulator has received nothing for these listings.\n',
      );

      const me = await fetch(`${server?.baseUrl}/me`, { headers: { authorization: `Bearer ${test.key}` } });
      expect(me.status).toBe(200);
      expect(me.headers.get('coinventory-mode')).toBe('test');
      const body = (await me.json()) as { organization: { id: string; slug: string }; apiKey: { id: string } };
      expect(body.organization.slug).toBe('acme');
      expect(body.organization.id).not.toBe(state.acme.id);
      expect(body.apiKey.id).toBe(test.id);
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

    it('seed-demo creates the demo organization and prints its key once; a second run exits 4', async () => {
      const text = expectOk(await admin('seed-demo'));
      const match =
        /^Created the demo organization liberty-coin \(\d+ items, \d+ invoices\)\.\nIts API key \(read and write\), shown this once:\n\n {2}(\S+)\n$/.exec(
          text,
        );
      expect(match, text).not.toBeNull();
      expect(match?.[1]).toMatch(KEY_VALUE);
      expectFailure(
        await admin('seed-demo', '--json'),
        EXIT.conflict,
        'The demo organization "liberty-coin" already exists.',
      );
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
  });
});
