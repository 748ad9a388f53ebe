import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Coinventory } from '@coinventory/sdk';
import { describe, expect, inject, it } from 'vitest';
import { BIN, tempDir } from './support/cli.js';

// On a terminal: colour (unless NO_COLOR), a progress line on stderr for --all, and never either on stdout when it
// is redirected. A pseudo-terminal comes from util-linux `script`; without it these tests are skipped.

const { baseUrl, keys } = inject('server');

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const HOME = tempDir('tty');
const quote = (value: string): string => `'${value.replace(/'/g, "'\\''")}'`;

interface TerminalRun {
  env?: Record<string, string>;
  /** Typed on the terminal once the screen shows `after`. */
  type?: { after: string; text: string };
  /** Expected exit code (default 0). */
  code?: number;
}

/** Runs a shell command line under a pseudo-terminal; resolves to everything the terminal showed. */
async function onTerminal(commandLine: string, options: TerminalRun = {}): Promise<string> {
  const child = spawn('script', ['-qec', commandLine, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME,
      TZ: 'UTC',
      TERM: 'xterm-256color',
      COLUMNS: '200',
      COINVENTORY_BASE_URL: baseUrl,
      COINVENTORY_API_KEY: keys.terminal,
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let typed = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (options.type && !typed && output.includes(options.type.after)) {
      typed = true;
      child.stdin.write(options.type.text);
    }
  });
  if (!options.type) child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(code, output).toBe(options.code ?? 0);
  return output;
}

const cliLine = (args: string): string => `${quote(process.execPath)} ${quote(BIN)} ${args}`;

describe.skipIf(!hasScript)('on a terminal', () => {
  it('tables are coloured (bold headers); NO_COLOR and --no-color turn it off', async () => {
    expect(await onTerminal(cliLine('items list --limit 2'))).toContain('\u001b[1mID');
    expect(await onTerminal(cliLine('items list --limit 2'), { env: { NO_COLOR: '1' } })).not.toContain('\u001b[1m');
    expect(await onTerminal(cliLine('items list --limit 2 --no-color'))).not.toContain('\u001b[1m');
  });

  it('--all shows progress on stderr only; stdout redirected to a file stays clean', async () => {
    const dir = tempDir('out');
    const file = join(dir, 'items.csv');
    const screen = await onTerminal(`${cliLine('items list --all --limit 10 --output csv')} > ${quote(file)}`);
    expect(screen).toMatch(/Fetching items… page 6, \d+ items/);
    const csv = readFileSync(file, 'utf8');
    expect(csv).not.toContain('\u001b');
    expect(csv).not.toContain('Fetching');
    expect(csv.split('\r\n').filter(Boolean).length).toBeGreaterThan(50);
  });

  it('items import draws a progress bar on stderr (rows, items/s), cleared before the summary', async () => {
    const dir = tempDir('tty-import');
    const file = join(dir, 'items.csv');
    const prefix = `TTY-${randomUUID().slice(0, 8)}`;
    writeFileSync(file, `sku,title\n${Array.from({ length: 300 }, (_, i) => `${prefix}-${i},Bar`).join('\n')}\n`);
    // A dry run: the bar is the same, and the demo organization the other files read stays as it is.
    const screen = await onTerminal(cliLine(`items import ${quote(file)} --dry-run`));
    expect(screen).toContain(`Importing ${'░'.repeat(24)} 0/300 rows 0%`);
    expect(screen).toMatch(new RegExp(`Importing ${'█'.repeat(24)} 300/300 rows 100% {2}[\\d,]+ items/s`));
    // The summary starts on a clean line: the bar was erased first.
    expect(screen).toContain('\r\u001b[KDry run of items.csv (--mode create), nothing written: 300 would be created');
  });

  it('a page with more to come says how to get the rest (on stderr), as a table or CSV', async () => {
    const dir = tempDir('out');
    const file = join(dir, 'items.txt');
    const screen = await onTerminal(`${cliLine('items list --limit 5')} > ${quote(file)}`);
    expect(screen).toContain('Showing items 1–5; more: --page 2 --limit 5 or --all.');
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(6);
    // CSV: the footer on a terminal's stderr, never in the file.
    const csvFile = join(dir, 'items.csv');
    const csvScreen = await onTerminal(`${cliLine('items list --limit 5 --output csv')} > ${quote(csvFile)}`);
    expect(csvScreen).toContain('Showing items 1–5; more: --page 2 --limit 5 or --all.');
    expect(readFileSync(csvFile, 'utf8')).not.toContain('Showing');
  });

  it('login prompts for the key and does not echo it', async () => {
    const dir = tempDir('tty-cfg');
    const screen = await onTerminal(cliLine(`login --base-url ${quote(baseUrl)}`), {
      env: { COINVENTORY_CONFIG_DIR: dir, COINVENTORY_API_KEY: '' },
      type: { after: 'API key: ', text: `${keys.terminal}\r` },
    });
    expect(screen).toContain('API key: ');
    expect(screen).toContain('Logged in to Liberty Coin & Bullion (liberty-coin) as key cli terminal tests');
    expect(screen).not.toContain(keys.terminal);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.apiKey).toBe(keys.terminal);
  });

  it('delete asks for confirmation; anything but y keeps the item (exit 1)', async () => {
    const sdk = new Coinventory({ apiKey: keys.terminal, baseUrl, maxRetries: 0 });
    const item = await sdk.items.create({ sku: `TTY-${randomUUID().slice(0, 8)}`, title: 'Confirm me' });
    const kept = await onTerminal(cliLine(`items delete ${item.id}`), {
      type: { after: '[y/N] ', text: 'n\r' },
      code: 1,
    });
    expect(kept).toContain('Not deleted.');
    expect((await sdk.items.get(item.id)).id).toBe(item.id);
    const deleted = await onTerminal(cliLine(`items delete ${item.id}`), { type: { after: '[y/N] ', text: 'y\r' } });
    expect(deleted).toContain(`Deleted item ${item.id}`);
  });
});
