import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { cli, type RunOptions, tempDir } from './support/cli.js';

// login / logout with a temporary HOME: the key read from piped stdin, checked with GET /me, saved with mode 0600;
// then the precedence of --api-key, COINVENTORY_API_KEY and the profile.

const { baseUrl, keys } = inject('server');

/** A fresh HOME with no config dir override, so the CLI uses ~/.config/coinventory. */
function home(): { HOME: string; COINVENTORY_CONFIG_DIR: undefined; XDG_CONFIG_HOME: undefined } {
  return {
    HOME: tempDir('login'),
    COINVENTORY_CONFIG_DIR: undefined,
    XDG_CONFIG_HOME: undefined,
  };
}

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('login', () => {
  it('reads the key from stdin, verifies it, saves it with mode 0600 (directory 0700), and later commands use it', async () => {
    const env = home();
    const login = await cli(['login', '--base-url', baseUrl], { env, input: `${keys.auth}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe('Logged in to Liberty Coin & Bullion (liberty-coin) as key cli auth tests\n');
    const dir = join(env.HOME, '.config', 'coinventory');
    const file = join(dir, 'config.json');
    expect(login.stderr).toContain(file);
    expect(login.stderr).not.toContain(keys.auth);
    expect(mode(file)).toBe('600');
    expect(mode(dir)).toBe('700');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { apiKey: keys.auth, baseUrl } },
    });

    // No key or base URL in the environment: both come from the profile.
    const me = await cli(['me'], { env });
    expect(me.code).toBe(0);
    expect(me.stdout).toContain('Key              cli auth tests');
    expect(me.stdout).toContain(`Key from         profile 'default' (${file})`);

    // --api-key beats COINVENTORY_API_KEY, which beats the profile.
    const badEnv = await cli(['me'], { env: { ...env, COINVENTORY_API_KEY: 'cvk_live_nope' } });
    expect(badEnv.code).toBe(3);
    const flagWins = await cli(['me', '--api-key', keys.readOnly], {
      env: { ...env, COINVENTORY_API_KEY: 'cvk_live_nope' },
    });
    expect(flagWins.code).toBe(0);
    expect(flagWins.stdout).toContain('Key              cli read-only');
    expect(flagWins.stdout).toContain('Key from         --api-key');
    const badFlag = await cli(['--api-key', 'cvk_live_nope', 'me'], { env });
    expect(badFlag.code).toBe(3);

    // logout removes the key (and keeps the profile's base URL); then there is no key: exit 3 with how to log in.
    const logout = await cli(['logout'], { env });
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain("removed the key of profile 'default'");
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { baseUrl } } });
    expect(mode(file)).toBe('600');
    const after = await cli(['me'], { env });
    expect(after).toEqual({
      code: 3,
      stdout: '',
      stderr: "Error: No API key. Run 'coinventory login', set COINVENTORY_API_KEY, or pass --api-key.\n",
    });
    const again = await cli(['logout'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Not logged in');
  });

  it('--profile keeps profiles apart; XDG_CONFIG_HOME and COINVENTORY_CONFIG_DIR choose the file', async () => {
    const xdg = tempDir('xdg');
    const env: RunOptions['env'] = { ...home(), XDG_CONFIG_HOME: xdg };
    const login = await cli(['login', '--profile', 'ro', '--base-url', baseUrl], { env, input: keys.readOnly });
    expect(login.code).toBe(0);
    const file = join(xdg, 'coinventory', 'config.json');
    expect(mode(file)).toBe('600');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles).toEqual({ ro: { apiKey: keys.readOnly, baseUrl } });
    expect((await cli(['me', '--profile', 'ro'], { env })).stdout).toContain('Scopes           read\n');
    const missing = await cli(['me'], { env });
    expect(missing.code).toBe(3);
    const other = await cli(['me', '--profile', 'staging'], { env });
    expect(other.stderr).toContain("No API key for profile 'staging'. Run 'coinventory login --profile staging'");
    expect((await cli(['me', '--profile', '../x'], { env })).code).toBe(2);

    const dir = tempDir('cfg');
    const override = await cli(['login', '--base-url', baseUrl], {
      env: { ...env, COINVENTORY_CONFIG_DIR: dir },
      input: keys.auth,
    });
    expect(override.code).toBe(0);
    expect(mode(join(dir, 'config.json'))).toBe('600');
  });

  it('a refused key is not saved (exit 3); an empty one is a usage error (exit 2)', async () => {
    const env = home();
    const refused = await cli(['login', '--base-url', baseUrl], { env, input: 'cvk_live_wrong\n' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('UNAUTHORIZED');
    expect(() => statSync(join(env.HOME, '.config', 'coinventory', 'config.json'))).toThrow();
    const empty = await cli(['login', '--base-url', baseUrl], { env, input: '\n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('No API key given');
  });

  it('warns when the config file is readable by others', async () => {
    const env = home();
    expect((await cli(['login', '--base-url', baseUrl], { env, input: keys.auth })).code).toBe(0);
    const file = join(env.HOME, '.config', 'coinventory', 'config.json');
    chmodSync(file, 0o644);
    const me = await cli(['me'], { env });
    expect(me.code).toBe(0);
    expect(me.stderr).toContain('has mode 0644');
  });
});
