import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_MODE } from '@coinventory/contract/constants';
import { describe, expect, inject, it } from 'vitest';
import { TEST_MODE_NOTICE } from '../src/session.js';
import { cli, startCli, tempDir } from './support/cli.js';
import { json, sdk as liveSdk, run, withKey } from './support/demo.js';
import { startReceiver } from './support/receiver.js';

// A test key (cvk_test_…) of the demo organization, which reaches its sandbox: every command that calls the API says
// so once on stderr, before anything else, and never on stdout; `login` takes it and says it saved a test key.

const { baseUrl, keys } = inject('server');
const test = withKey(keys.testMode);
const NOTICE = `${TEST_MODE_NOTICE}\n`;

describe('a test key', () => {
  it('makes each command that calls the API say "Test mode" once, on stderr only', async () => {
    const me = await test.run(['me']);
    expect(me.code).toBe(0);
    expect(me.stderr).toBe(NOTICE);
    expect(me.stdout).toContain("Mode             test (the workspace's sandbox)\n");
    // The sandbox is an organization of its own, named as the workspace.
    const live = json<{ organization: { id: string; slug: string } }>(await run(['me', '--json']));
    const sandbox = await test.run(['me', '--json']);
    expect(sandbox.stderr).toBe(NOTICE);
    const { organization } = JSON.parse(sandbox.stdout) as typeof live;
    expect(organization.slug).toBe(live.organization.slug);
    expect(organization.id).not.toBe(live.organization.id);

    // Several requests (every page, then the feed's cursor), one notice; the JSON on stdout is the API's alone.
    const list = await test.run(['items', 'list', '--all', '--limit', '1', '--json']);
    expect(list.stderr).toBe(NOTICE);
    expect(JSON.parse(list.stdout)).toMatchObject({ hasMore: false });
    const cursor = await test.run(['changes', 'cursor', '--json']);
    expect([cursor.code, cursor.stderr]).toEqual([0, NOTICE]);
    expect(Object.keys(JSON.parse(cursor.stdout))).toEqual(['cursor']);
  });

  it('is named in the answers the server sends it, which `api --include` shows', async () => {
    const { code, stdout, stderr } = await test.run(['api', 'GET', '/me', '--include']);
    expect([code, stderr]).toEqual([0, NOTICE]);
    expect(stdout.toLowerCase()).toContain(`${TEST_MODE.header.toLowerCase()}: ${TEST_MODE.value}\n`);
    const liveAnswer = await run(['api', 'GET', '/me', '--include']);
    expect(liveAnswer.stderr).toBe('');
    expect(liveAnswer.stdout.toLowerCase()).not.toContain(TEST_MODE.header.toLowerCase());
  });

  it('says nothing when no request is sent: help, a usage error', async () => {
    const help = await test.run(['items', 'list', '--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    const usage = await test.run(['items', 'get']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toContain('Test mode');
  });

  it('still says so when the API refuses it, before the error', async () => {
    const unknown = `${TEST_MODE.keyPrefixes.test}${'0'.repeat(38)}`;
    const refused = await cli(['me'], { env: { COINVENTORY_BASE_URL: baseUrl, COINVENTORY_API_KEY: unknown } });
    expect(refused.code).toBe(3);
    expect(refused.stderr.startsWith(NOTICE)).toBe(true);
    expect(refused.stderr).toContain('UNAUTHORIZED');
  });
});

describe('listen with a test key', () => {
  it("forwards the sandbox's changes, signed, and none of the live workspace's", async () => {
    const receiver = await startReceiver();
    const listening = startCli(['listen', '--forward-to', receiver.url, '--interval', '1', '--json'], {
      env: test.keyEnv,
    });
    try {
      const stderr = await listening.waitFor('stderr', (text) => text.includes('Ready.'));
      expect(stderr.startsWith(NOTICE)).toBe(true);
      receiver.secrets = [/^Signing secret: (whsec_\S+)/m.exec(stderr)?.[1] ?? expect.fail(stderr)];

      // The live change first: had it been forwarded, it would arrive before the sandbox's.
      const live = await liveSdk.items.create({ sku: `LIVE-${Date.now()}`, title: 'Live, not forwarded' });
      const sandboxed = await test.sdk.items.create({ sku: `TEST-${Date.now()}`, title: 'Sandbox, forwarded' });
      const [first] = await receiver.waitFor((received) => received.length > 0);
      expect(first?.verified).toMatchObject({ type: 'item.created', objectId: sandboxed.id, data: sandboxed });
      await listening.waitFor('stdout', (text) => text.includes(sandboxed.id));
      await test.sdk.items.delete(sandboxed.id);
      await receiver.waitFor((received) => received.length === 2);
      await liveSdk.items.delete(live.id);

      const result = await listening.stop('SIGINT');
      expect(result.code).toBe(0);
      expect(receiver.received.map((r) => (r.verified as { objectId: string }).objectId)).toEqual([
        sandboxed.id,
        sandboxed.id,
      ]);
      expect(result.stdout).not.toContain(live.id);
      expect(result.stderr.split(NOTICE)).toHaveLength(2);
    } finally {
      await listening.stop('SIGKILL').catch(() => undefined);
      await receiver.close();
    }
  });
});

describe('login', () => {
  const home = () => ({
    HOME: tempDir('login-test-mode'),
    COINVENTORY_CONFIG_DIR: undefined,
    XDG_CONFIG_HOME: undefined,
  });

  it('takes a test key, says it saved a test key, and later commands with the profile are in test mode', async () => {
    const env = home();
    const login = await cli(['login', '--base-url', baseUrl], { env, input: `${keys.testMode}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(
      'Logged in to Liberty Coin & Bullion (liberty-coin) in test mode as key cli test mode tests\n',
    );
    const file = join(env.HOME, '.config', 'coinventory', 'config.json');
    expect(login.stderr).toBe(
      `${NOTICE}Saved a test key to profile 'default' in ${file} (read, write); it reaches the workspace's sandbox.\n`,
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { apiKey: keys.testMode, baseUrl } },
    });
    const me = await cli(['me'], { env });
    expect([me.code, me.stderr]).toEqual([0, NOTICE]);
    expect(me.stdout).toContain('Mode             test');
  });

  it('takes a live key as before, and says it saved a live key', async () => {
    const env = home();
    const login = await cli(['login', '--base-url', baseUrl], { env, input: keys.auth });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe('Logged in to Liberty Coin & Bullion (liberty-coin) as key cli auth tests\n');
    expect(login.stderr).toMatch(/^Saved a live key to profile 'default' in .*; it reaches live data\.\n$/);
    const me = await cli(['me'], { env });
    expect([me.code, me.stderr]).toEqual([0, '']);
    expect(me.stdout).toContain('Mode             live\n');
  });
});
