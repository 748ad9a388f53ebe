import { randomUUID } from 'node:crypto';
import { CHANGE_TYPES } from '@coinventory/contract/constants';
import { describe, expect, it } from 'vitest';
import { cli } from './support/cli.js';

// Usage errors (exit 2): every option is checked, with the contract's rules, before any request is sent.

describe('bad input is refused before any request (exit 2)', () => {
  // Pointed at a closed port: had a request been sent, the exit code would be 8.
  const offline = { COINVENTORY_BASE_URL: 'http://127.0.0.1:9/v1' };
  const refused = async (args: readonly string[], reason: string | RegExp) => {
    const result = await cli(args, { env: { ...offline, COINVENTORY_API_KEY: 'cvk_live_unused' } });
    expect(result.code, args.join(' ')).toBe(2);
    expect(result.stdout).toBe('');
    if (typeof reason === 'string') expect(result.stderr).toContain(reason);
    else expect(result.stderr).toMatch(reason);
  };
  const id = randomUUID();

  it('unknown enum values list the allowed ones', async () => {
    await refused(
      ['items', 'list', '--status', 'lost'],
      "error: option '--status <status>' argument 'lost' is invalid. Allowed choices are in_stock, out_of_stock, sold, at_auction.",
    );
    await refused(
      ['items', 'list', '--sort', 'price'],
      'Allowed choices are newest, oldest, title, value_desc, value_asc, sku',
    );
    await refused(['consignments', 'list', '--status', 'open'], 'Allowed choices are intake, cataloging');
    await refused(['invoices', 'list', '--sort', 'value_desc'], 'Allowed choices are newest, oldest');
    await refused(['items', 'list', '-o', 'xml'], 'Allowed choices are table, json, csv');
    await refused(['items', 'update', id, '--clear', 'title'], 'Allowed values are description, acquisition-price');
  });

  it('items import and export: the file, its format and the options', async () => {
    await refused(
      ['items', 'import', 'items.txt'],
      'Cannot tell the format of items.txt from its name: pass --format csv or --format ndjson.',
    );
    await refused(['items', 'import', '-'], 'items import reads a file, not stdin');
    await refused(['items', 'import', `missing-${id}.csv`], `No such file: missing-${id}.csv`);
    await refused(['items', 'import', 'items.csv', '--mode', 'merge'], 'Allowed choices are create, upsert.');
    await refused(['items', 'import', 'items.csv', '--format', 'xlsx'], 'Allowed choices are csv, ndjson.');
    await refused(
      ['items', 'import', 'items.csv', '--dry-run', '--restart'],
      "error: option '--restart' cannot be used with option '--dry-run'",
    );
    await refused(['items', 'export', '--format', 'xml'], 'Allowed choices are ndjson, csv.');
    await refused(
      ['items', 'export', '--status', 'lost'],
      'Allowed choices are in_stock, out_of_stock, sold, at_auction.',
    );
    await refused(['items', 'export', '--category-id', '123'], 'Must be a UUID');
  });

  it('bounds from the contract', async () => {
    await refused(['items', 'list', '--limit', '101'], 'Must be a whole number from 1 to 100');
    await refused(['items', 'list', '--limit', '0'], 'Must be a whole number from 1 to 100');
    await refused(['items', 'list', '--page', '1.5'], 'Must be a whole number');
    await refused(['items', 'valuations', id, '--limit', '51'], 'from 1 to 50');
    await refused(['items', 'list', '-q', 'x'.repeat(201)], 'Must be at most 200 characters');
    await refused(['items', 'create', '--sku', 'S', '--title', 't'.repeat(301)], 'Must be at most 300 characters');
    await refused(['items', 'create', '--sku', '', '--title', 'T'], 'Must be at least 1 character');
    await refused(['items', 'create', '--sku', 'S', '--title', 'T', '--quantity', '-1'], 'Must be a whole number');
    await refused(
      ['items', 'create', '--sku', 'S', '--title', 'T', '--quantity', '2147483648'],
      'from 0 to 2,147,483,647',
    );
    // Not a UUID, so a SKU: within the SKU's bounds.
    await refused(['items', 'get', 'S'.repeat(101)], 'Must be at most 100 characters (got 101)');
    await refused(['items', 'update', '', '--quantity', '1'], 'Must be at least 1 character');
    await refused(['categories', 'get', 'not-a-uuid'], 'Must be a UUID');
    await refused(['items', 'list', '--category-id', '123'], 'Must be a UUID');
    await refused(
      ['items', 'create', '--sku', 'S', '--title', 'T', '--acquisition-date', '2026-02-30'],
      'not a real date',
    );
    await refused(
      ['items', 'create', '--sku', 'S', '--title', 'T', '--acquisition-date', '2026-03-01T10:00:00'],
      'with Z or an offset',
    );
  });

  it('changes: types, bounds and a cursor from one place only', async () => {
    await refused(
      ['changes', '--types', 'item.created,item.moved'],
      `"item.moved" is not a change type. Allowed: ${CHANGE_TYPES.join(', ')} (comma-separated).`,
    );
    await refused(['changes', 'list', '--limit', '101'], 'Must be a whole number from 1 to 100');
    await refused(['changes', '--follow', '--interval', '0'], 'Must be a whole number from 1 to 3,600');
    await refused(['changes', '--after', 'x'.repeat(201)], 'Must be at most 200 characters');
    await refused(
      ['changes', '--after', 'now', '--cursor-file', 'sync.cursor'],
      "option '--after <cursor>' cannot be used with option '--cursor-file <file>'",
    );
    await refused(['changes', '--output', 'csv'], 'Allowed choices are table, json');
    await refused(['changes', 'cursor', '--follow'], "unknown option '--follow'");
  });

  it('money: dollars with at most 2 decimals, or whole cents, not both', async () => {
    await refused(['items', 'create', '--sku', 'S', '--title', 'T', '--value', '12.345'], 'at most 2 decimals');
    await refused(['items', 'create', '--sku', 'S', '--title', 'T', '--value', '1,250'], 'no commas');
    await refused(['items', 'create', '--sku', 'S', '--title', 'T', '--value', '-5'], "argument '-5' is invalid");
    await refused(['items', 'create', '--sku', 'S', '--title', 'T', '--value-cents', '12.5'], 'whole number of cents');
    await refused(
      ['items', 'create', '--sku', 'S', '--title', 'T', '--value', '1', '--value-cents', '100'],
      "option '--value <dollars>' cannot be used with option '--value-cents <cents>'",
    );
    await refused(
      ['items', 'update', id, '--acquisition-price', '1', '--acquisition-price-cents', '100'],
      'cannot be used with',
    );
    await refused(['items', 'update', id, '--value', '9007199254740992'], 'at most 9007199254740991 cents');
  });

  it('unknown options, commands and arguments; missing required options; nonsense combinations', async () => {
    await refused(['items', 'list', '--colour', 'red'], "error: unknown option '--colour'");
    await refused(['items', 'lst'], "error: unknown command 'lst'");
    await refused(['items', 'get', id, 'extra'], 'too many arguments');
    await refused(['items', 'create', '--title', 'T'], "error: required option '--sku <sku>' not specified");
    await refused(['items', 'update', id], 'Nothing to update');
    await refused(
      ['items', 'update', id, '--grade', 'MS65', '--clear', 'grade'],
      '--clear grade cannot be used with --grade',
    );
    await refused(['items', 'list', '--json', '--output', 'csv'], '--json cannot be used with --output csv');
    await refused(['me', '--output', 'csv'], 'Allowed choices are table, json');
    await refused(['items', 'create', '--sku', 'S', '--title', 'T', '--attr', 'year'], 'Must be key=value');
    await refused(
      ['items', 'create', '--sku', 'S', '--title', 'T', '--attr', 'a=1', '--attr', 'a=2'],
      'a is given twice',
    );
    await refused(
      ['items', 'create', '--sku', 'S', '--title', 'T', '--attributes-json', '[1]'],
      'Must be a JSON object',
    );
    await refused(['items', 'create', '--sku', 'S', '--title', 'T', '--attr', 'x:={"a":1}'], 'not an object or array');
    await refused(['items', 'delete', id], 'pass --yes');
    await refused(['items', 'delete', 'SOME-SKU'], 'pass --yes');
    await refused(['--base-url', 'ftp://example.com', 'me'], 'only http and https');
  });
});
