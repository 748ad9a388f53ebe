import type { Item, Valuation } from '@coinventory/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { scrub } from './support/cli.js';
import { parseCsv } from './support/csv.js';
import { demoItems, json, listed, run, sdk } from './support/demo.js';

// `items get` and `items valuations` on demo items, in every format.

let allItems: Item[];
beforeAll(async () => {
  allItems = await demoItems();
});

describe('items get and valuations', () => {
  const bySku = (sku: string): Item => {
    const item = allItems.find((candidate) => candidate.sku === sku);
    if (!item) throw new Error(`demo item ${sku} is missing`);
    return item;
  };

  it('get shows every field readably', async () => {
    const { code, stdout } = await run(['items', 'get', bySku('AGE-1986-W-PF69').id]);
    expect(code).toBe(0);
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                 xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      SKU                AGE-1986-W-PF69
      Title              1986-W $50 Proof American Gold Eagle PCGS PF69 DCAM
      Description        First-year proof gold eagle with deep cameo contrast.
      Category           Gold Eagles (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)
      Quantity           1 available, 0 sold, 0 reserved
      Value              $3,650.00
      Cost basis         $2,601.00
      Acquired           2025-10-21 18:21 from GreatCollections
      Acquisition notes  -
      Grading            PCGS PF69 DCAM, cert 26810673
      Grading notes      -
      Attributes         mint: "West Point"
                         year: 1986
                         metal: "gold"
                         proof: true
                         toned: false
                         country: "United States"
                         fineness: 0.9167
                         pedigree: null
                         weightGrams: 33.931
      Warehouse          xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Zone               xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Location details   Gold case, right
      Consignment        -
      At auction         no
      Images             https://images.liberty-coin.example/items/AGE-1986-W-PF69/1.jpg (1600x1600)
      Created            2025-11-01 18:21
      Updated            -
      "
    `);
  });

  it('get --json and --output csv', async () => {
    const item = bySku('MOR-1893-S-30');
    expect(json<Item>(await run(['items', 'get', item.id, '--json']))).toEqual(item);
    const rows = parseCsv((await run(['items', 'get', item.id, '-o', 'csv'])).stdout);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.[0]).toBe(item.id);
  });

  it('valuations: table, JSON body with comps, CSV, --limit', async () => {
    const item = bySku('MOR-1893-S-30');
    const table = await run(['items', 'valuations', item.id]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatchInlineSnapshot(`
      "CREATED            ESTIMATE        LOW       HIGH  CONF  BASIS  COMPS  APPLIED           SUMMARY
      2026-11-16 17:00  $6,787.50  $6,232.50  $7,415.50   67%  comps      4  2026-11-16 17:00  Median of 4 comparable PCGS VF30 sales: $6,787.50, range $6,232.50 to $7,415.50.
      2026-10-17 17:00  $6,266.36  $5,865.00  $6,439.09   57%  comps      5  -                 Median of 5 comparable PCGS sales within one grade step of VF30 (each adjusted 10% per grade step): $6,266.36, range $5,865.00 to $6,439.09.
      "
    `);
    // --json is the API's body, { items }: the list is not paged, so no hasMore.
    const asJson = await run(['items', 'valuations', item.id, '--json']);
    expect(asJson.stdout).toBe(`${JSON.stringify(await sdk.items.valuations(item.id), null, 2)}\n`);
    const valuations = listed<Valuation>(asJson);
    expect(valuations[0]?.comps.length).toBeGreaterThan(0);
    expect(listed<Valuation>(await run(['items', 'valuations', item.id, '--limit', '1', '--json']))).toEqual(
      valuations.slice(0, 1),
    );
    const csv = parseCsv((await run(['items', 'valuations', item.id, '--output', 'csv'])).stdout);
    expect(csv[0]).toContain('comps');
    expect(csv).toHaveLength(valuations.length + 1);
  });
});
