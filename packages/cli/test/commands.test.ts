import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ITEM_STATUSES } from '@coinventory/contract/constants';
import { Coinventory, type Consignment, type Invoice, type Item, type Valuation } from '@coinventory/sdk';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { BIN, type CliResult, cli, type RunOptions, scratchDir, scrub } from './support/cli.js';

// Every command through the built binary, against the real server on loopback (started by the global setup with a
// fresh demo workspace, whose data is the same on every run except ids and keys). Reads come first; the changes
// (create, update, delete) come last and touch only items this file creates.

const { baseUrl, keys } = inject('server');
const auth = { COINVENTORY_BASE_URL: baseUrl, COINVENTORY_API_KEY: keys.main };
const run = (args: readonly string[], options: RunOptions = {}): Promise<CliResult> =>
  cli(args, { ...options, env: { ...auth, ...options.env } });
const sdk = new Coinventory({ apiKey: keys.main, baseUrl, maxRetries: 0 });

const json = <T>(result: CliResult): T => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
};

/** Parses RFC 4180 CSV (quoted fields with doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += char;
  }
  expect(field, 'CSV must end with CRLF').toBe('');
  return rows;
}

let allItems: Item[];
beforeAll(async () => {
  allItems = (await sdk.items.list({ limit: 100, sort: 'sku' }).collectAll({ max: 1000 })).items;
});

describe('help and version', () => {
  it('--help lists every command, the exit codes and the environment', async () => {
    const { code, stdout, stderr } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const command of ['me', 'items', 'consignments', 'invoices', 'login', 'logout']) {
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
      ['consignments', 'list'],
      ['consignments', 'get'],
      ['invoices', 'list'],
      ['invoices', 'get'],
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

  it('--version prints the version', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: '1.0.0\n', stderr: '' });
  });
});

describe('me', () => {
  it('shows the organization, key and rate limit', async () => {
    const { code, stdout, stderr } = await run(['me']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(scrub(stdout).replace(baseUrl, '<base-url>')).toMatchInlineSnapshot(`
      "Organization     Liberty Coin & Bullion (liberty-coin)
      Organization ID  xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Key              Demo key (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)
      Scopes           read, write
      Expires          never
      Rate limit       120 requests per 60 s
      Base URL         <base-url>
      Key from         COINVENTORY_API_KEY
      "
    `);
  });

  it('--json prints the API object', async () => {
    expect(json(await run(['me', '--json']))).toEqual(await sdk.me());
  });
});

describe('items list', () => {
  it('prints a table: dollars, local dates, one row per item', async () => {
    const { code, stdout, stderr } = await run(['items', 'list', '--sort', 'sku', '--limit', '5']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    SKU              TITLE                                                 QTY      VALUE  GRADE           CREATED
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  AGE-1986-W-PF69  1986-W $50 Proof American Gold Eagle PCGS PF69 DCAM     1  $3,650.00  PCGS PF69 DCAM  2025-11-01 18:21
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  AGE-2021-T1-70   2021 Type 1 American Gold Eagle 1 oz NGC MS70           0  $3,950.00  NGC MS70        2026-05-20 23:49
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  AGE-2024-1OZ     2024 American Gold Eagle 1 oz BU                        6  $3,450.00  BU              2026-05-30 20:15
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  ANC-ALX-TET-02   Alexander III AR Tetradrachm, Amphipolis NGC Ch VF      0    $695.00  NGC Ch VF       2026-03-31 19:15
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  ANC-ATH-OWL-01   Athens AR Tetradrachm (Owl), c. 454-404 BC NGC Ch XF    1  $2,450.00  NGC Ch XF       2025-12-21 16:34
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

  it('--json prints the exact API objects of the page', async () => {
    const items = json<Item[]>(await run(['items', 'list', '--sort', 'sku', '--limit', '5', '--page', '2', '--json']));
    expect(items).toEqual((await sdk.items.list({ sort: 'sku', limit: 5, page: 2 })).items);
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
    const items = json<Item[]>(
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

    const morgan = json<Item[]>(
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
    const inCategory = json<Item[]>(
      await run(['items', 'list', '--category-id', category?.id ?? '', '--limit', '100', '--sort', 'sku', '--json']),
    );
    expect(inCategory.map((item) => item.id)).toEqual(
      allItems.filter((item) => item.category?.id === category?.id).map((item) => item.id),
    );
  });

  it('--all walks every page: all items, none twice (JSON streamed as one array)', async () => {
    const result = await run(['items', 'list', '--limit', '7', '--all', '--json', '--sort', 'sku']);
    const items = json<Item[]>(result);
    expect(items.map((item) => item.id)).toEqual(allItems.map((item) => item.id));
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(allItems.length).toBeGreaterThan(7 * 7);
    // Byte for byte what JSON.stringify gives for the whole array.
    expect(result.stdout).toBe(`${JSON.stringify(allItems, null, 2)}\n`);
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
      env: { PATH: process.env.PATH, HOME: scratchDir(), ...auth },
      encoding: 'utf8',
    });
    expect(result.stdout).toMatch(/^\[\n {2}\{\n {4}"id": "[0-9a-f-]{36}",\n$/);
    expect(result.stderr).toBe('exit=0\n');
  });

  it('an empty result: an empty array, a header-only CSV, a note on stderr for tables', async () => {
    const args = ['items', 'list', '--sku', 'NO-SUCH-SKU'];
    expect(json<Item[]>(await run([...args, '--json']))).toEqual([]);
    expect((await run([...args, '--output', 'csv'])).stdout.split('\r\n')).toHaveLength(2);
    expect(await run(args)).toEqual({ code: 0, stdout: '', stderr: 'No items found.\n' });
  });
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

  it('valuations: table, JSON array with comps, CSV, --limit', async () => {
    const item = bySku('MOR-1893-S-30');
    const table = await run(['items', 'valuations', item.id]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatchInlineSnapshot(`
      "CREATED            ESTIMATE        LOW       HIGH  CONF  BASIS            COMPS  APPLIED           SUMMARY
      2026-10-30 06:13  $6,500.00  $5,992.00  $7,220.00   69%  comps                5  2026-10-31 12:13  5 comparable sales near VF30 in the last five months, $5,992 to $7,220.
      2026-10-12 19:27  $6,551.00          -          -   47%  model_knowledge      1  -                 Few recent comparable sales; estimate from general knowledge of the type, grade and eye appeal.
      2026-09-25 08:40  $6,142.00  $5,475.00  $6,604.00   78%  comps                4  -                 4 comparable sales near VF30 in the last five months, $5,475 to $6,604.
      "
    `);
    const valuations = json<Valuation[]>(await run(['items', 'valuations', item.id, '--json']));
    expect(valuations).toEqual((await sdk.items.valuations(item.id)).items);
    expect(valuations[0]?.comps.length).toBeGreaterThan(0);
    expect(json<Valuation[]>(await run(['items', 'valuations', item.id, '--limit', '1', '--json']))).toEqual(
      valuations.slice(0, 1),
    );
    const csv = parseCsv((await run(['items', 'valuations', item.id, '--output', 'csv'])).stdout);
    expect(csv[0]).toContain('comps');
    expect(csv).toHaveLength(valuations.length + 1);
  });
});

describe('consignments', () => {
  it('list: table, filters, --all', async () => {
    const { code, stdout } = await run(['consignments', 'list', '--status', 'partially_sold']);
    expect(code).toBe(0);
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    NUMBER      NAME                                      STATUS          CONSIGNOR              SOLD/ITEMS      VALUE     SOLD  RECEIVED
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  C-2026-008  Hartwell collection, part 2: gem Morgans  partially_sold  Hartwell Family Trust         1/3  $2,345.00  $360.00  2026-07-09 16:22
      "
    `);
    const all = json<Consignment[]>(await run(['consignments', 'list', '--all', '--limit', '3', '--json']));
    expect(all).toEqual((await sdk.consignments.list({ limit: 100 })).items);
    const consignorId = all.find((c) => c.consignor)?.consignor?.id ?? '';
    const mine = json<Consignment[]>(await run(['consignments', 'list', '--consignor-id', consignorId, '--json']));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((c) => c.consignor?.id === consignorId)).toBe(true);
    const found = json<Consignment[]>(await run(['consignments', 'list', '-q', 'Okafor', '--json']));
    expect(found.map((c) => c.number).sort()).toEqual(['C-2026-006', 'C-2026-014']);
    const csv = parseCsv((await run(['consignments', 'list', '--output', 'csv', '--limit', '1'])).stdout);
    expect(csv[0]).toContain('consignor.email');
  });

  it('get: detail view and JSON', async () => {
    const [first] = (await sdk.consignments.list({ status: 'partially_sold' })).items;
    if (!first) throw new Error('no partially sold consignment in the demo');
    expect(scrub((await run(['consignments', 'get', first.id])).stdout)).toMatchInlineSnapshot(`
      "ID                xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Number            C-2026-008
      Name              Hartwell collection, part 2: gem Morgans
      Status            partially_sold
      Payment status    unpaid
      Consignor         Hartwell Family Trust <trustee@hartwell-trust.example> (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)
      Commission        10%
      Buyer premium     20%
      Items             3 (1 sold)
      Total value       $2,345.00
      Total sold        $360.00
      Commission total  $36.00
      Payout            $324.00
      Received          2026-07-09 16:22
      Sold              -
      Settled           -
      Created           2026-07-09 14:22
      "
    `);
    expect(json<Consignment>(await run(['consignments', 'get', first.id, '--json']))).toEqual(first);
  });
});

describe('invoices', () => {
  it('list: table, status filter, sort, --all', async () => {
    const { code, stdout } = await run(['invoices', 'list', '--status', 'partially_paid', '--sort', 'oldest']);
    expect(code).toBe(0);
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    NUMBER  STATUS          CUSTOMER         SOURCE      TOTAL        DUE  CREATED
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx    1008  partially_paid  Harold Jennings  manual  $4,000.00  $2,000.00  2026-07-19 20:39
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx    1011  partially_paid  Priya Natarajan  manual  $4,475.00  $3,475.00  2026-09-17 22:32
      "
    `);
    const all = json<Invoice[]>(await run(['invoices', 'list', '--all', '--limit', '5', '--sort', 'oldest', '--json']));
    expect(all).toEqual((await sdk.invoices.list({ limit: 100, sort: 'oldest' })).items);
    const heritage = json<Invoice[]>(await run(['invoices', 'list', '-q', 'heritage', '--json']));
    expect(heritage.length).toBeGreaterThan(0);
    expect(heritage.every((invoice) => invoice.source === 'Heritage Auctions')).toBe(true);
    const csv = parseCsv((await run(['invoices', 'list', '--output', 'csv', '--limit', '2'])).stdout);
    expect(csv[0]).toEqual(expect.arrayContaining(['customer.name', 'lines', 'payments']));
  });

  it('get: detail view with lines and payments, and JSON', async () => {
    const [invoice] = (await sdk.invoices.list({ status: 'partially_paid', sort: 'oldest', limit: 1 })).items;
    if (!invoice) throw new Error('no partially paid invoice in the demo');
    expect(scrub((await run(['invoices', 'get', invoice.id])).stdout)).toMatchInlineSnapshot(`
      "ID        xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Number    1008
      Status    partially_paid
      Source    manual
      Customer  Harold Jennings <hjennings@mail.example> (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)
      Subtotal  $4,050.00
      Discount  $50.00
      Shipping  $0.00
      Tax       $0.00
      Total     $4,000.00
      Paid      $2,000.00
      Due       $2,000.00
      Due at    2026-08-18 20:39
      Paid at   -
      Created   2026-07-19 20:39

      Lines (1)
      DESCRIPTION                                        ITEM                                  QTY       UNIT      TOTAL
      1908 No Motto Saint-Gaudens Double Eagle NGC MS64  xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx    1  $4,050.00  $4,050.00

      Payments (1)
         AMOUNT  METHOD  STATUS     PAID              ID
      $2,000.00  wire    succeeded  2026-07-21 23:39  xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      "
    `);
    expect(json<Invoice>(await run(['invoices', 'get', invoice.id, '--json']))).toEqual(invoice);
  });
});

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
    await refused(['items', 'get', 'not-a-uuid'], 'Must be a UUID');
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
    await refused(['--base-url', 'ftp://example.com', 'me'], 'only http and https');
  });
});

describe('changes: create, update, delete', () => {
  const sku = `CLI-${randomUUID().slice(0, 8)}`;
  let created: Item;

  it('create: dollars converted exactly, typed attributes, every field', async () => {
    created = json<Item>(
      await run([
        'items',
        'create',
        '--sku',
        sku,
        '--title',
        '1921 Morgan Dollar MS63',
        '--description',
        'Line one,\nline "two"',
        '--quantity',
        '2',
        '--value',
        '125.5',
        '--acquisition-price',
        '0.29',
        '--acquisition-date',
        '2026-03-01',
        '--acquired-from',
        'Estate sale',
        '--acquisition-notes',
        'Bought with a lot',
        '--grading-service',
        'PCGS',
        '--grade',
        'MS63',
        '--certificate-number',
        '007',
        '--grading-notes',
        'Toned obverse',
        '--attr',
        'year=1921',
        '--attr',
        'proof=false',
        '--attr',
        'mint=Philadelphia',
        '--attr',
        'pedigree=null',
        '--attr',
        'cert=007',
        '--attr',
        'label:="1921"',
        '--location-details',
        'Tray 4',
        '--json',
      ]),
    );
    expect(created).toMatchObject({
      sku,
      title: '1921 Morgan Dollar MS63',
      description: 'Line one,\nline "two"',
      quantity: { available: 2, sold: 0, reserved: 0 },
      valueInCents: 12_550,
      acquisition: {
        priceInCents: 29,
        date: '2026-03-01T00:00:00.000Z',
        from: 'Estate sale',
        notes: 'Bought with a lot',
      },
      grading: { service: 'PCGS', grade: 'MS63', certificateNumber: '007', notes: 'Toned obverse' },
      attributes: { year: 1921, proof: false, mint: 'Philadelphia', pedigree: null, cert: '007', label: '1921' },
      location: { details: 'Tray 4' },
    });
    expect(await sdk.items.get(created.id)).toEqual(created);
  });

  it('create prints the item as a detail view by default; --value-cents and --attributes-json', async () => {
    const other = `${sku}-B`;
    const { code, stdout } = await run([
      'items',
      'create',
      '--sku',
      other,
      '--title',
      'Second',
      '--value-cents',
      '9007199254740991',
      '--attributes-json',
      '{"year":1922,"note":"ok"}',
      '--warehouse-id',
      created.location.warehouseId,
      '--zone-id',
      created.location.zoneId,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(`SKU                ${other}`);
    expect(stdout).toContain('Value              $90,071,992,547,409.91');
    expect(stdout).toContain('year: 1922');
    const [item] = (await sdk.items.list({ sku: other })).items;
    expect(item?.valueInCents).toBe(9_007_199_254_740_991);
    expect(item?.attributes).toEqual({ year: 1922, note: 'ok' });
    await sdk.items.delete(item?.id ?? '');
  });

  it('a description with commas, quotes and a newline is quoted in CSV', async () => {
    const { stdout } = await run(['items', 'list', '--sku', sku, '--output', 'csv']);
    expect(stdout).toContain(',"Line one,\nline ""two""",');
    expect(parseCsv(stdout)[1]?.[3]).toBe('Line one,\nline "two"');
  });

  it('update changes only the fields given; --clear sends null', async () => {
    const updated = json<Item>(
      await run([
        'items',
        'update',
        created.id,
        '--quantity',
        '3',
        '--value',
        '99.99',
        '--clear',
        'certificate-number',
        '--clear',
        'acquisition-price',
        '--attr',
        'year=1921',
        '--json',
      ]),
    );
    expect(updated).toMatchObject({
      id: created.id,
      title: created.title,
      quantity: { available: 3 },
      valueInCents: 9_999,
      acquisition: { priceInCents: null, from: 'Estate sale' },
      grading: { certificateNumber: null, grade: 'MS63' },
      attributes: { year: 1921 },
    });
    expect(updated.updatedAt).not.toBeNull();
    const table = await run(['items', 'update', created.id, '--title', 'Renamed']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Title              Renamed');
  });

  it('delete --yes removes the item; it is then not found (exit 4)', async () => {
    expect(json(await run(['items', 'delete', created.id, '--yes', '--json']))).toEqual({
      id: created.id,
      deleted: true,
    });
    const again = await run(['items', 'get', created.id]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/^Error: Not found \(NOT_FOUND, HTTP 404\)\nRequest ID: req_\S+\n$/);
    const gone = await run(['items', 'delete', created.id, '--yes']);
    expect(gone.code).toBe(4);
  });

  it('delete prints a confirmation line in table mode', async () => {
    const item = await sdk.items.create({ sku: `${sku}-C`, title: 'To delete' });
    expect(await run(['items', 'delete', item.id, '-y'])).toEqual({
      code: 0,
      stdout: `Deleted item ${item.id}\n`,
      stderr: '',
    });
  });
});
