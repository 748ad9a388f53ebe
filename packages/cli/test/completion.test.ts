import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ADJUSTMENT_REASONS, ITEM_SORTS, ITEM_STATUSES, RESERVATIONS } from '@coinventory/contract/constants';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './support/cli.js';

// `coinventory completion bash|zsh|fish`, loaded into the real shells. bash completes through its own function
// called as readline would; fish through `complete -C`, which asks fish what it would offer for a command line; zsh
// completes only inside its line editor, so its script is checked for syntax and for the answers its functions give.
// zsh and fish are Debian packages (CI installs them, as chromium); elsewhere their tests are skipped without them.

const run = promisify(execFile);
const shell = (name: string) => ['/usr/bin', '/bin', '/usr/local/bin'].map((dir) => join(dir, name)).find(existsSync);
const BASH = shell('bash');
const ZSH = shell('zsh');
const FISH = shell('fish');
for (const [name, path] of [
  ['zsh', ZSH],
  ['fish', FISH],
] as const) {
  if (!path && process.env.CI) throw new Error(`CI needs ${name} for the completion tests (apt-get install ${name})`);
  if (!path) console.warn(`completion tests for ${name} skipped: ${name} is not installed`);
}

const scripts = { bash: '', zsh: '', fish: '' };

beforeAll(async () => {
  const dir = tempDir('completion');
  for (const name of ['bash', 'zsh', 'fish'] as const) {
    const result = await cli(['completion', name]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    scripts[name] = join(dir, `coinventory.${name}`);
    writeFileSync(scripts[name], result.stdout);
  }
});

describe('coinventory completion', () => {
  it('refuses a shell it does not know, and a missing one, as usage errors (exit 2)', async () => {
    const unknown = await cli(['completion', 'tcsh']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('Allowed choices are bash, zsh, fish');
    expect((await cli(['completion'])).code).toBe(2);
  });

  describe.runIf(BASH)('bash', () => {
    /** What bash offers for the words typed, the last one being completed. */
    async function complete(...words: string[]): Promise<string[]> {
      const program = [
        `source ${JSON.stringify(scripts.bash)}`,
        `COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})`,
        'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))',
        '_coinventory',
        'printf "%s\\n" "${COMPREPLY[@]}"',
      ].join('\n');
      const { stdout } = await run(String(BASH), ['--norc', '--noprofile', '-c', program]);
      return stdout.split('\n').filter(Boolean);
    }

    it('completes coinventory it<TAB> to items, and the commands under it', async () => {
      expect(await complete('coinventory', 'it')).toEqual(['items']);
      expect(await complete('coinventory', 'items', 'im')).toEqual(['import']);
      expect(await complete('coinventory', 'items', 'l')).toEqual(['list', 'ls']);
      expect(await complete('coinventory', 'items', 'm')).toEqual(['movements']);
      expect(await complete('coinventory', 'res')).toEqual(['reservations']);
      expect(await complete('coinventory', 'reservations', 'c')).toEqual(['create', 'commit']);
      expect(await complete('coinventory', '')).toEqual(
        expect.arrayContaining(['items', 'invoices', 'webhooks', 'completion', 'login']),
      );
    });

    it("completes options, and the values of those that take a fixed set (the contract's)", async () => {
      expect(await complete('coinventory', 'items', 'list', '--st')).toEqual(['--status']);
      expect(await complete('coinventory', 'items', 'list', '--status', '')).toEqual([...ITEM_STATUSES]);
      expect(await complete('coinventory', 'items', 'ls', '--sort', '')).toEqual([...ITEM_SORTS]);
      expect(await complete('coinventory', 'items', 'adjust', '--reason', '')).toEqual([...ADJUSTMENT_REASONS]);
      expect(await complete('coinventory', 'reservations', 'ls', '--status', '')).toEqual([...RESERVATIONS.statuses]);
      expect(await complete('coinventory', '--profile', 'staging', 'items', 'list', '--so')).toEqual(['--sort']);
      // A free value (an SKU) gets no words, and the program's options apply everywhere.
      expect(await complete('coinventory', 'items', 'list', '--sku', '')).toEqual([]);
      expect(await complete('coinventory', 'items', 'get', '--base')).toEqual(['--base-url']);
      expect(await complete('coinventory', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    });

    it('leaves file names to bash where a command takes a file (complete -o default)', async () => {
      const { stdout } = await run(String(BASH), [
        '--norc',
        '--noprofile',
        '-c',
        `source ${scripts.bash}; complete -p coinventory`,
      ]);
      expect(stdout.trim()).toBe('complete -o default -F _coinventory coinventory');
    });
  });

  describe.runIf(FISH)('fish', () => {
    async function complete(line: string): Promise<string[]> {
      const { stdout } = await run(String(FISH), [
        '--no-config',
        '-c',
        `source ${scripts.fish}; complete -C '${line}'`,
      ]);
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0] ?? '');
    }

    it('loads, and completes commands with their descriptions, options and values', async () => {
      await run(String(FISH), ['--no-execute', scripts.fish]);
      const { stdout } = await run(String(FISH), [
        '--no-config',
        '-c',
        `source ${scripts.fish}; complete -C 'coinventory it'`,
      ]);
      expect(stdout).toMatch(/^items\t\S/m);
      expect(await complete('coinventory it')).toEqual(['items']);
      expect(await complete('coinventory items l')).toEqual(expect.arrayContaining(['list', 'ls']));
      expect(await complete('coinventory items list --status ')).toEqual(expect.arrayContaining([...ITEM_STATUSES]));
      expect(await complete('coinventory items list --st')).toEqual(['--status']);
      expect(await complete('coinventory completion ')).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
    });
  });

  describe.runIf(ZSH)('zsh', () => {
    it('parses, registers its function for coinventory, and its functions answer as bash does', async () => {
      await run(String(ZSH), ['-n', scripts.zsh]);
      const program = [
        'autoload -U compinit && compinit -u -D',
        `source ${scripts.zsh}`,
        'print -r -- "registered=${_comps[coinventory]}"',
        'print -r -- "top=$(_coinventory_subcommands "")"',
        'print -r -- "values=$(_coinventory_values "items list|--status")"',
        'print -r -- "free=$(_coinventory_values "|--profile")"',
        '_coinventory_described items',
      ].join('\n');
      const { stdout } = await run(String(ZSH), ['-f', '-c', program], {
        env: { HOME: tempDir('zsh-home'), PATH: process.env.PATH ?? '' },
      });
      expect(stdout).toContain('registered=_coinventory\n');
      expect(stdout).toMatch(/^top=me items reservations categories .*completion$/m);
      expect(stdout).toContain(`values=${ITEM_STATUSES.join(' ')}\n`);
      // An option taking a free value answers '-' (offer nothing), which zsh's echo would have swallowed.
      expect(stdout).toContain('free=-\n');
      expect(stdout).toMatch(/^list:list items/m);
      expect(stdout).toMatch(/^import:\S/m);
    });
  });
});
