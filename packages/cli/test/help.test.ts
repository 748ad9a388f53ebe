import { CHANGE_TYPES, DEFAULT_BASE_URL, ITEM_STATUSES, WEBHOOKS } from '@coinventory/contract/constants';
import { describe, expect, it } from 'vitest';
import { cli } from './support/cli.js';

// The program's help, every command's help and the version: no server needed.

describe('help and version', () => {
  it('--help lists every command, the exit codes and the environment', async () => {
    const { code, stdout, stderr } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const command of [
      'me',
      'items',
      'reservations',
      'categories',
      'warehouses',
      'consignments',
      'invoices',
      'changes',
      'webhooks',
      'listen',
      'login',
      'logout',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(stdout).toContain('Exit codes:');
    for (const line of [
      '2   usage',
      '3   authentication',
      '4   not found',
      '5   conflict',
      '6   rate limited',
      '7   server error',
      '8   network',
    ]) {
      expect(stdout).toContain(line);
    }
    expect(stdout).toContain('COINVENTORY_API_KEY');
  });

  it('every command has help with examples', async () => {
    const commands = [
      ['me'],
      ['items', 'list'],
      ['items', 'get'],
      ['items', 'create'],
      ['items', 'update'],
      ['items', 'delete'],
      ['items', 'valuations'],
      ['items', 'adjust'],
      ['items', 'movements'],
      ['items', 'import'],
      ['items', 'export'],
      ['reservations', 'list'],
      ['reservations', 'get'],
      ['reservations', 'create'],
      ['reservations', 'commit'],
      ['reservations', 'release'],
      ['consignments', 'list'],
      ['consignments', 'get'],
      ['invoices', 'list'],
      ['invoices', 'get'],
      ['categories', 'list'],
      ['categories', 'get'],
      ['warehouses', 'list'],
      ['warehouses', 'get'],
      ['changes'],
      ['changes', 'list'],
      ['changes', 'cursor'],
      ['webhooks', 'list'],
      ['webhooks', 'get'],
      ['webhooks', 'create'],
      ['webhooks', 'update'],
      ['webhooks', 'delete'],
      ['webhooks', 'rotate-secret'],
      ['webhooks', 'deliveries'],
      ['webhooks', 'replay'],
      ['webhooks', 'test'],
      ['listen'],
      ['login'],
      ['logout'],
    ];
    const results = await Promise.all(commands.map((command) => cli([...command, '--help'])));
    results.forEach((result, i) => {
      expect(result.code, commands[i]?.join(' ')).toBe(0);
      expect(result.stdout).toContain('Examples:');
      expect(result.stdout).toContain(`$ coinventory ${commands[i]?.join(' ')}`);
      expect(result.stdout).toContain('Global Options:');
    });
    const list = results[1]?.stdout ?? '';
    for (const status of ITEM_STATUSES) expect(list).toContain(status);
    expect(list).toContain('value_desc');
  });

  it('changes: the group runs its list; the list says how to resume and what each format prints', async () => {
    const group = await cli(['changes', '--help']);
    expect(group.stdout).toContain("'coinventory changes [options]' runs 'coinventory changes list [options]'");
    expect(group.stdout).toMatch(/^ {2}list\|ls \[options\] /m);
    expect(group.stdout).toMatch(/^ {2}cursor \[options\] /m);
    const list = (await cli(['changes', 'list', '--help'])).stdout;
    for (const text of [
      'Resume with: coinventory changes --after <cursor>',
      'NDJSON',
      '--cursor-file',
      'SIGTERM',
      'REF and DESCRIPTION',
    ]) {
      expect(list).toContain(text);
    }
    for (const type of CHANGE_TYPES) expect(list).toContain(type);
  });

  it('listen says what it sends, with which headers, and how to stop it', async () => {
    const { stdout } = await cli(['listen', '--help']);
    for (const text of [...Object.values(WEBHOOKS.headers), '--forward-to', '--secret', 'verifyWebhook', 'Ctrl-C']) {
      expect(stdout).toContain(text);
    }
    for (const type of CHANGE_TYPES) expect(stdout).toContain(type);
  });

  it("listen's examples, here and in the program's help, forward to a receiver, never to the API's own port", async () => {
    const apiOrigin = new URL(DEFAULT_BASE_URL).origin;
    for (const args of [['listen', '--help'], ['--help']]) {
      const { stdout } = await cli(args);
      const targets = [...stdout.matchAll(/--forward-to (https?:\/\/\S+)/g)].map((match) => match[1] ?? '');
      expect(targets.length, args.join(' ')).toBeGreaterThan(0);
      for (const target of targets) expect(new URL(target).origin, args.join(' ')).not.toBe(apiOrigin);
    }
  });

  it('webhooks lists every change type an endpoint takes, and what * means', async () => {
    const { stdout } = await cli(['webhooks', '--help']);
    for (const type of CHANGE_TYPES) expect(stdout).toContain(type);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      `${CHANGE_TYPES.at(-1)}; or ${WEBHOOKS.allEvents} (the default for create) for every type, types added to the API later included.`,
    );
  });

  it('items import says what it reads, how it resumes, paces itself and reports; export what it writes', async () => {
    const { stdout } = await cli(['items', 'import', '--help']);
    expect(stdout).toMatch(/^Usage: coinventory items import \[options\] <file>$/m);
    for (const text of [
      '--mode <mode>',
      '--dry-run',
      '--restart',
      'grading.service',
      'gradingService',
      'FILE.rejects.csv',
      'FILE.import-state.json',
      'Idempotency-Key',
      'RateLimit',
      '429',
      '9 some rows refused',
    ]) {
      expect(stdout).toContain(text);
    }
    const exported = (await cli(['items', 'export', '--help'])).stdout;
    for (const text of [
      '--format <format>',
      '--cursor-file <file>',
      '-q, --query <text>',
      '--status <status>',
      'nextCursor',
    ]) {
      expect(exported).toContain(text);
    }
  });

  it('items take an id or a SKU', async () => {
    for (const command of ['get', 'update', 'delete', 'valuations']) {
      const { stdout } = await cli(['items', command, '--help']);
      expect(stdout, command).toMatch(
        new RegExp(`^Usage: coinventory items ${command}(\\|\\w+)? \\[options\\] <id\\|sku>$`, 'm'),
      );
    }
  });

  it('--version prints the version', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: '1.0.0\n', stderr: '' });
  });
});
