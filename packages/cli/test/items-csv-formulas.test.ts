import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSV_FORMULA_TRIGGERS, ITEM_CSV_COLUMNS } from '@coinventory/contract/csv';
import type { CreateItemInput, Item } from '@coinventory/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { parseCsv } from './support/csv.js';
import { withKey } from './support/demo.js';

// Spreadsheet formula injection (issue 35): items whose text starts like a formula, exported as CSV by the server
// (GET /exports/items) and by `items list --output csv`, come out with a leading ' on every such cell, so no
// spreadsheet runs them; `items import` of either file gives back exactly the original values. In the shared
// server's demo organization, with this file's own key; every item made here has the run's prefix and is deleted.

const { baseUrl, keys } = inject('server');
const { run, sdk } = withKey(keys.formulas);
const PREFIX = `FML-${randomUUID().slice(0, 8)}`;

/** Starts a spreadsheet reads as a formula, and text around them that must come back unchanged too. */
const HOSTILE = ['=HYPERLINK("http://x")', '+1', '-1+2', '@SUM(1)', '\tx', '\rx', "'=already", '-5', "''=", "'"];
/** The text columns set here, and the body fields they come from. */
const TEXT_COLUMNS = { sku: 'sku', title: 'title', description: 'description', 'grading.grade': 'grade' } as const;

function inputs(): CreateItemInput[] {
  return HOSTILE.map((text, i) => ({
    sku: `${text}${PREFIX}-${i}`,
    title: text,
    description: `${text} and more`,
    grade: text,
    attributes: { note: text },
  }));
}

/** The items made here, oldest first (as the export orders them). */
async function itemsMadeHere(): Promise<Item[]> {
  return (await sdk.items.list({ q: PREFIX, sort: 'oldest', limit: 100 })).items;
}

/** Items made in one batch share their createdAt and are listed in id order: compared in SKU order. */
const bySku = (items: readonly Item[]) => [...items].sort((a, b) => a.sku.localeCompare(b.sku));

/** What an import sets: everything but the id and timestamps, which the server gives. */
const written = ({ id: _id, createdAt: _created, updatedAt: _updated, ...rest }: Item) => rest;

/** The values the text columns were given, as the API reads them back. */
const textsOf = (item: Item) => ({
  sku: item.sku,
  title: item.title,
  description: item.description,
  grade: item.grading.grade,
  attributes: item.attributes,
});

/** Checks a CSV as written: every text cell set here carries one leading ', and no cell starts like a formula. */
function expectNeutralised(csv: string, items: readonly Item[]): string[][] {
  const [header, ...rows] = parseCsv(csv);
  expect(header).toEqual(ITEM_CSV_COLUMNS);
  expect(rows).toHaveLength(items.length);
  const triggers: readonly string[] = CSV_FORMULA_TRIGGERS;
  const formulas = rows.flat().filter((cell) => triggers.includes(cell[0] ?? ''));
  expect(formulas, 'cells a spreadsheet would run').toEqual([]);
  rows.forEach((row, i) => {
    const item = items[i] as Item;
    expect(row[0]).toBe(item.id);
    for (const [column, field] of Object.entries(TEXT_COLUMNS)) {
      const text = textsOf(item)[field] as string;
      const cell = row[ITEM_CSV_COLUMNS.indexOf(column)];
      // `'` alone and `''=`… : only text that starts like a formula (after any quotes) gains one.
      expect(cell, `${column} of ${JSON.stringify(text)}`).toBe(/^'*[-=+@\t\r]/.test(text) ? `'${text}` : text);
    }
    // JSON columns start with { or [: never prefixed, the formula stays inside as the API's value.
    expect(JSON.parse(row[ITEM_CSV_COLUMNS.indexOf('attributes')] ?? '')).toEqual(item.attributes);
  });
  return rows;
}

let dir: string;
let originals: Item[];
beforeAll(async () => {
  dir = tempDir('formulas');
  const result = await sdk.items.batch({ mode: 'create', items: inputs() });
  expect(result.failed).toBe(0);
  originals = await itemsMadeHere();
  expect(bySku(originals).map(textsOf)).toEqual(
    inputs()
      .map(({ sku, title, description, grade, attributes }) => ({ sku, title, description, grade, attributes }))
      .sort((a, b) => a.sku.localeCompare(b.sku)),
  );
});

afterAll(async () => {
  for (const item of await itemsMadeHere()) await sdk.items.delete(item.id);
});

describe('text that starts like a spreadsheet formula, in CSV', () => {
  /** The server's CSV export and the CLI's `items list --output csv` of the items made here. */
  let exported: string;
  let listed: string;
  beforeAll(async () => {
    const response = await fetch(`${baseUrl}/exports/items?q=${PREFIX}`, {
      headers: { authorization: `Bearer ${keys.formulas}`, accept: 'text/csv' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    exported = await response.text();
    const list = await run(['items', 'list', '-q', PREFIX, '--sort', 'oldest', '--all', '--output', 'csv']);
    expect(list.code, list.stderr).toBe(0);
    listed = list.stdout;
  });

  it("is written with a leading ' by the server's export and by items list --output csv, the same cells", () => {
    expect(expectNeutralised(listed, originals)).toEqual(expectNeutralised(exported, originals));
  });

  it('imports back (--mode upsert) as exactly the original values: over the items, and as new ones', async () => {
    // The CLI's CSV over the items themselves: every row finds its item by SKU and changes no field.
    const listFile = join(dir, 'listed.csv');
    writeFileSync(listFile, listed);
    const over = await run(['items', 'import', listFile, '--mode', 'upsert', '--json']);
    expect(over.code, over.stderr).toBe(0);
    expect(JSON.parse(over.stdout)).toMatchObject({ rows: HOSTILE.length, created: 0, updated: HOSTILE.length });
    const updated = await itemsMadeHere();
    expect(updated.map(({ updatedAt: _, ...rest }) => rest)).toEqual(
      originals.map(({ updatedAt: _, ...rest }) => rest),
    );

    // The server's export, once the items are gone: every value comes from the file alone.
    for (const item of originals) await sdk.items.delete(item.id);
    expect(await itemsMadeHere()).toEqual([]);
    const exportFile = join(dir, 'exported.csv');
    writeFileSync(exportFile, exported);
    const fresh = await run(['items', 'import', exportFile, '--mode', 'upsert', '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ rows: HOSTILE.length, created: HOSTILE.length, refused: 0 });
    // New ids, so another order among items of one batch (equal createdAt, then id): compared in SKU order.
    const created = bySku(await itemsMadeHere());
    expect(created.map(textsOf)).toEqual(bySku(originals).map(textsOf));
    expect(created.map(written)).toEqual(bySku(originals).map(written));
  });

  it("leaves NDJSON as it is: a title of ' then = is that text", async () => {
    const file = join(dir, 'quoted.ndjson');
    const line = { sku: `'=${PREFIX}-NDJSON`, title: "'=SUM(1)", description: "''@x" };
    writeFileSync(file, `${JSON.stringify(line)}\n`);
    const result = await run(['items', 'import', file, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const [item] = (await sdk.items.list({ sku: line.sku })).items;
    expect(item && { sku: item.sku, title: item.title, description: item.description }).toEqual(line);
  });
});
