import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Change, Item } from '@coinventory/sdk';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type CliResult, tempDir } from './support/cli.js';
import { withKey } from './support/demo.js';
import { runOperatorCommand } from './support/server.js';

// `changes` and `changes cursor` against the real feed: a cursor taken first, then changes this file makes (an item
// created, updated and deleted), then what the CLI prints after that cursor, compared with what the API answers.

const { run, sdk } = withKey(inject('server').keys.changes);

/** The changes a run printed as NDJSON, each line parsed. */
const ndjson = (result: CliResult): Change[] => {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  return result.stdout
    .slice(0, -1)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Change);
};

/** The line a run ends with on stderr: where to resume. */
const resume = (cursor: string, more = ''): string => `Resume with: coinventory changes --after ${cursor}${more}\n`;

/** A time as the table prints it, in the test's TZ=UTC: `2026-11-24 18:40:12`. */
const tableTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

let start: string;
let created: Item;
let updated: Item;
let end: string;

beforeAll(async () => {
  start = (await sdk.changes.cursor()).cursor;
  const sku = `CHG-${randomUUID().slice(0, 8)}`;
  created = await sdk.items.create({ sku, title: 'Watched coin', quantity: 1 });
  updated = await sdk.items.update(created.id, { quantity: 4, title: 'Watched coin, recounted' });
  await sdk.items.delete(created.id);
  end = (await sdk.changes.cursor()).cursor;
});

describe('changes cursor', () => {
  it("prints the feed's end: plain for $(…), or as JSON", async () => {
    expect(await run(['changes', 'cursor'])).toEqual({ code: 0, stdout: `${end}\n`, stderr: '' });
    const asJson = await run(['changes', 'cursor', '--json']);
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual({ cursor: end });
  });
});

describe('changes after a cursor', () => {
  it('--json prints exactly the changes made, one API object per line, and where to resume', async () => {
    const result = await run(['changes', '--after', start, '--json']);
    const changes = ndjson(result);
    expect(changes).toEqual((await sdk.changes.list({ after: start })).items);
    expect(changes.map(({ type, objectId, data }) => ({ type, objectId, data }))).toEqual([
      { type: 'item.created', objectId: created.id, data: created },
      { type: 'item.updated', objectId: created.id, data: updated },
      { type: 'item.deleted', objectId: created.id, data: null },
    ]);
    expect(result.stderr).toBe(resume(end));
    // Page by page (one change per request), the same changes and the same end.
    expect(await run(['changes', 'list', '--after', start, '--limit', '1', '--json'])).toEqual(result);
  });

  it('a table: one line per change, with the SKU and title as REF and DESCRIPTION (the deleted item as seen before)', async () => {
    const changes = (await sdk.changes.list({ after: start })).items;
    const { code, stdout, stderr } = await run(['changes', '--after', start]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: resume(end) });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^TIME {17}TYPE {10}OBJECT {32}REF {19}DESCRIPTION$/);
    const titles = [created.title, updated.title, updated.title];
    expect(lines.slice(1)).toEqual([
      ...changes.map((change, i) =>
        [tableTime(change.occurredAt), change.type, change.objectId, created.sku.padEnd(20), titles[i]].join('  '),
      ),
      '',
    ]);
  });

  it('--types: only those changes; the cursor goes past the others, and the resume line keeps the filter', async () => {
    const result = await run(['changes', '--after', start, '--types', 'item.deleted', '--json']);
    expect(ndjson(result).map((change) => change.type)).toEqual(['item.deleted']);
    expect(result.stderr).toBe(resume(end, ' --types item.deleted'));
    const both = await run([
      'changes',
      '--after',
      start,
      '--types',
      'item.created',
      '--types',
      'item.updated',
      '--json',
    ]);
    expect(ndjson(both).map((change) => change.type)).toEqual(['item.created', 'item.updated']);
  });

  it('at the end of the feed: nothing printed, the same cursor back; --after now starts there', async () => {
    expect(await run(['changes', '--after', end])).toEqual({
      code: 0,
      stdout: '',
      stderr: `No changes found.\n${resume(end)}`,
    });
    expect(await run(['changes', '--after', 'now', '--json'])).toEqual({ code: 0, stdout: '', stderr: resume(end) });
  });

  it('--cursor-file: starts from the file, saves the end there, and the next run prints nothing new', async () => {
    const file = join(tempDir('cursor'), 'sync.cursor');
    writeFileSync(file, `${start}\n`);
    const first = await run(['changes', '--cursor-file', file, '--json']);
    expect(ndjson(first)).toHaveLength(3);
    expect(first.stderr).toBe(`Resume with: coinventory changes --cursor-file ${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(`${end}\n`);
    expect(await run(['changes', '--cursor-file', file, '--json'])).toEqual({ ...first, stdout: '' });
    expect(readFileSync(file, 'utf8')).toBe(`${end}\n`);
  });

  it('a cursor the feed does not know is refused with the reason (exit 2)', async () => {
    const result = await run(['changes', '--after', 'not-a-cursor']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^Error: .*\(BAD_REQUEST, HTTP 400\)\n {2}- query\.after: not a cursor of this changes feed; start again from a full read/,
    );
    // A refused cursor is no place to resume from: no resume line.
    expect(result.stderr).not.toContain('Resume with');
  });
});

describe("changes beyond items: the valuation engine's, and the records an operator imports", () => {
  // In an organization of its own, so that what the imports and the engine add (consignments, invoices, sales) is seen by
  // no other test file, which read the demo organization.
  const server = inject('server');
  const slug = 'cli-change-types';
  const samples = fileURLToPath(new URL('../../server/samples/imports/', import.meta.url));
  let own: ReturnType<typeof withKey>;

  /** Runs an operator command (`coinventory-server …`), as the organization's operator would; its stdout. */
  const operator = async (...args: string[]) => {
    const result = await runOperatorCommand(server, args);
    expect(result.code, `${args.join(' ')}:\n${result.stdout}${result.stderr}`).toBe(0);
    return result.stdout;
  };
  /** A table line as `changes` prints it, the TYPE column `typeWidth` wide (its widest type on the first page). */
  const line = (typeWidth: number) => (change: Change | undefined, ref: string, description: string) =>
    change
      ? [tableTime(change.occurredAt), change.type.padEnd(typeWidth), change.objectId, ref.padEnd(20), description]
          .join('  ')
          .trimEnd()
      : expect.fail('a change is missing');
  /** The table a run printed: its header, and its lines. */
  const table = (result: CliResult) => {
    expect(result.code, result.stderr).toBe(0);
    const [header, ...lines] = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    return { header, lines };
  };

  beforeAll(async () => {
    const owner = `owner@${slug}.example`;
    await operator('org', 'create', '--name', 'CLI change types', '--slug', slug, '--plan', 'business');
    await operator('user', 'create', '--email', owner);
    await operator('member', 'add', '--org', slug, '--user', owner, '--role', 'owner');
    const create = ['key', 'create', '--org', slug, '--creator', owner, '--name', 'cli changes', '--scopes'];
    own = withKey((JSON.parse(await operator(...create, 'read,write', '--json')) as { key: string }).key);
  });

  it("a valuation: the valued item's SKU when the run saw the item, and the summary; --json as the API sent it", async () => {
    const { run, sdk } = own;
    const before = (await sdk.changes.cursor()).cursor;
    const coin = `CLI Feed Dollar ${randomUUID().slice(0, 8)}`;
    const item = await sdk.items.create({
      sku: `VAL-${randomUUID().slice(0, 8)}`,
      title: `${coin} PCGS MS64`,
      gradingService: 'PCGS',
      grade: 'MS64',
      attributes: { coin },
    });
    const afterCreate = (await sdk.changes.cursor()).cursor;
    // Three recent comparable sales of its coin, the engine's minimum: importing them values the item (not applied,
    // as the organization's policy is), and valuate --apply values it again and makes the estimate its value.
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    const file = join(tempDir('sales'), 'sales.csv');
    const prices = [30_000, 31_000, 32_000];
    writeFileSync(
      file,
      `source,externalId,coin,gradingService,grade,priceInCents,soldAt\n${prices
        .map((price, i) => `cli_test,${coin}-${i},${coin},PCGS,MS64,${price},${daysAgo(i + 1)}\n`)
        .join('')}`,
    );
    await operator('import', 'sales', file, '--org', slug);
    await operator('valuate', '--org', slug, '--item', item.sku, '--apply');
    const end = (await sdk.changes.cursor()).cursor;
    const changes = (await sdk.changes.list({ after: before })).items;
    const [imported, applied] = (await sdk.items.valuations(item.id)).items.reverse();
    const valued = await sdk.items.get(item.id);
    expect(changes.map(({ type, objectId, data }) => ({ type, objectId, data }))).toEqual([
      { type: 'item.created', objectId: item.id, data: item },
      { type: 'valuation.created', objectId: imported?.id, data: imported },
      { type: 'valuation.created', objectId: applied?.id, data: applied },
      { type: 'item.updated', objectId: item.id, data: valued },
    ]);
    const first = imported?.summary ?? expect.fail('no summary');
    const second = applied?.summary ?? expect.fail('no summary');
    expect(second).toMatch(/^Median of 3 comparable PCGS MS64 sales: \$310\.00, range /);

    // --json: exactly what the API sent, one per line.
    const json = await run(['changes', '--after', before, '--json']);
    expect(ndjson(json)).toEqual(changes);
    expect(json.stderr).toBe(resume(end));

    // The table: the item's SKU on its valuations, as this run saw the item created first.
    const all = await run(['changes', '--after', before]);
    expect(all.stderr).toBe(resume(end));
    const { header, lines } = table(all);
    expect(header).toMatch(/^TIME {17}TYPE {15}OBJECT {32}REF {19}DESCRIPTION$/);
    const row = line('valuation.created'.length);
    expect(lines).toEqual([
      row(changes[0], item.sku, item.title),
      row(changes[1], item.sku, first),
      row(changes[2], item.sku, second),
      row(changes[3], item.sku, item.title),
    ]);

    // From after the item was created, its valuations come before anything names its SKU: none to show.
    const later = await run(['changes', '--after', afterCreate, '--types', 'valuation.created']);
    expect(table(later).lines).toEqual([row(changes[1], '-', first), row(changes[2], '-', second)]);
    expect(later.stderr).toBe(resume(end, ' --types valuation.created'));
  });

  it('consignments and invoices: their number and name, their number and customer; --json as the API sent them', async () => {
    const { run, sdk } = own;
    const before = (await sdk.changes.cursor()).cursor;
    // The import samples, as a dealer's records come (consignors and customers first: they report no change), then
    // a consignment renamed and an invoice's payments, which change what was imported.
    for (const [kind, file] of [
      ['consignors', 'consignors.csv'],
      ['consignments', 'consignments.csv'],
      ['customers', 'customers.csv'],
      ['invoices', 'invoices.csv'],
      ['invoice-payments', 'invoice-payments.ndjson'],
    ]) {
      await operator('import', String(kind), join(samples, String(file)), '--org', slug);
    }
    const renamed = join(tempDir('consignments'), 'consignments.csv');
    writeFileSync(renamed, 'number,name,status\nC-2026-103,Collector 442 walk-in,intake\n');
    await operator('import', 'consignments', renamed, '--org', slug);
    const end = (await sdk.changes.cursor()).cursor;
    const changes = (await sdk.changes.list({ after: before })).items;
    // One change per record (the order within one import is the importer's), each import's after the one before.
    const named = changes.map(
      (change) => `${change.type} ${change.data && 'number' in change.data ? change.data.number : ''}`,
    );
    expect(named.slice(0, 3).sort()).toEqual(
      ['C-2026-101', 'C-2026-102', 'C-2026-103'].map((n) => `consignment.created ${n}`),
    );
    expect(named.slice(3, 6).sort()).toEqual(['5001', '5002', '5003'].map((n) => `invoice.created ${n}`));
    expect(named.slice(6, 8).sort()).toEqual(['5001', '5002'].map((n) => `invoice.updated ${n}`));
    expect(named.slice(8)).toEqual(['consignment.updated C-2026-103']);
    // The last change of each, with the object as its GET returns it now.
    for (const change of new Map(changes.map((c) => [c.objectId, c])).values()) {
      const now = change.type.startsWith('consignment.')
        ? await sdk.consignments.get(change.objectId)
        : await sdk.invoices.get(change.objectId);
      expect(change.data).toEqual(now);
    }

    const json = await run(['changes', '--after', before, '--json']);
    expect(ndjson(json)).toEqual(changes);
    expect(json.stderr).toBe(resume(end));

    const printed = await run(['changes', '--after', before]);
    expect(printed.stderr).toBe(resume(end));
    const { header, lines } = table(printed);
    expect(header).toMatch(/^TIME {17}TYPE {17}OBJECT {32}REF {19}DESCRIPTION$/);
    const row = line('consignment.created'.length);
    // The samples' numbers, names and customers: a consignment without a name shows none, an invoice the name it
    // was issued to.
    const shown: Record<string, [string, string]> = {
      'consignment.created C-2026-101': ['C-2026-101', 'Ellison Morgan collection'],
      'consignment.created C-2026-102': ['C-2026-102', 'Brandt estate gold'],
      'consignment.created C-2026-103': ['C-2026-103', '-'],
      'invoice.created 5001': ['5001', 'Harold Jennings'],
      'invoice.created 5002': ['5002', 'Coastal Bullion Exchange LLC'],
      'invoice.created 5003': ['5003', 'Walk-in customer'],
      'invoice.updated 5001': ['5001', 'Harold Jennings'],
      'invoice.updated 5002': ['5002', 'Coastal Bullion Exchange LLC'],
      'consignment.updated C-2026-103': ['C-2026-103', 'Collector 442 walk-in'],
    };
    expect(lines).toEqual(
      changes.map((change, i) => {
        const [ref, description] = shown[named[i] ?? ''] ?? expect.fail(`not expected: ${named[i]}`);
        return row(change, ref, description);
      }),
    );
  });
});
