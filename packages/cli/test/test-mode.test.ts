import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_MODE } from '@coinventory/contract/constants';
import { describe, expect, inject, it } from 'vitest';
import { TEST_MODE_NOTICE } from '../src/session.js';
import { cli, tempDir } from './support/cli.js';
import { json, run, withKey } from './support/demo.js';

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
