import { TEST_MODE } from '@coinventory/contract/constants';
import type { Command } from 'commander';
import { configPath, type Profile, readConfig, writeConfig } from '../config.js';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { readSecret } from '../prompt.js';
import { createClient, type GlobalOptions, globalOptions, ioFor, resolveBaseUrl, selectedProfile } from '../session.js';
import { examples } from './shared.js';

interface ProfileCommand {
  options: GlobalOptions;
  io: IO;
  /** The profile `--profile` names (default `default`), and its saved settings. */
  name: string;
  profile: Profile | undefined;
}

/** An action on the profile `--profile` names. */
function onProfile(run: (context: ProfileCommand) => Promise<void>) {
  return async (_options: unknown, command: Command): Promise<void> => {
    const options = globalOptions(command);
    await run({ options, io: ioFor(command), ...selectedProfile(options) });
  };
}

export function registerAuth(program: Command): void {
  const login = program
    .command('login')
    .description('save an API key, live or test, in a profile, after checking it with GET /me')
    .action(
      onProfile(async ({ options, io, name, profile }) => {
        const baseUrl = resolveBaseUrl(options, profile, io.env);
        const apiKey = options.apiKey?.trim() || (await readSecret('API key: '));
        if (!apiKey) throw new UsageError('No API key given.', 'login');
        // Either kind of key: a live one reaches the workspace, a test one (cvk_test_…) its sandbox.
        const client = createClient(apiKey, baseUrl, io);
        const me = await client.me();
        const config = readConfig();
        config.profiles[name] = { ...config.profiles[name], apiKey, baseUrl };
        writeConfig(config);
        const where = client.mode === 'test' ? ' in test mode' : '';
        await io.out.write(
          `Logged in to ${me.organization.name} (${me.organization.slug})${where} as key ${me.apiKey.name ?? me.apiKey.id}\n`,
        );
        const reaches = client.mode === 'test' ? "the workspace's sandbox" : 'live data';
        io.notice(
          io.errStyle.dim(
            `Saved a ${client.mode} key to profile '${name}' in ${configPath()} (${me.apiKey.scopes.join(', ')}); it reaches ${reaches}.`,
          ),
        );
      }),
    );
  examples(login, [
    'coinventory login',
    'coinventory login --profile staging --base-url https://staging.example.com/v1',
    'printf "%s\\n" "$KEY" | coinventory login   # from a script: the key is read from stdin',
  ]);
  login.addHelpText(
    'after',
    `\nEither kind of key: a live key (${TEST_MODE.keyPrefixes.live}…) reaches the workspace, a test key\n` +
      `(${TEST_MODE.keyPrefixes.test}…) its sandbox; login says which it saved.\n` +
      '\nOn a terminal the key is read without echo. The profile is saved with mode 0600 in\n' +
      '$XDG_CONFIG_HOME/coinventory/config.json (default ~/.config/coinventory/config.json).\n',
  );

  const logout = program
    .command('logout')
    .description("remove the profile's saved API key")
    .action(
      onProfile(async ({ io, name }) => {
        const config = readConfig();
        const profile = config.profiles[name];
        if (!profile?.apiKey) {
          io.notice(`Not logged in (profile '${name}' has no saved key).`);
          return;
        }
        const { apiKey: _removed, ...rest } = profile;
        if (Object.keys(rest).length === 0) delete config.profiles[name];
        else config.profiles[name] = rest;
        writeConfig(config);
        await io.out.write(`Logged out: removed the key of profile '${name}' from ${configPath()}\n`);
      }),
    );
  examples(logout, ['coinventory logout', 'coinventory logout --profile staging']);
}
