import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ChangeListSchema } from '@coinventory/contract';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { IMAGES_IMPORT } from '../../../src/modules/items/index.js';
import { identityOf, valuate } from '../../../src/modules/valuations/index.js';
import { EXIT, prepareOperatorCommand } from '../../../src/operator/index.js';
import { csvObjects, operatorCommands, SAMPLES } from '../../support/imports.js';
import { createItem, freshApi, getItem } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * `coinventory-server import sales|price-guide|images FILE`: the samples (packages/server/samples/imports) imported
 * twice leave one copy of each record, exactly as the files have them; a bad file is refused row by row and changes
 * nothing.
 */

const SALES = join(SAMPLES, 'sales.csv');
const GUIDE = join(SAMPLES, 'price-guide.ndjson');
const IMAGES = join(SAMPLES, 'images.csv');
const work = mkdtempSync(join(tmpdir(), 'coinventory-imports-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A file of this test's own, in a temporary folder. */
function file(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

describe('operator imports, run in-process on the suite’s database', () => {
  const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  const sql = (): Sql => ctx.server.database.sql;
  const { run, json } = operatorCommands(sql);
  const salesOf = async (organizationId: string) =>
    sql()<Record<string, unknown>[]>`
      SELECT source, external_id, coin, coin_identity, title, grading_service, grade, price_in_cents, sold_at,
        sold_at_text, venue, url
      FROM comparable_sales WHERE organization_id = ${organizationId} ORDER BY source, external_id
    `;

  it('imports the sales sample twice: one copy of each sale, every field as the file has it', async () => {
    const ws = await createTestOrganization(sql());
    const first = await json('import', 'sales', SALES, '--org', ws.slug);
    expect(first).toEqual({
      kind: 'sales',
      file: 'sales.csv',
      organization: { id: ws.organizationId, slug: ws.slug },
      dryRun: false,
      rows: 7,
      created: 7,
      updated: 0,
      unchanged: 0,
      rejected: [],
      revalued: { valued: 0, unchanged: 0, withoutBasis: 0 }, // the organization has no items of these coins
    });
    const second = await json('import', 'sales', SALES, '--org', ws.slug);
    expect(second).toMatchObject({ rows: 7, created: 0, updated: 0, unchanged: 7, rejected: [] });
    expect(second).not.toHaveProperty('revalued');

    const expected = csvObjects(SALES)
      .map((row) => ({
        source: row.source,
        external_id: row.externalId,
        coin: row.coin,
        coin_identity: identityOf(row.coin as string),
        title: row.title ?? null,
        grading_service: row.gradingService ?? null,
        grade: row.grade ?? null,
        price_in_cents: Number(row.priceInCents),
        sold_at: new Date((row.soldAt as string).length === 10 ? `${row.soldAt}T00:00:00Z` : (row.soldAt as string)),
        sold_at_text: row.soldAt,
        venue: row.venue ?? null,
        url: row.url ?? null,
      }))
      .sort((a, b) => `${a.source} ${a.external_id}`.localeCompare(`${b.source} ${b.external_id}`));
    expect(await salesOf(ws.organizationId)).toEqual(expected);
    // A quoted title with a comma and an apostrophe in a venue came through whole.
    expect(expected.some((row) => row.title === '1881-S Morgan Dollar, PCGS MS65, toned')).toBe(true);

    // A changed price is an update of that sale, not a new one.
    const changed = readFileSync(SALES, 'utf8').replace(',24000,2026-05-01,', ',24100,2026-05-01,');
    expect(await json('import', 'sales', file('changed.csv', changed), '--org', ws.slug)).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 6,
    });
    expect((await salesOf(ws.organizationId)).length).toBe(7);
  });

  it('imports the price guide sample twice: one value per coin and grade', async () => {
    const ws = await createTestOrganization(sql());
    expect(await json('import', 'price-guide', GUIDE, '--org', ws.slug)).toMatchObject({ rows: 5, created: 5 });
    expect(await json('import', 'price-guide', GUIDE, '--org', ws.slug)).toMatchObject({ created: 0, unchanged: 5 });
    const rows = await sql()`
      SELECT coin, grade, grade_key, coin_identity, value_in_cents FROM price_guide_entries
      WHERE organization_id = ${ws.organizationId} ORDER BY coin, grade
    `;
    const expected = readFileSync(GUIDE, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { coin: string; grade: string; valueInCents: number })
      .map((entry) => ({
        coin: entry.coin,
        grade: entry.grade,
        grade_key: entry.grade,
        coin_identity: identityOf(entry.coin),
        value_in_cents: entry.valueInCents,
      }))
      .sort((a, b) => `${a.coin} ${a.grade}`.localeCompare(`${b.coin} ${b.grade}`));
    expect(rows).toEqual(expected);
  });

  it('refuses a bad file with row-numbered reasons and writes nothing; --partial imports the rest', async () => {
    const ws = await createTestOrganization(sql());
    const bad = file(
      'bad.csv',
      [
        'source,externalId,coin,priceInCents,soldAt,url',
        'auction_archive,A-1,1881-S Morgan Dollar,24000,2026-05-01,https://heritage.example/1',
        'auction_archive,A-2,1881-S Morgan Dollar,240.50,2026-05-01,',
        'auction_archive,A-3,,24000,2026-05-01,',
        'auction_archive,A-4,1881-S Morgan Dollar,24000,2026-02-30,',
        'auction_archive,A-5,1881-S Morgan Dollar,24000,2026-05-01,ftp://example/5',
        'auction_archive,A-1,1881-S Morgan Dollar,25000,2026-05-02,',
        'auction_archive,A-6,"1881-S Morgan Dollar,24000,2026-05-01,',
        '',
      ].join('\n'),
    );
    const refused = await run('import', 'sales', bad, '--org', ws.slug);
    expect(refused).toEqual({
      exitCode: EXIT.refused,
      stdout: '',
      stderr: [
        'Nothing imported: 6 of 7 rows of bad.csv are refused (--partial imports the others).',
        '  row 3: priceInCents: must be whole cents (digits only)',
        '  row 4: coin: is required',
        '  row 5: soldAt: must be a date (2026-05-01) or an ISO 8601 date-time with Z or an offset',
        '  row 6: url: must be an http or https URL',
        '  row 7: repeats row 2 (the same source and externalId)',
        '  row 8: field 3 opens a quote that is never closed',
        '',
      ].join('\n'),
    });
    expect(await salesOf(ws.organizationId)).toEqual([]);

    const header = file('header.csv', 'source,externalId,coin,price,soldAt\nx,1,c,1,2026-01-01\n');
    const output = await run('import', 'sales', header, '--org', ws.slug);
    expect(output.exitCode).toBe(EXIT.refused);
    expect(output.stderr).toBe(
      'header.csv\'s header: column "price" is not a field (fields: source, externalId, coin, title, gradingService, grade, priceInCents, soldAt, venue, url); the required column "priceInCents" is missing.\n',
    );

    const dry = await json('import', 'sales', bad, '--org', ws.slug, '--partial', '--dry-run');
    expect(dry).toMatchObject({ dryRun: true, rows: 7, created: 1, updated: 0 });
    expect(await salesOf(ws.organizationId)).toEqual([]);

    const partial = await run('import', 'sales', bad, '--org', ws.slug, '--partial');
    expect(partial.exitCode).toBe(EXIT.ok);
    expect(partial.stdout).toMatch(
      /^Imported bad\.csv \(sales\) into [a-z0-9-]+: 1 created, 0 updated, 0 unchanged, 6 refused, of 7 rows\.\n {2}row 3: priceInCents/,
    );
    expect((await salesOf(ws.organizationId)).map((row) => row.external_id)).toEqual(['A-1']);
  });

  it('refuses what is not an import before reading anything', async () => {
    const ws = await createTestOrganization(sql());
    for (const [argv, message] of [
      [['import', 'sales', '--org', ws.slug], 'import sales needs the file to read; for example: '],
      [['import', 'sales', SALES, GUIDE, '--org', ws.slug], `unexpected argument "${GUIDE}" for import sales; `],
      [['import', 'sales', file('sales.txt', 'x'), '--org', ws.slug], '; must be a .csv, .ndjson, .jsonl file'],
    ] as const) {
      const output = await run(...argv);
      expect(output.exitCode, output.stderr).toBe(EXIT.usage);
      expect(output.stderr).toContain(message);
    }
    const missing = await run('import', 'sales', join(work, 'absent.csv'), '--org', ws.slug);
    expect(missing.exitCode).toBe(EXIT.refused);
    expect(missing.stderr).toContain('Cannot read absent.csv');
    // Sent to a running server, the file is named by its absolute path: the server reads it from another directory.
    const prepared = prepareOperatorCommand(['import', 'sales', 'samples/imports/sales.csv', '--org', ws.slug]);
    expect(prepared.kind === 'run' && prepared.argv).toEqual([
      'import',
      'sales',
      resolve('samples/imports/sales.csv'),
      '--org',
      ws.slug,
    ]);
  });

  it('values an item from the imported samples as the documented worked example does', async () => {
    const ws = await createTestOrganization(sql());
    const api = await freshApi(ctx.server, ws);
    await json('import', 'sales', SALES, '--org', ws.slug);
    await json('import', 'price-guide', GUIDE, '--org', ws.slug);
    const item = await createItem(api, {
      sku: 'MOR-1881-S-65',
      title: '1881-S Morgan Dollar',
      gradingService: 'PCGS',
      grade: 'MS65',
    });
    const result = await valuate(sql(), {
      org: ws.slug,
      item: item.sku,
      apply: false,
      now: new Date('2026-06-01T00:00:00Z'),
    });
    expect(result.valued).toMatchObject([{ basis: 'comps', estimateInCents: 25_850, confidencePercent: 70 }]);
    const [valuation] = await sql()<{ price_guide_value_in_cents: number; estimate_low_in_cents: number }[]>`
      SELECT price_guide_value_in_cents, estimate_low_in_cents FROM valuations WHERE organization_id = ${ws.organizationId}
    `;
    expect(valuation).toEqual({ price_guide_value_in_cents: 26_000, estimate_low_in_cents: 25_125 });
  });

  it('values again the items of the coins an import changed, and only when it changed something', async () => {
    const ws = await createTestOrganization(sql());
    const api = await freshApi(ctx.server, ws);
    const coin = 'Imported Test Dollar';
    const item = await createItem(api, {
      sku: 'ITD-63',
      title: `${coin} NGC MS63`,
      gradingService: 'NGC',
      grade: 'MS63',
    });
    const other = await createItem(api, {
      sku: 'OTHER',
      title: 'Another coin NGC MS63',
      gradingService: 'NGC',
      grade: 'MS63',
    });
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const sales = file(
      'recent.csv',
      [
        'source,externalId,coin,gradingService,grade,priceInCents,soldAt',
        `test,1,${coin},NGC,MS63,10000,${day(10)}`,
        `test,2,${coin},NGC,MS63,20000,${day(20)}`,
        `test,3,${coin},NGC,MS63,30000,${day(30)}`,
        '',
      ].join('\n'),
    );
    const imported = await run('import', 'sales', sales, '--org', ws.slug);
    expect(imported.stdout).toBe(
      `Imported recent.csv (sales) into ${ws.slug}: 3 created, 0 updated, 0 unchanged, of 3 rows.\nValued again: 1 item of these coins.\n`,
    );
    const valuations = async (id: string) =>
      ((await api.get(`/items/${id}/valuations`)).body as { items: Array<{ basis: string; estimateInCents: number }> })
        .items;
    expect(await valuations(item.id)).toMatchObject([{ basis: 'comps', estimateInCents: 20_000 }]);
    expect(await valuations(other.id)).toEqual([]);
    // The same file again changes nothing, so nothing is valued again.
    expect(await json('import', 'sales', sales, '--org', ws.slug)).not.toHaveProperty('revalued');
    expect(await valuations(item.id)).toHaveLength(1);
    // Nor does a dry run.
    const changed = file('changed-recent.csv', readFileSync(sales, 'utf8').replace(',10000,', ',12000,'));
    expect(await json('import', 'sales', changed, '--org', ws.slug, '--dry-run')).not.toHaveProperty('revalued');
    expect(await json('import', 'sales', changed, '--org', ws.slug)).toMatchObject({
      updated: 1,
      revalued: { valued: 1, unchanged: 0, withoutBasis: 0 },
    });
    expect((await valuations(item.id)).map((v) => v.estimateInCents)).toEqual([20_000, 20_000]);
  });

  it('imports the images sample twice: each item named gets exactly its rows, in order, with one item.updated', async () => {
    const ws = await createTestOrganization(sql());
    const api = await freshApi(ctx.server, ws);
    const morgan = await createItem(api, { sku: 'MOR-1881-S-65', title: '1881-S Morgan Dollar' });
    const eagle = await createItem(api, { sku: 'ASE-2024-BU', title: 'Silver Eagle' });
    const untouched = await createItem(api, { sku: 'OTHER', title: 'Not in the file' });
    const cursor = ((await api.get('/changes/cursor')).body as { cursor: string }).cursor;

    expect(await json('import', 'images', IMAGES, '--org', ws.slug)).toMatchObject({
      rows: 4,
      created: 4,
      updated: 0,
      unchanged: 0,
      rejected: [],
    });
    expect(await json('import', 'images', IMAGES, '--org', ws.slug)).toMatchObject({ created: 0, unchanged: 4 });

    const expected = new Map<string, Array<{ url: string; width: number | null; height: number | null }>>();
    for (const row of csvObjects(IMAGES)) {
      const image = {
        url: row.url as string,
        width: row.width ? Number(row.width) : null,
        height: row.height ? Number(row.height) : null,
      };
      expected.set(row.sku as string, [...(expected.get(row.sku as string) ?? []), image]);
    }
    expect((await getItem(api, morgan.id)).images).toEqual(expected.get('MOR-1881-S-65'));
    expect((await getItem(api, eagle.id)).images).toEqual(expected.get('ASE-2024-BU'));
    expect((await getItem(api, untouched.id)).images).toEqual([]);
    // One change per item whose images changed, carrying the item as GET shows it; none for the second import.
    const changes = ChangeListSchema.parse((await api.get(`/changes?after=${cursor}`)).body).items;
    expect(changes.map((change) => [change.type, change.objectId])).toEqual([
      ['item.updated', morgan.id],
      ['item.updated', eagle.id],
    ]);
    expect(changes[0]?.data).toEqual(await getItem(api, morgan.id));

    // A file naming an item that does not exist is refused for that row, and nothing is written.
    const unknown = file(
      'unknown-sku.csv',
      'sku,url\nNO-SUCH-SKU,https://images.example/1.jpg\nOTHER,https://images.example/2.jpg\n',
    );
    const refused = await run('import', 'images', unknown, '--org', ws.slug);
    expect(refused.exitCode).toBe(EXIT.refused);
    expect(refused.stderr).toContain('  row 2: sku: no item with SKU "NO-SUCH-SKU"');
    expect((await getItem(api, untouched.id)).images).toEqual([]);

    // An item deleted after the rows were checked (here: the write is given a SKU no item has) refuses the import.
    await expect(
      sql().begin((tx) =>
        IMAGES_IMPORT.write(tx, ws.organizationId, [
          { sku: 'OTHER', url: 'https://images.example/3.jpg', width: null, height: null },
          { sku: 'DELETED-MEANWHILE', url: 'https://images.example/4.jpg', width: null, height: null },
        ]),
      ),
    ).rejects.toThrow('No item with SKU "DELETED-MEANWHILE" any more (deleted during the import); nothing imported.');
    expect((await getItem(api, untouched.id)).images).toEqual([]);
  });
});
