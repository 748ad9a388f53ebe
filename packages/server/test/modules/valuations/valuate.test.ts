import { ChangeListSchema, type Valuation, ValuationListSchema } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { identityOf } from '../../../src/modules/valuations/index.js';
import { EXIT, executeOperatorCommand } from '../../../src/operator/index.js';
import { expectStatus } from '../../support/http.js';
import { type Api, createItem, freshApi, getItem } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * `coinventory-server valuate` end to end: sales in the database, the command run as the operator socket runs it, the
 * valuation read back through the API. The figures are the engine fixture's (engine.test.ts), worked out by hand.
 */

const DAY_MS = 86_400_000;
const TITLE = '1881-S Morgan Dollar';

describe('valuate, run in-process on the suite’s database', () => {
  const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  const sql = (): Sql => ctx.server.database.sql;
  const run = (...argv: string[]) => executeOperatorCommand(argv, sql());
  const ok = (output: { exitCode: number; stdout: string; stderr: string }) => {
    expect(output.exitCode, output.stderr).toBe(EXIT.ok);
    expect(output.stderr).toBe('');
    return output.stdout;
  };
  const fresh = async (): Promise<{ ws: TestOrganization; api: Api }> => {
    const ws = await createTestOrganization(sql());
    return { ws, api: await freshApi(ctx.server, ws) };
  };

  /** A sale `daysAgo` days before now, of the Morgan unless told otherwise. */
  async function addSale(
    organizationId: string,
    sale: { grade: string; price: number; daysAgo: number; service?: string; coin?: string },
  ) {
    const soldAt = new Date(Date.now() - sale.daysAgo * DAY_MS);
    const coin = sale.coin ?? TITLE;
    const row = {
      source: 'auction_archive',
      title: `${coin} ${sale.service ?? 'PCGS'} ${sale.grade}`,
      grade: sale.grade,
      gradingService: sale.service ?? 'PCGS',
      priceInCents: sale.price,
      soldAt: soldAt.toISOString().slice(0, 10),
      venue: 'Heritage',
      url: `https://heritage.example/lots/${sale.grade}-${sale.price}-${sale.daysAgo}`,
    };
    await sql()`
      INSERT INTO comparable_sales (
        organization_id, source, external_id, coin, coin_identity, title, grading_service, grade, price_in_cents,
        sold_at, sold_at_text, venue, url
      ) VALUES (
        ${organizationId}, ${row.source}, ${row.url}, ${coin}, ${identityOf(coin)}, ${row.title}, ${row.gradingService},
        ${row.grade}, ${row.priceInCents}, ${soldAt}, ${row.soldAt}, ${row.venue}, ${row.url}
      )
    `;
    return row;
  }

  async function valuations(api: Api, itemId: string): Promise<Valuation[]> {
    const response = await api.get(`/items/${itemId}/valuations`);
    expectStatus(response, 200);
    return ValuationListSchema.parse(response.body).items;
  }

  it('values an item from its comparable sales; the API shows the estimate, range, confidence and comps', async () => {
    const { ws, api } = await fresh();
    ok(await run('spot', 'set', '--metal', 'Silver', '--usd-per-oz', '38'));
    const item = await createItem(api, {
      sku: uniqueSku('VAL'),
      title: TITLE,
      gradingService: 'PCGS',
      grade: 'MS65',
      valueInCents: 20_000,
      attributes: { metal: 'silver', fineness: 0.9, weightGrams: 26.73 },
    });
    const A = await addSale(ws.organizationId, { grade: 'MS65', price: 24_000, daysAgo: 31 });
    const D = await addSale(ws.organizationId, { grade: 'MS65', price: 26_200, daysAgo: 365 });
    const C = await addSale(ws.organizationId, { grade: 'MS65', price: 27_000, daysAgo: 180 });
    const B = await addSale(ws.organizationId, { grade: 'MS65', price: 25_500, daysAgo: 91 });
    // Not comparables: another grading service, too old, another coin, one grade step away (not needed).
    await addSale(ws.organizationId, { grade: 'MS65', price: 30_000, daysAgo: 20, service: 'NGC' });
    await addSale(ws.organizationId, { grade: 'MS65', price: 50_000, daysAgo: 761 });
    await addSale(ws.organizationId, { grade: 'MS65', price: 70_000, daysAgo: 10, coin: '1881-O Morgan Dollar' });
    await addSale(ws.organizationId, { grade: 'MS64', price: 11_000, daysAgo: 5 });

    const cursor = (await api.get('/changes/cursor')).body as { cursor: string };
    const result = JSON.parse(ok(await run('valuate', '--org', ws.slug, '--item', item.sku, '--json')));
    const [valuation, ...others] = await valuations(api, item.id);
    expect(others).toEqual([]);
    expect(result).toEqual({
      organization: { id: ws.organizationId, slug: ws.slug },
      valued: [
        {
          itemId: item.id,
          sku: item.sku,
          valuationId: valuation?.id,
          basis: 'comps',
          estimateInCents: 25_850,
          confidencePercent: 70,
          applied: false,
        },
      ],
      unchanged: [],
      skipped: [],
    });
    expect(valuation).toEqual({
      id: expect.any(String),
      itemId: item.id,
      estimateLowInCents: 25_125,
      estimateInCents: 25_850,
      estimateHighInCents: 26_400,
      confidencePercent: 70,
      basis: 'comps',
      priceGuideValueInCents: null,
      meltValueInCents: 2_939,
      summary: 'Median of 4 comparable PCGS MS65 sales: $258.50, range $251.25 to $264.00.',
      comps: [A, B, C, D],
      appliedAt: null,
      createdAt: expect.any(String),
    });
    // Without --apply the item keeps its value: the feed has the valuation, exactly as listed, and no item change.
    expect((await getItem(api, item.id)).valueInCents).toBe(20_000);
    const changes = ChangeListSchema.parse((await api.get(`/changes?after=${cursor.cursor}`)).body);
    expect(changes.items.map((change) => [change.type, change.objectId, change.data])).toEqual([
      ['valuation.created', valuation?.id, valuation],
    ]);

    // Valued again with nothing new: that valuation stands; nothing is recorded, in the list or the feed.
    const again = JSON.parse(ok(await run('valuate', '--org', ws.slug, '--item', item.sku, '--json')));
    expect(again).toMatchObject({
      valued: [],
      unchanged: [{ itemId: item.id, sku: item.sku, valuationId: valuation?.id }],
      skipped: [],
    });
    expect(await valuations(api, item.id)).toEqual([valuation]);
    const after = ChangeListSchema.parse((await api.get(`/changes?after=${changes.nextCursor}`)).body);
    expect(after.items).toEqual([]);
    // Applying it is something new: a valuation recorded as applied, and the item's value.
    const applied = JSON.parse(ok(await run('valuate', '--org', ws.slug, '--item', item.sku, '--apply', '--json')));
    expect(applied).toMatchObject({ valued: [{ estimateInCents: 25_850, applied: true }], unchanged: [] });
    expect((await getItem(api, item.id)).valueInCents).toBe(25_850);
  });

  it('--apply makes the estimate the item value, with an item.updated change, and records when', async () => {
    const { ws, api } = await fresh();
    const item = await createItem(api, { sku: uniqueSku('VAL'), title: TITLE, gradingService: 'PCGS', grade: 'MS65' });
    for (const [price, daysAgo] of [
      [24_000, 31],
      [25_500, 91],
      [27_000, 180],
    ] as const) {
      await addSale(ws.organizationId, { grade: 'MS65', price, daysAgo });
    }
    const cursor = (await api.get('/changes/cursor')).body as { cursor: string };

    ok(await run('valuate', '--org', ws.organizationId, '--item', item.id, '--apply'));
    const [valuation] = await valuations(api, item.id);
    expect(valuation?.estimateInCents).toBe(25_500); // the median of three
    expect(valuation?.appliedAt).not.toBeNull();
    const updated = await getItem(api, item.id);
    expect(updated.valueInCents).toBe(25_500);
    // The change is stamped with its transaction's start, which is also when the valuation was applied.
    expect(updated.updatedAt).toBe(valuation?.appliedAt);

    const changes = ChangeListSchema.parse((await api.get(`/changes?after=${cursor.cursor}`)).body);
    // The valuation first (as listed, applied), then the item it changed, both of the run's one transaction.
    expect(changes.items.map((change) => [change.type, change.objectId])).toEqual([
      ['valuation.created', valuation?.id],
      ['item.updated', item.id],
    ]);
    expect(changes.items[0]?.data).toEqual(valuation);
    expect(changes.items[0]?.occurredAt).toBe(valuation?.createdAt);
    expect(changes.items[1]?.data).toEqual(updated);
  });

  it('falls back to the price guide, then to melt; --all values every item and names those it could not', async () => {
    const { ws, api } = await fresh();
    ok(await run('spot', 'set', '--metal', 'silver', '--usd-per-oz', '38.00'));
    const guided = await createItem(api, { sku: 'A-GUIDED', title: TITLE, gradingService: 'PCGS', grade: 'MS65' });
    const bullion = await createItem(api, {
      sku: 'B-BULLION',
      title: 'Silver round',
      attributes: { metal: 'silver', fineness: 0.9, weightGrams: 26.73 },
    });
    const unknown = await createItem(api, { sku: 'C-UNKNOWN', title: 'An unattributed token' });
    await addSale(ws.organizationId, { grade: 'MS65', price: 24_000, daysAgo: 31 });
    await sql()`
      INSERT INTO price_guide_entries (organization_id, coin_identity, grade_key, coin, grade, value_in_cents)
      VALUES (${ws.organizationId}, ${identityOf(TITLE)}, 'MS65', ${TITLE}, 'MS 65', 30000)
    `;

    const text = ok(await run('valuate', '--org', ws.slug, '--all'));
    expect(text).toBe(
      [
        'ITEM       BASIS        ESTIMATE  CONFIDENCE  APPLIED',
        'A-GUIDED   price_guide  $300.00   50%         no',
        'B-BULLION  melt         $29.39    40%         no',
        '',
        `2 items valued in ${ws.slug}; 1 not valued, each with why below.`,
        '  C-UNKNOWN: no grade, so no sale compares (no sales of its coin in the last 730 days); no price guide value' +
          ' (it needs a grade); no melt value (attributes needed: metal, fineness (above 0, at most 1), weightGrams' +
          ' (above 0)).',
        '',
      ].join('\n'),
    );
    expect(await valuations(api, guided.id)).toMatchObject([
      {
        basis: 'price_guide',
        estimateInCents: 30_000,
        priceGuideValueInCents: 30_000,
        comps: [],
        summary:
          'Price guide value for MS65: $300.00, range $270.00 to $330.00; 1 comparable sale, fewer than the 3 an estimate from sales needs.',
      },
    ]);
    expect(await valuations(api, bullion.id)).toMatchObject([{ basis: 'melt', meltValueInCents: 2_939 }]);
    expect(await valuations(api, unknown.id)).toEqual([]);
    expect(ok(await run('spot', 'list'))).toMatch(/^METAL +USD PER OZ +SET AT\nsilver +\$38\.00 +\d{4}-/);
  });

  it('says why an item could not be valued: the sales found by grading service, the minimum, the window', async () => {
    const { ws, api } = await fresh();
    const coin = { coin: TITLE, service: 'NGC' };
    // Two NGC sales within one step of MS63 (3 needed); four PCGS ones, another grading service; and NGC sales that
    // do not compare: a proof, one two steps away, one older than the window.
    await addSale(ws.organizationId, { ...coin, grade: 'MS63', price: 10_000, daysAgo: 10 });
    await addSale(ws.organizationId, { ...coin, grade: 'MS64', price: 12_000, daysAgo: 20 });
    for (const daysAgo of [5, 6, 7, 8]) await addSale(ws.organizationId, { grade: 'MS63', price: 9_000, daysAgo });
    await addSale(ws.organizationId, { ...coin, grade: 'PR63', price: 50_000, daysAgo: 10 });
    await addSale(ws.organizationId, { ...coin, grade: 'MS65', price: 30_000, daysAgo: 10 });
    await addSale(ws.organizationId, { ...coin, grade: 'MS63', price: 8_000, daysAgo: 731 });
    // A coin of a metal with no spot price: its attributes are complete, the price is what is missing.
    const attributes = { metal: 'Orichalcum', fineness: 0.9, weightGrams: 26.73 };
    await createItem(api, { sku: 'A-NGC', title: TITLE, gradingService: 'NGC', grade: 'MS63', attributes });
    await createItem(api, { sku: 'B-RAW', title: TITLE, grade: 'MS63' });

    expect(ok(await run('valuate', '--org', ws.slug, '--all'))).toBe(
      [
        `0 items valued in ${ws.slug}; 2 not valued, each with why below.`,
        '  A-NGC: 2 NGC sales of its coin within one grade step of MS63 in the last 730 days, 3 needed (other grading' +
          ' services do not count: 4 PCGS); no price guide value for MS63; no melt value: no spot price for orichalcum' +
          ' (coinventory-server spot set).',
        '  B-RAW: no grading service, so no sale compares (sales of its coin within one grade step of MS63 in the last' +
          ' 730 days: 4 PCGS, 2 NGC); no price guide value for MS63; no melt value (attributes needed: metal, fineness' +
          ' (above 0, at most 1), weightGrams (above 0)).',
        '',
      ].join('\n'),
    );
    const result = JSON.parse(ok(await run('valuate', '--org', ws.slug, '--item', 'A-NGC', '--json')));
    expect(result.skipped).toEqual([
      {
        itemId: expect.any(String),
        sku: 'A-NGC',
        reason: expect.stringMatching(/^2 NGC sales of its coin within one grade step of MS63 in the last 730 days/),
        sales: { byGradingService: { NGC: 2, PCGS: 4 }, needed: 3, windowDays: 730 },
      },
    ]);
    // One more NGC sale and the same item is valued from sales: the count said what was missing.
    await addSale(ws.organizationId, { ...coin, grade: 'MS62', price: 9_500, daysAgo: 30 });
    expect(JSON.parse(ok(await run('valuate', '--org', ws.slug, '--item', 'A-NGC', '--json'))).valued).toMatchObject([
      { sku: 'A-NGC', basis: 'comps' },
    ]);
  });

  it('refuses what it cannot do, naming the option, and values nothing', async () => {
    const { ws } = await fresh();
    for (const [argv, message] of [
      [['valuate', '--org', ws.slug], 'valuate needs --item <id|sku> or --all; give one of them'],
      [
        ['valuate', '--org', ws.slug, '--all', '--item', 'X'],
        'valuate takes --item or --all, not both; give one of them',
      ],
    ] as const) {
      const output = await run(...argv);
      expect(output.exitCode).toBe(EXIT.usage);
      expect(output.stderr).toBe(`coinventory-server: ${message}\n`);
    }
    const missing = await run('valuate', '--org', ws.slug, '--item', 'NO-SUCH-SKU');
    expect(missing).toEqual({
      exitCode: EXIT.notFound,
      stdout: '',
      stderr: `No item with id or SKU "NO-SUCH-SKU" in ${ws.slug}.\n`,
    });
    for (const price of ['abc', '0', '1.234', '-5']) {
      const output = await run('spot', 'set', '--metal', 'silver', '--usd-per-oz', price);
      expect(output.exitCode, price).toBe(EXIT.usage);
      expect(output.stderr).toContain(
        price === '-5' ? '--usd-per-oz needs a value, and "-5" follows it' : 'invalid --usd-per-oz',
      );
    }
    const [row] = await sql()<{ n: number }[]>`
      SELECT count(*)::int AS n FROM valuations WHERE organization_id = ${ws.organizationId}
    `;
    expect(row?.n).toBe(0);
  });

  it('goes on past an item that is gone when its valuation is written, and values the others', async () => {
    const { ws, api } = await fresh();
    ok(await run('spot', 'set', '--metal', 'silver', '--usd-per-oz', '38'));
    const silver = { metal: 'silver', fineness: 0.9, weightGrams: 26.73 };
    const gone = await createItem(api, { sku: 'A-GONE', title: 'Silver round', attributes: silver });
    const kept = await createItem(api, { sku: 'B-KEPT', title: 'Silver round', attributes: silver });
    // A-GONE is gone when its valuation is written, as if the API had deleted it after the run read the items (the
    // trigger's delete rolls back with the valuation, so the item stays for the assertions).
    await sql().unsafe(`
      CREATE FUNCTION test_delete_before_valuation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM items WHERE organization_id = NEW.organization_id AND id = NEW.item_id AND sku = 'A-GONE';
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_delete_before_valuation BEFORE INSERT ON valuations
        FOR EACH ROW EXECUTE FUNCTION test_delete_before_valuation();
    `);
    try {
      const result = JSON.parse(ok(await run('valuate', '--org', ws.slug, '--all', '--json')));
      expect(result.valued.map((v: { sku: string }) => v.sku)).toEqual(['B-KEPT']);
      expect(await valuations(api, kept.id)).toHaveLength(1);
      expect(await valuations(api, gone.id)).toEqual([]);
    } finally {
      await sql().unsafe(`
        DROP TRIGGER test_delete_before_valuation ON valuations;
        DROP FUNCTION test_delete_before_valuation();
      `);
    }
  });
});
