import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateItemInput, Item } from '@coinventory/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { parseCsv } from './support/csv.js';
import { withKey } from './support/demo.js';

// `items import` against the shared server's demo organization, with this file's own key: exports of items made here
// import back unchanged (CSV and NDJSON, create and upsert), a file with bad rows imports the others and lists the
// bad ones with their reasons, a bad header stops before any request, a dry run writes nothing. Every item made here
// has the run's prefix, and is deleted at the end. (The 10,000-row import killed half-way is in
// items-import-resume.test.ts, in an organization of its own.)

const { keys } = inject('server');
const { run, sdk } = withKey(keys.importer);
const PREFIX = `IMP-${randomUUID().slice(0, 8)}`;

/** Every item whose SKU has this run's prefix (and `more`), by SKU. */
async function itemsNamed(more = ''): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of sdk.items.export({ q: `${PREFIX}${more}` })) items.push(item);
  return items.sort((a, b) => a.sku.localeCompare(b.sku));
}

/** What an import sets: everything but the id and timestamps, which the server gives. */
const written = ({ id: _id, createdAt: _created, updatedAt: _updated, ...rest }: Item) => rest;

async function deleteAll(items: readonly Item[]): Promise<void> {
  for (const item of items) await sdk.items.delete(item.id);
}

/** Items with every kind of value a CSV must carry through: quotes, commas, line breaks, nulls, JSON, big numbers. */
async function makeItems(tag: string): Promise<Item[]> {
  const [category] = (await sdk.categories.list()).items;
  const warehouse = (await sdk.warehouses.list()).items.find((w) => !w.isDefault && w.zones.length > 1);
  if (!category || !warehouse) throw new Error('the demo organization has a category and a second warehouse');
  const sku = (name: string) => `${PREFIX}${tag}-${name}`;
  const items: CreateItemInput[] = [
    {
      sku: sku('FULL'),
      title: 'Full, "quoted" title',
      description: ' starts with a space, has a comma,\r\nand a line break ',
      categoryId: category.id,
      quantity: 7,
      valueInCents: 123_456,
      acquisitionPriceInCents: 99_000,
      acquisitionDate: '2025-03-01T12:30:00.000Z',
      acquiredFrom: 'Estate of J. Doe',
      acquisitionNotes: 'Notes; with "quotes"',
      gradingService: 'PCGS',
      grade: 'MS65',
      certificateNumber: '007',
      gradingNotes: 'CAC',
      attributes: { year: 1921, mint: 'Philadelphia', proof: false, pedigree: null, note: 'a,b "c"', weight: 26.73 },
      warehouseId: warehouse.id,
      zoneId: warehouse.zones[1]?.id as string,
      locationDetails: 'Tray 4, slot 2',
    },
    { sku: sku('MIN'), title: 'Only a SKU and a title' },
    {
      sku: sku('UNI'),
      title: 'Ünïcödé 𝔘 — €',
      description: '🪙',
      quantity: 0,
      valueInCents: Number.MAX_SAFE_INTEGER,
      acquisitionPriceInCents: 0,
      attributes: { year: '1921', empty: '' },
    },
  ];
  const result = await sdk.items.batch({ mode: 'create', items });
  expect(result.failed).toBe(0);
  return itemsNamed(tag);
}

let dir: string;
beforeAll(() => {
  dir = tempDir('import');
});

afterAll(async () => {
  await deleteAll(await itemsNamed());
});

describe('an export imports back unchanged', () => {
  it.each(['csv', 'ndjson'] as const)(
    '--format %s: exported, deleted, imported (create): the same items',
    async (format) => {
      const tag = `-RT${format.toUpperCase()}`;
      const before = await makeItems(tag);
      const exported = await run(['items', 'export', '--format', format, '-q', `${PREFIX}${tag}`]);
      expect(exported.code).toBe(0);
      const file = join(dir, `round-trip.${format}`);
      writeFileSync(file, exported.stdout);
      await deleteAll(before);
      expect(await itemsNamed(tag)).toEqual([]);

      const result = await run(['items', 'import', file]);
      expect(result.stderr).toMatch(
        new RegExp(
          `^Imported round-trip\\.${format} \\(--mode create\\) in (?:\\d+ min )?[\\d.]+ s: 3 created, 0 updated, 0 refused, of 3 rows\\.$`,
          'm',
        ),
      );
      expect(result.stderr).toContain('Rate limit: 0 requests refused (429), 0 pauses to stay under it.');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      const after = await itemsNamed(tag);
      expect(after.map(written)).toEqual(before.map(written));
      // Nothing left beside the input: the state file is removed at the end, and nothing was refused.
      expect(
        readdirSync(dir).filter(
          (name) => name.startsWith('round-trip') && !name.endsWith('.csv') === (format === 'ndjson'),
        ),
      ).toEqual([`round-trip.${format}`]);
    },
  );

  it('re-imported with --mode upsert, an export changes no field', async () => {
    const tag = '-UPS';
    const before = await makeItems(tag);
    const file = join(dir, 'upsert.csv');
    writeFileSync(file, (await run(['items', 'export', '--format', 'csv', '-q', `${PREFIX}${tag}`])).stdout);
    const result = await run(['items', 'import', file, '--mode', 'upsert', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      file,
      format: 'csv',
      mode: 'upsert',
      dryRun: false,
      complete: true,
      rows: 3,
      created: 0,
      updated: 3,
      refused: 0,
      rejectsFile: null,
      rateLimited: 0,
    });
    const after = await itemsNamed(tag);
    // The same items (ids too), every field as it was; only updatedAt moved.
    expect(after.map(({ updatedAt: _, ...rest }) => rest)).toEqual(before.map(({ updatedAt: _, ...rest }) => rest));
  });
});

describe('a file with rows the API refuses', () => {
  it('imports the others, lists each refused row with its row number and reason, and exits 9', async () => {
    const file = join(dir, 'mixed.csv');
    const sku = (n: number) => `${PREFIX}-MIX-${n}`;
    // A sheet made by hand: body field names (quantity) beside export columns (category.id).
    const rows = [
      ['sku', 'title', 'quantity', 'category.id', 'attributes'],
      [sku(1), 'Fine', '2', '', '{"year":1921}'],
      [sku(2), 'Bad quantity', 'lots', '', ''],
      [sku(1), 'Same SKU as row 2', '1', '', ''],
      [sku(3), 'Unknown category', '1', randomUUID(), ''],
      [sku(4), 'Bad JSON', '1', '', '{year:1921}'],
      [sku(5), 'Fine too, "quoted"', '', '', ''],
    ];
    const csv = (records: string[][]) =>
      records.map((r) => r.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',')).join('\r\n');
    writeFileSync(file, `${csv(rows)}\r\n`);

    const result = await run(['items', 'import', file]);
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(
      /^Imported mixed\.csv \(--mode create\) in (?:\d+ min )?[\d.]+ s: 2 created, 0 updated, 4 refused, of 6 rows\.$/m,
    );
    const rejects = join(dir, 'mixed.rejects.csv');
    expect(result.stderr).toContain(`4 refused rows are in ${rejects}, each with its row number and reason, e.g.`);
    expect(result.stderr).toContain(
      `  row 3 (SKU "${sku(2)}"): Invalid input data (BAD_REQUEST): quantity: Expected number, received string`,
    );
    const [header, ...refused] = parseCsv(readFileSync(rejects, 'utf8'));
    expect(header).toEqual(['rejected.row', 'rejected.reason', ...(rows[0] as string[])]);
    expect(refused).toEqual([
      ['3', 'Invalid input data (BAD_REQUEST): quantity: Expected number, received string', ...(rows[2] as string[])],
      ['4', 'An item with this SKU already exists in the workspace (CONFLICT)', ...(rows[3] as string[])],
      [
        '5',
        'Invalid input data (BAD_REQUEST): category.id: no category with this id in the organization',
        ...(rows[4] as string[]),
      ],
      ['6', expect.stringMatching(/^attributes: not valid JSON \(.+\)$/), ...(rows[5] as string[])],
    ]);
    const created = await itemsNamed('-MIX-');
    expect(created.map((i) => [i.sku, i.title, i.quantity.available, i.attributes])).toEqual([
      [sku(1), 'Fine', 2, { year: 1921 }],
      [sku(5), 'Fine too, "quoted"', 1, {}],
    ]);
    expect(existsSync(join(dir, 'mixed.import-state.json'))).toBe(false);

    // The rejects file, corrected, imports as it is: its two "rejected" columns are skipped.
    const fixed = parseCsv(readFileSync(rejects, 'utf8')).map((r) => [...r]);
    fixed[1]?.splice(4, 1, '3');
    fixed[2]?.splice(2, 1, sku(6));
    fixed[3]?.splice(5, 1, '');
    fixed[4]?.splice(6, 1, '{"year":1921}');
    const again = join(dir, 'fixed.csv');
    writeFileSync(again, `${csv(fixed)}\r\n`);
    const retried = await run(['items', 'import', again]);
    expect(retried.stderr).toMatch(/: 4 created, 0 updated, 0 refused, of 4 rows\.$/m);
    expect(retried.code).toBe(0);
    expect((await itemsNamed('-MIX-')).map((i) => i.sku)).toEqual([1, 2, 3, 4, 5, 6].map(sku));
  });

  it('NDJSON: a line that is not JSON, or not an item, is refused with its line number', async () => {
    const file = join(dir, 'lines.ndjson');
    const sku = `${PREFIX}-NDJ`;
    writeFileSync(
      file,
      [
        JSON.stringify({ sku, title: 'Flat body fields', gradingService: 'NGC' }),
        '',
        '{"sku": "broken"',
        JSON.stringify({ sku: `${sku}-2`, title: 'Unknown field', colour: 'red' }),
        JSON.stringify({ count: 1, nextCursor: 'x' }),
      ].join('\n'),
    );
    const result = await run(['items', 'import', file]);
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/: 1 created, 0 updated, 2 refused, of 3 rows\.$/m);
    const rejects = readFileSync(join(dir, 'lines.rejects.ndjson'), 'utf8').trimEnd().split('\n');
    expect(rejects.map((line) => JSON.parse(line))).toEqual([
      { rejected: { line: 3, reason: expect.stringMatching(/^Not valid JSON: /) }, text: '{"sku": "broken"' },
      {
        rejected: {
          line: 4,
          reason: `Unknown field "colour": a line is an Item as 'items export' writes it, or the fields of 'items create'.`,
        },
        sku: `${sku}-2`,
        title: 'Unknown field',
        colour: 'red',
      },
    ]);
    expect((await itemsNamed('-NDJ')).map((i) => [i.sku, i.grading.service])).toEqual([[sku, 'NGC']]);
  });
});

describe('a header the import cannot read stops it before any request (exit 2)', () => {
  // An API that is not there: any request would fail with exit 8 instead.
  const nowhere = { COINVENTORY_BASE_URL: 'http://127.0.0.1:1/v1' };

  it.each([
    ['sku,title,colour\nA,B,red\n', 'unknown column "colour" in the header. Nothing was imported.'],
    [
      'sku,title,grade,grading.grade\nA,B,C,D\n',
      'the columns "grade", "grading.grade" both set grade: keep one. Nothing was imported.',
    ],
    ['sku,sku,title\nA,A,B\n', 'the column "sku" appears twice in the header. Nothing was imported.'],
    ['title,quantity\nA,1\n', 'no "sku" column: each new item needs a SKU and a title. Nothing was imported.'],
  ])('%j', async (content, message) => {
    const file = join(dir, `header-${randomUUID().slice(0, 8)}.csv`);
    writeFileSync(file, content);
    const result = await run(['items', 'import', file], { env: nowhere });
    expect(result.stderr.split('\n')[0]).toBe(`Error: ${file}: ${message}`);
    expect(result.code).toBe(2);
    expect(existsSync(file.replace(/\.csv$/, '.import-state.json'))).toBe(false);
  });

  it('an unknown column lists the names accepted', async () => {
    const file = join(dir, 'header-help.csv');
    writeFileSync(file, 'sku,title,price\n');
    const { stderr } = await run(['items', 'import', file], { env: nowhere });
    expect(stderr).toContain('grading.service');
    expect(stderr).toContain('gradingService');
    expect(stderr).toContain('Read-only columns are skipped: id, category.name');
  });
});

describe('--dry-run', () => {
  it('checks every row with the API and writes nothing: no item, no state file, no rejects file', async () => {
    const file = join(dir, 'dry', 'dry.csv');
    const inUse = (await sdk.items.list({ limit: 1 })).items[0]?.sku as string;
    mkdirSync(join(dir, 'dry'));
    writeFileSync(file, `sku,title\n${PREFIX}-DRY-1,One\n${PREFIX}-DRY-2,Two\n${inUse},Taken\n`);
    const result = await run(['items', 'import', file, '--dry-run']);
    expect(result.code).toBe(9);
    expect(result.stderr).toContain(
      `Row 4 (SKU ${JSON.stringify(inUse)}): An item with this SKU already exists in the workspace (CONFLICT)`,
    );
    expect(result.stderr).toMatch(
      /^Dry run of dry\.csv \(--mode create\), nothing written: 2 would be created, 0 updated, 1 refused, of 3 rows, in (?:\d+ min )?[\d.]+ s\.$/m,
    );
    expect(await itemsNamed('-DRY-')).toEqual([]);
    expect(readdirSync(join(dir, 'dry'))).toEqual(['dry.csv']);
  });
});
