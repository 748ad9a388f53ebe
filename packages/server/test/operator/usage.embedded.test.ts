import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Admin, adminCli, EXIT, expectInvalidOptions, expectOk, expectUsageLines } from '../support/admin.js';
import { removeTempDirs, runToEnd, tempDir } from '../support/binary.js';

afterAll(removeTempDirs);

/**
 * The operator's mistakes, through the built binary: each is one line on stderr, `coinventory-server: <what went
 * wrong>; <what to do>`, exit 2, and the database is never opened (a live process holds its lock: a command that tried
 * would wait, then fail with exit 6).
 */
describe('operator command usage, which never opens the database', () => {
  const dataDir = tempDir();
  const admin: Admin = adminCli({ COINVENTORY_DATA_DIR: dataDir });
  const lockFile = join(dataDir, 'coinventory.lock');
  const locked = async <T>(work: () => Promise<T>) => {
    writeFileSync(lockFile, String(process.pid));
    try {
      return await work();
    } finally {
      rmSync(lockFile, { force: true });
    }
  };

  it('an unknown option, with the option meant when one is close', async () => {
    const [typo, alias, far, short] = await locked(() =>
      Promise.all([
        admin('member add', '--org', 'acme', '--usr', 'dana@acme.example', '--role', 'owner'),
        admin('key create', '--org', 'acme', '--creater', 'dana@acme.example'),
        admin('org list', '--bogus'),
        admin('org list', '-x'),
      ]),
    );
    expectUsageLines(typo, 'coinventory-server: unknown option --usr for member add; did you mean --user?');
    // Close to the former name --creator: the current name is what it suggests.
    expectUsageLines(alias, 'coinventory-server: unknown option --creater for key create; did you mean --user?');
    expectUsageLines(
      far,
      'coinventory-server: unknown option --bogus for org list; see "coinventory-server org list --help"',
    );
    expectUsageLines(
      short,
      'coinventory-server: unknown option -x for org list; see "coinventory-server org list --help"',
    );
  });

  it('an option without its value, or a value where none is taken', async () => {
    const [last, followed, negative, flag] = await locked(() =>
      Promise.all([
        admin('member add', '--user', 'dana@acme.example', '--org'),
        admin('key list', '--org', '--json'),
        admin('spot set', '--metal', 'silver', '--usd-per-oz', '-5'),
        admin('org list', '--json=yes'),
      ]),
    );
    expectUsageLines(last, 'coinventory-server: --org needs a value; give it as --org <id|slug>');
    expectUsageLines(
      followed,
      'coinventory-server: --org needs a value, and "--json" follows it; give it as --org <id|slug> (a value that starts with "-" as --org=<value>)',
    );
    expect(negative.stderr).toContain(
      '--usd-per-oz needs a value, and "-5" follows it; give it as --usd-per-oz <price',
    );
    expectUsageLines(flag, 'coinventory-server: --json takes no value (got "yes"); give --json alone');
  });

  it('an unknown command or subcommand, with the command meant when one is close', async () => {
    const results = await Promise.all([
      runToEnd(['org', 'lst'], {}),
      runToEnd(['orgg', 'list'], {}),
      runToEnd(['migrat'], {}),
      runToEnd(['sync-wroker'], {}),
      runToEnd(['org', 'destroy'], {}),
      runToEnd(['launch'], {}),
      runToEnd(['sync'], {}),
    ]);
    const [verb, noun, single, other, far, unknown, bare] = results;
    expectUsageLines(verb, 'coinventory-server: unknown command "org lst"; did you mean "org list"?');
    expectUsageLines(noun, 'coinventory-server: unknown command "orgg list"; did you mean "org list"?');
    expectUsageLines(single, 'coinventory-server: unknown command "migrat"; did you mean "migrate"?');
    expectUsageLines(other, 'coinventory-server: unknown command "sync-wroker"; did you mean "sync-worker"?');
    expectUsageLines(
      far,
      'coinventory-server: unknown command "org destroy"; the org commands are create, list or set-plan',
    );
    expectUsageLines(
      unknown,
      'coinventory-server: unknown command "launch"; run "coinventory-server --help" for the commands',
    );
    expectUsageLines(
      bare,
      'coinventory-server: "sync" needs a command; one of list, status or retry (see "coinventory-server sync --help")',
    );
  });

  it('bad values: one line each, naming the option, the value and the rule; missing options in one line', async () => {
    const keyCreate = (...more: string[]) =>
      admin('key create', '--org', 'acme', '--user', 'dana@acme.example', '--name', 'k', ...more);
    const results = await locked(() =>
      Promise.all([
        admin('org create', '--slug', 'x'),
        admin('org create', '--name', 'X', '--slug', 'Bad_Slug', '--plan', 'gold'),
        admin('org create', '--name', '   ', '--slug', 'x', '--plan', 'free'),
        admin('member add', '--org', 'acme', '--user', 'dana@acme.example', '--role', 'boss'),
        admin('user create', '--email', 'not-an-email'),
        keyCreate('--scopes', 'read,admin'),
        keyCreate('--scopes', ''),
        keyCreate('--scopes', 'read', '--expires-at', '2099-01-01'),
        admin('key revoke', '--org', 'acme', '--key', 'not-a-uuid'),
        admin('org list', 'extra'),
        admin('valuate', '--org', 'acme'),
        admin('sync list', '--org', 'acme', '--limit', '5000'),
      ]),
    );
    const [missing, two, blank, role, email, scopes, noScopes, date, key, positional, valuate, limit] = results;
    expectUsageLines(
      missing,
      'coinventory-server: org create needs --name <name> and --plan <free|starter|business|enterprise>; for example: coinventory-server org create --name "Liberty Coins" --slug liberty-coins --plan business',
    );
    expectUsageLines(
      two,
      'coinventory-server: invalid --slug "Bad_Slug"; must be lower-case letters and digits in words joined by single hyphens',
      'coinventory-server: invalid --plan "gold"; must be one of free, starter, business, enterprise',
    );
    expectUsageLines(blank, 'coinventory-server: invalid --name "   "; must not be empty');
    expectUsageLines(role, 'coinventory-server: invalid --role "boss"; must be one of owner, admin, member');
    expectInvalidOptions(email, 'email');
    expectUsageLines(
      scopes,
      'coinventory-server: invalid --scopes "read,admin"; each scope must be one of read, write',
    );
    expectInvalidOptions(noScopes, 'scopes');
    expectInvalidOptions(date, 'expires-at');
    expectUsageLines(key, 'coinventory-server: invalid --key "not-a-uuid"; must be a key id (a UUID)');
    expectUsageLines(
      positional,
      'coinventory-server: unexpected argument "extra" for org list; it takes only options (see "coinventory-server org list --help")',
    );
    expectUsageLines(valuate, 'coinventory-server: valuate needs --item <id|sku> or --all; give one of them');
    expectUsageLines(limit, 'coinventory-server: invalid --limit "5000"; must be from 1 to 1000');
  });

  it('--user and --creator together are refused; the help lists --creator as deprecated', async () => {
    const both = await locked(() =>
      admin(
        'key create',
        '--org',
        'a',
        '--user',
        'b@a.example',
        '--creator',
        'c@a.example',
        '--name',
        'k',
        '--scopes',
        'read',
      ),
    );
    expectUsageLines(both, 'coinventory-server: --creator is the former name of --user; give only --user');
    const help = expectOk(await admin('key create', '--help'));
    expect(help).toMatch(
      /^Usage: coinventory-server key create --org <id\|slug> --user <id\|email> --name <name> --scopes <read\[,write\]> \[--expires-at <date-time>\] \[--mode <live\|test>\] \[--json\]\n\n/,
    );
    expect(help).toContain('\n  --creator   Deprecated: the former name of --user, still accepted.\n');
    expect(expectOk(await admin('member set-role', '-h'))).toMatch(
      /^Usage: coinventory-server member set-role --org <id\|slug> --user <id\|email> --role <owner\|admin\|member> \[--json\]\n/,
    );
  });

  it('every command names a person --user and an organization --org', async () => {
    const { COMMANDS } = await import('../../src/operator/index.js');
    for (const command of COMMANDS) {
      const options = Object.keys(command.options);
      expect(options, command.name).not.toContain('creator');
      expect(
        options.filter((name) => /^(organization|organisation|org-id|user-id|member|owner|creator)$/.test(name)),
      ).toEqual([]);
    }
  });

  it('the help and the operator guide document every exit code, and start refuses arguments in one line', async () => {
    const help = await runToEnd(['--help'], {});
    expect(help.code).toBe(EXIT.ok);
    const guide = readFileSync(
      new URL('../../../../apps/docs/site/guide/operator-commands.md', import.meta.url),
      'utf8',
    );
    const table = [...guide.matchAll(/^\| (\d+) +\| /gm)].map(([, code]) => Number(code));
    expect(table).toEqual(Object.values(EXIT));
    for (const code of Object.values(EXIT)) expect(help.stdout).toMatch(new RegExp(`^ {2}${code} {2}\\S`, 'm'));
    expectUsageLines(
      await runToEnd(['start', 'now'], {}),
      'coinventory-server: start takes no arguments (got "now"); it is configured by environment variables, listed by "coinventory-server --help"',
    );
  });
});
