import { spawnSync } from 'node:child_process';
import type { Item } from '@coinventory/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, scratchDir, scrub } from './support/cli.js';
import { parseCsv } from './support/csv.js';
import { demoItems, keyEnv, listed, run, sdk } from './support/demo.js';

// `items list` against the demo organization: the table, TZ and COLUMNS, JSON and CSV, every filter and sort, --all
// across pages, a reader that goes away, and an empty result.

let allItems: Item[];
beforeAll(async () => {
  allItems = await demoItems();
});

describe('items list', () => {
  it('prints a table: dollars, local dates, one row per item', async () => {
    const { code, stdout, stderr } = await run(['items', 'list', '--sort', 'sku', '--limit', '5']);
    expect(code).toBe(0);
    // More pages follow: the footer on stderr, whether or not it is a terminal; stdout holds only the table.
    expect(stderr).toBe('Showing items 1–5; more: --page 2 --limit 5 or --all.\n');
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    SKU              TITLE                                                 QTY      VALUE  GRADE           CREATED
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  AGE-1986-W-PF69  1986-W $50 Proof American Gold Eagle PCGS PF69 DCAM     1  $3,650.00  PCGS PF69 DCAM  2025-11-01 18:21
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  AGE-2021-T1-70   2021 Type 1 American Gold Eagle 1 oz NGC MS70           0  $3,950.00  NGC MS70        2026-05-20 23:49
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  AGE-2024-1OZ     2024 American Gold Eagle 1 oz BU                        6  $3,450.00  BU              2026-05-30 20:15
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  ANC-ALX-TET-02   Alexander III AR Tetradrachm, Amphipolis NGC Ch VF      0    $695.00  NGC Ch VF       2026-03-31 19:15
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  ANC-ATH-OWL-01   Athens AR Tetradrachm (Owl), c. 454-404 BC NGC Ch XF    1  $2,400.00  NGC Ch XF       2025-12-21 16:34
      "
    `);
  });

  it('honours TZ for dates', async () => {
    const utc = await run(['items', 'list', '--sku', 'AGE-1986-W-PF69']);
    const ny = await run(['items', 'list', '--sku', 'AGE-1986-W-PF69'], { env: { TZ: 'America/New_York' } });
    expect(utc.stdout).toContain('2025-11-01 18:21');
    expect(ny.stdout).toContain('2025-11-01 14:21');
  });

  it('fits COLUMNS, cutting long text with …', async () => {
    const { stdout } = await run(['items', 'list', '--sort', 'sku', '--limit', '5'], { env: { COLUMNS: '110' } });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(110);
    expect(stdout).toContain('…');
    expect(stdout).toContain('$3,650.00');
  });

  it("--json prints the API's list body, hasMore included, byte for byte", async () => {
    const result = await run(['items', 'list', '--sort', 'sku', '--limit', '5', '--page', '2', '--json']);
    const { items, page, limit, hasMore } = await sdk.items.list({ sort: 'sku', limit: 5, page: 2 });
    expect(hasMore).toBe(true);
    expect(result).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ items, page, limit, hasMore }, null, 2)}\n`,
      stderr: '',
    });
    const lastPage = Math.ceil(allItems.length / 5);
    const last = await run(['items', 'list', '--sort', 'sku', '--limit', '5', '--page', String(lastPage), '--json']);
    expect(JSON.parse(last.stdout)).toMatchObject({ page: lastPage, limit: 5, hasMore: false });
  });

  it('the footer names the rows shown and flags that fetch the next ones; none on the last page', async () => {
    const second = await run(['items', 'list', '--sort', 'sku', '--limit', '5', '--page', '2', '--fields', 'sku']);
    expect(second.stderr).toBe('Showing items 6–10; more: --page 3 --limit 5 or --all.\n');
    expect(second.stdout.trimEnd().split('\n').slice(1)).toEqual(allItems.slice(5, 10).map((item) => item.sku));
    // The flags the footer names, as given, fetch the rows after these.
    const flags = /more: (.+) or --all\.$/.exec(second.stderr.trimEnd())?.[1]?.split(' ') ?? [];
    const third = await run(['items', 'list', '--sort', 'sku', '--fields', 'sku', ...flags]);
    expect(third.stdout.trimEnd().split('\n').slice(1)).toEqual(allItems.slice(10, 15).map((item) => item.sku));
    // The default page size is not repeated.
    expect((await run(['items', 'list', '--sort', 'sku', '--fields', 'sku'])).stderr).toBe(
      'Showing items 1–20; more: --page 2 or --all.\n',
    );
    const lastPage = String(Math.ceil(allItems.length / 5));
    const last = await run(['items', 'list', '--sort', 'sku', '--limit', '5', '--page', lastPage, '--fields', 'sku']);
    expect(last.code).toBe(0);
    expect(last.stderr).toBe('');
    // CSV to a pipe: no footer anywhere, so `| wc -l` counts the header and the rows.
    const csv = await run(['items', 'list', '--sort', 'sku', '--limit', '5', '--output', 'csv']);
    expect(csv.stderr).toBe('');
    expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(6);
  });

  it('--output csv: header, flattened fields, RFC 4180 quoting', async () => {
    const { code, stdout } = await run(['items', 'list', '--sort', 'sku', '--limit', '2', '--output', 'csv']);
    expect(code).toBe(0);
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "id,sku,title,description,category.id,category.name,quantity.available,quantity.sold,quantity.reserved,valueInCents,acquisition.priceInCents,acquisition.date,acquisition.from,acquisition.notes,grading.service,grading.grade,grading.certificateNumber,grading.notes,attributes,location.warehouseId,location.zoneId,location.details,consignmentId,isAtAuction,images,createdAt,updatedAt
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,AGE-1986-W-PF69,1986-W $50 Proof American Gold Eagle PCGS PF69 DCAM,First-year proof gold eagle with deep cameo contrast.,xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,Gold Eagles,1,0,0,365000,260100,2025-10-21T18:21:18.000Z,GreatCollections,,PCGS,PF69 DCAM,26810673,,"{""mint"":""West Point"",""year"":1986,""metal"":""gold"",""proof"":true,""toned"":false,""country"":""United States"",""fineness"":0.9167,""pedigree"":null,""weightGrams"":33.931}",xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,"Gold case, right",,false,"[{""url"":""https://images.liberty-coin.example/items/AGE-1986-W-PF69/1.jpg"",""width"":1600,""height"":1600}]",2025-11-01T18:21:18.000Z,
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,AGE-2021-T1-70,2021 Type 1 American Gold Eagle 1 oz NGC MS70,"Final-year Type 1 design, perfect grade.",xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,Gold Eagles,0,1,0,395000,324500,2026-05-12T23:49:08.000Z,A-Mark Precious Metals,,NGC,MS70,6706451-031,,"{""mint"":""West Point"",""year"":2021,""metal"":""gold"",""toned"":false,""country"":""United States"",""variety"":""Type 1"",""fineness"":0.9167,""pedigree"":null,""weightGrams"":33.931}",xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,,,false,"[{""url"":""https://images.liberty-coin.example/items/AGE-2021-T1-70/1.jpg"",""width"":1600,""height"":1600},{""url"":""https://images.liberty-coin.example/items/AGE-2021-T1-70/2.jpg"",""width"":2400,""height"":1200},{""url"":""https://images.liberty-coin.example/items/AGE-2021-T1-70/3.jpg"",""width"":1600,""height"":1600}]",2026-05-20T23:49:08.000Z,
      "
    `);
    const [header, ...rows] = parseCsv(stdout);
    expect(header).toContain('quantity.available');
    expect(header).toContain('grading.service');
    const first = Object.fromEntries((header ?? []).map((name, i) => [name, rows[0]?.[i]]));
    const item = allItems[0] as Item;
    expect(first).toMatchObject({
      id: item.id,
      title: item.title,
      valueInCents: String(item.valueInCents),
      'grading.service': item.grading.service,
      attributes: JSON.stringify(item.attributes),
      images: JSON.stringify(item.images),
    });
  });

  it('applies every filter and sort', async () => {
    const items = listed<Item>(
      await run([
        'items',
        'list',
        '--status',
        'in_stock',
        '--grading-service',
        'PCGS',
        '--sort',
        'value_desc',
        '--limit',
        '50',
        '--json',
      ]),
    );
    expect(items.length).toBeGreaterThan(1);
    for (const item of items) {
      expect(item.grading.service).toBe('PCGS');
      expect(item.quantity.available).toBeGreaterThan(0);
      expect(item.isAtAuction).toBe(false);
    }
    const values = items.map((item) => item.valueInCents);
    expect(values).toEqual([...values].sort((a, b) => b - a));

    const morgan = listed<Item>(
      await run(['items', 'list', '-q', 'morgan', '--grade', 'vf30', '--sort', 'sku', '--limit', '100', '--json']),
    );
    const expected = allItems.filter(
      (item) =>
        `${item.sku} ${item.title} ${item.description}`.toLowerCase().includes('morgan') &&
        item.grading.grade === 'VF30',
    );
    expect(expected.length).toBeGreaterThan(1);
    expect(morgan.map((item) => item.sku)).toEqual(expected.map((item) => item.sku));
    const category = allItems.find((item) => item.category)?.category;
    const inCategory = listed<Item>(
      await run(['items', 'list', '--category-id', category?.id ?? '', '--limit', '100', '--sort', 'sku', '--json']),
    );
    expect(inCategory.map((item) => item.id)).toEqual(
      allItems.filter((item) => item.category?.id === category?.id).map((item) => item.id),
    );
  });

  it('--all walks every page: all items, none twice (JSON streamed as one list body)', async () => {
    const result = await run(['items', 'list', '--limit', '7', '--all', '--json', '--sort', 'sku']);
    const items = listed<Item>(result);
    expect(items.map((item) => item.id)).toEqual(allItems.map((item) => item.id));
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(allItems.length).toBeGreaterThan(7 * 7);
    // Byte for byte what JSON.stringify gives for the whole list.
    expect(result.stdout).toBe(`${JSON.stringify({ items: allItems, hasMore: false }, null, 2)}\n`);
  });

  it('--all as CSV and table: one header, every item; no progress on a piped stderr', async () => {
    const csv = await run(['items', 'list', '--limit', '10', '--all', '--output', 'csv']);
    expect(csv.stderr).toBe('');
    const rows = parseCsv(csv.stdout);
    expect(rows).toHaveLength(allItems.length + 1);
    expect(rows.filter((row) => row[0] === 'id')).toHaveLength(1);

    const table = await run(['items', 'list', '--limit', '10', '--all']);
    expect(table.stderr).toBe('');
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(allItems.length + 1);
    expect(lines.filter((line) => line.startsWith('ID '))).toHaveLength(1);
  });

  it('stops quietly, exit 0, when the reader goes away (| head)', () => {
    const script = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} items list --all --limit 7 --json | head -n 3; echo "exit=\${PIPESTATUS[0]}" >&2`;
    const result = spawnSync('bash', ['-c', script], {
      env: { PATH: process.env.PATH, HOME: scratchDir(), ...keyEnv },
      encoding: 'utf8',
    });
    expect(result.stdout).toMatch(/^\{\n {2}"items": \[\n {4}\{\n$/);
    expect(result.stderr).toBe('exit=0\n');
  });

  it('an empty result: an empty list body, a header-only CSV, a note on stderr for tables', async () => {
    const args = ['items', 'list', '--sku', 'NO-SUCH-SKU'];
    expect((await run([...args, '--json'])).stdout).toBe(
      `${JSON.stringify({ items: [], page: 1, limit: 20, hasMore: false }, null, 2)}\n`,
    );
    expect((await run([...args, '--output', 'csv'])).stdout.split('\r\n')).toHaveLength(2);
    expect(await run(args)).toEqual({ code: 0, stdout: '', stderr: 'No items found.\n' });
  });
});
