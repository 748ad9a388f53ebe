import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CategoryListSchema,
  type Change,
  type Consignment,
  ConsignmentListSchema,
  ConsignmentSchema,
  type Invoice,
  InvoiceListSchema,
  InvoiceSchema,
  type Item,
  SOLD_INVOICE_STATUSES,
  WarehouseListSchema,
} from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { EXIT } from '../../../src/operator/index.js';
import { feedCursor, readToEnd } from '../../support/changes.js';
import { expectStatus } from '../../support/http.js';
import { csvObjects, importFiles, operatorCommands, SAMPLES } from '../../support/imports.js';
import { type Api, createItem, freshApi, getItem } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * `coinventory-server import <kind> FILE` for a dealer's records (categories, warehouses, zones, consignors,
 * consignments, consignment-items, customers, invoices, invoice-lines, invoice-payments): each sample
 * (packages/server/samples/imports) imported twice, in the README's order, leaves one copy of each record, and the API
 * shows each exactly as the files have it; each import records its changes in the feed (data as GET shows the object
 * right after it), the second none; a changed file updates what it names; a bad file is refused row by row and
 * changes nothing.
 */

const { folder: work, file } = importFiles('record-imports');

type Row = Record<string, string>;

/** An NDJSON file as records of field name to value, as text (absent when null). */
function ndjsonObjects(path: string): Row[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) =>
      Object.fromEntries(
        Object.entries(JSON.parse(line) as Record<string, unknown>).flatMap(([key, value]) =>
          value === null ? [] : [[key, String(value)]],
        ),
      ),
    );
}

/** The kinds of records, in the order the samples' README lists them (what depends on what). */
const KINDS = [
  'categories',
  'warehouses',
  'zones',
  'consignors',
  'consignments',
  'consignment-items',
  'customers',
  'invoices',
  'invoice-lines',
  'invoice-payments',
] as const;
type Kind = (typeof KINDS)[number];

/** The README's table: `| \`file\` | \`kind\` | needs first |`, in order. */
const README = readFileSync(join(SAMPLES, 'README.md'), 'utf8')
  .split('\n')
  .flatMap((line) => {
    const match = /^\| `([\w-]+\.(?:csv|ndjson))` \| `([\w-]+)` \|/.exec(line);
    return match ? [{ file: match[1] as string, kind: match[2] as string }] : [];
  });
const ORDER = README.filter((entry): entry is { file: string; kind: Kind } =>
  (KINDS as readonly string[]).includes(entry.kind),
);
const path = (kind: Kind) => join(SAMPLES, ORDER.find((entry) => entry.kind === kind)?.file ?? `${kind}.csv`);
const rowsOf = (kind: Kind) => (path(kind).endsWith('.csv') ? csvObjects(path(kind)) : ndjsonObjects(path(kind)));
const S = Object.fromEntries(KINDS.map((kind) => [kind, rowsOf(kind)])) as Record<Kind, Row[]>;

/** The rows each sample has (the counts are the samples', written out so a shortened file shows here). */
const SAMPLE_ROWS: Record<Kind, number> = {
  categories: 4,
  warehouses: 2,
  zones: 4,
  consignors: 3,
  consignments: 3,
  'consignment-items': 3,
  customers: 3,
  invoices: 3,
  'invoice-lines': 4,
  'invoice-payments': 3,
};

/** The items the samples name (README), with values for the consignments' totals. */
const SAMPLE_ITEMS = [
  { sku: 'ELL-1881-S-65', title: '1881-S Morgan Dollar PCGS MS65', valueInCents: 32_000 },
  { sku: 'ELL-1884-O-64', title: '1884-O Morgan Dollar PCGS MS64', valueInCents: 17_500 },
  { sku: 'BRA-1924-P-63', title: '1924 Saint-Gaudens Double Eagle NGC MS63', valueInCents: 255_000 },
];

/** A date as the API shows it: a day is midnight UTC, a date-time with an offset is normalised to Z. */
const at = (text: string | undefined): string | null =>
  text === undefined ? null : /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : new Date(text).toISOString();
const num = (text: string | undefined): number | null => (text === undefined ? null : Number(text));
const newestFirst = <T extends { createdAt: string }>(list: T[]) =>
  [...list].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
const pairs = (changes: readonly Change[]) => changes.map((change) => [change.type, change.objectId]).sort();

describe('operator imports of records, run in-process on the suite’s database', () => {
  const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  const sql = (): Sql => ctx.server.database.sql;
  const { run, json } = operatorCommands(sql);

  /** A fresh organization with the items the samples name, created through the API. */
  async function setUp(): Promise<{ ws: TestOrganization; api: Api; items: Map<string, Item> }> {
    const ws = await createTestOrganization(sql());
    const api = await freshApi(ctx.server, ws);
    const items = new Map<string, Item>();
    for (const item of SAMPLE_ITEMS) items.set(item.sku, await createItem(api, item));
    return { ws, api, items };
  }

  async function importSamples(ws: TestOrganization): Promise<void> {
    for (const kind of KINDS) await json('import', kind, path(kind), '--org', ws.slug);
  }

  /** The organization's records by their natural key (external id, number), as the database keys them. */
  async function ids(ws: TestOrganization) {
    const db = sql();
    const keyed = async (table: 'categories' | 'consignors' | 'customers') =>
      new Map(
        (
          await db<{ key: string; id: string }[]>`
            SELECT external_id AS key, id::text FROM ${db(table)}
            WHERE organization_id = ${ws.organizationId} AND external_id IS NOT NULL
          `
        ).map((row) => [row.key, row.id]),
      );
    const numbered = async (table: 'consignments' | 'invoices') =>
      new Map(
        (
          await db<{ key: string; id: string }[]>`
            SELECT number::text AS key, id::text FROM ${db(table)} WHERE organization_id = ${ws.organizationId}
          `
        ).map((row) => [row.key, row.id]),
      );
    return {
      categories: await keyed('categories'),
      consignors: await keyed('consignors'),
      customers: await keyed('customers'),
      consignments: await numbered('consignments'),
      invoices: await numbered('invoices'),
    };
  }

  /** How many records of each table the organization holds. */
  async function counts(ws: TestOrganization) {
    const [row] = await sql()<Record<string, number>[]>`
      SELECT
        (SELECT count(*)::int FROM categories WHERE organization_id = ${ws.organizationId}) AS categories,
        (SELECT count(*)::int FROM warehouses WHERE organization_id = ${ws.organizationId}) AS warehouses,
        (SELECT count(*)::int FROM zones WHERE organization_id = ${ws.organizationId}) AS zones,
        (SELECT count(*)::int FROM consignors WHERE organization_id = ${ws.organizationId}) AS consignors,
        (SELECT count(*)::int FROM consignments WHERE organization_id = ${ws.organizationId}) AS consignments,
        (SELECT count(*)::int FROM items WHERE organization_id = ${ws.organizationId} AND consignment_id IS NOT NULL)
          AS consigned_items,
        (SELECT count(*)::int FROM customers WHERE organization_id = ${ws.organizationId}) AS customers,
        (SELECT count(*)::int FROM invoices WHERE organization_id = ${ws.organizationId}) AS invoices,
        (SELECT count(*)::int FROM invoice_lines WHERE organization_id = ${ws.organizationId}) AS invoice_lines,
        (SELECT count(*)::int FROM invoice_payments WHERE organization_id = ${ws.organizationId}) AS invoice_payments
    `;
    return row;
  }

  const consignmentList = async (api: Api) => {
    const response = await api.get('/consignments?limit=100');
    expectStatus(response, 200);
    return ConsignmentListSchema.parse(response.body);
  };
  const invoiceList = async (api: Api) => {
    const response = await api.get('/invoices?limit=100');
    expectStatus(response, 200);
    return InvoiceListSchema.parse(response.body);
  };
  const warehouseList = async (api: Api) => {
    const response = await api.get('/warehouses?limit=100');
    expectStatus(response, 200);
    return WarehouseListSchema.parse(response.body);
  };
  const categoryList = async (api: Api) => {
    const response = await api.get('/categories?limit=100');
    expectStatus(response, 200);
    return CategoryListSchema.parse(response.body);
  };
  const consignment = async (api: Api, id: string): Promise<Consignment> => {
    const response = await api.get(`/consignments/${id}`);
    expectStatus(response, 200);
    return ConsignmentSchema.parse(response.body);
  };
  const invoice = async (api: Api, id: string): Promise<Invoice> => {
    const response = await api.get(`/invoices/${id}`);
    expectStatus(response, 200);
    return InvoiceSchema.parse(response.body);
  };
  /** The object a change is about, as its GET returns it now. */
  const current = (api: Api, change: Change): Promise<unknown> =>
    change.type.startsWith('consignment.')
      ? consignment(api, change.objectId)
      : change.type.startsWith('invoice.')
        ? invoice(api, change.objectId)
        : getItem(api, change.objectId);
  /** Each change's data is its object as GET returns it now (right after the import that made it). */
  const expectDataCurrent = async (api: Api, changes: readonly Change[]) => {
    for (const change of changes)
      expect(change.data, `${change.type} ${change.objectId}`).toEqual(await current(api, change));
  };

  /** What the API, the database and the feed show of an organization: a bad file must leave all of it as it was. */
  const everything = async (ws: TestOrganization, api: Api) => ({
    counts: await counts(ws),
    categories: await categoryList(api),
    warehouses: await warehouseList(api),
    consignments: await consignmentList(api),
    invoices: await invoiceList(api),
    items: await Promise.all(
      (await sql()<{ id: string }[]>`SELECT id::text FROM items WHERE organization_id = ${ws.organizationId}`).map(
        (row) => getItem(api, row.id),
      ),
    ),
    cursor: await feedCursor(api),
  });

  it('the README lists every kind of record, in the order they depend on one another', () => {
    expect(ORDER.map((entry) => entry.kind)).toEqual([...KINDS]);
    for (const kind of KINDS) expect(S[kind].length, kind).toBe(SAMPLE_ROWS[kind]);
  });

  it('imports each sample twice in the README’s order: one copy of each record, as the files have it, its changes recorded once', async () => {
    const { ws, api, items } = await setUp();
    const itemId = (sku: string) => items.get(sku)?.id as string;

    // ── first pass: every row created, and the changes each import makes, with the objects as GET shows them then.
    const created: Partial<Record<Kind, Change[]>> = {};
    const windows: Partial<Record<Kind, { from: number; to: number }>> = {};
    for (const kind of KINDS) {
      const cursor = await feedCursor(api);
      const from = Date.now();
      const first = await json('import', kind, path(kind), '--org', ws.slug);
      windows[kind] = { from, to: Date.now() };
      expect(first, kind).toEqual({
        kind,
        file: ORDER.find((entry) => entry.kind === kind)?.file,
        organization: { id: ws.organizationId, slug: ws.slug },
        dryRun: false,
        rows: SAMPLE_ROWS[kind],
        created: SAMPLE_ROWS[kind],
        updated: 0,
        unchanged: 0,
        ...(kind === 'invoice-lines' && { removed: 0 }),
        rejected: [],
      });
      const { changes } = await readToEnd(api, cursor);
      const known = await ids(ws);
      const consignmentId = (number: string) => known.consignments.get(number) as string;
      const invoiceId = (number: string) => known.invoices.get(number) as string;
      const distinct = (values: string[]) => [...new Set(values)];
      const expected: Record<Kind, Array<[Change['type'], string]>> = {
        categories: [],
        warehouses: [],
        zones: [],
        consignors: [],
        consignments: S.consignments.map((row) => ['consignment.created', consignmentId(row.number as string)]),
        'consignment-items': [
          ...S['consignment-items'].map((row): [Change['type'], string] => ['item.updated', itemId(row.sku as string)]),
          ...distinct(S['consignment-items'].map((row) => row.consignment as string)).map(
            (number): [Change['type'], string] => ['consignment.updated', consignmentId(number)],
          ),
        ],
        customers: [],
        invoices: S.invoices.map((row) => ['invoice.created', invoiceId(row.number as string)]),
        'invoice-lines': [
          ...distinct(S['invoice-lines'].map((row) => row.invoice as string)).map(
            (number): [Change['type'], string] => ['invoice.updated', invoiceId(number)],
          ),
          // A line of a sold invoice sells its item: the item's consignment totals move.
          ...distinct(
            S['invoice-lines']
              .filter((line) =>
                (SOLD_INVOICE_STATUSES as readonly string[]).includes(
                  S.invoices.find((row) => row.number === line.invoice)?.status as string,
                ),
              )
              .flatMap((line) => S['consignment-items'].filter((link) => link.sku === line.sku))
              .map((link) => link.consignment as string),
          ).map((number): [Change['type'], string] => ['consignment.updated', consignmentId(number)]),
        ],
        'invoice-payments': distinct(S['invoice-payments'].map((row) => row.invoice as string)).map((number) => [
          'invoice.updated',
          invoiceId(number),
        ]),
      };
      expect(pairs(changes), kind).toEqual(expected[kind].sort());
      await expectDataCurrent(api, changes);
      created[kind] = changes;
    }
    // The consignments' changes were read before their items came: they held none then.
    expect(created.consignments?.map((change) => (change.data as Consignment).numItems)).toEqual([0, 0, 0]);

    // ── second pass: every file again, all unchanged, and not one change in the feed.
    const beforeSecond = await feedCursor(api);
    for (const kind of KINDS) {
      expect(await json('import', kind, path(kind), '--org', ws.slug), kind).toMatchObject({
        rows: SAMPLE_ROWS[kind],
        created: 0,
        updated: 0,
        unchanged: SAMPLE_ROWS[kind],
        ...(kind === 'invoice-lines' && { removed: 0 }),
        rejected: [],
      });
    }
    expect((await readToEnd(api, beforeSecond)).changes).toEqual([]);

    // ── one copy of each record.
    const sampleItems = S['consignment-items'].length;
    expect(await counts(ws)).toEqual({
      categories: S.categories.length,
      warehouses: S.warehouses.length + 1, // and the organization's own
      zones: S.zones.length + 1,
      consignors: S.consignors.length,
      consignments: S.consignments.length,
      consigned_items: sampleItems,
      customers: S.customers.length,
      invoices: S.invoices.length,
      invoice_lines: S['invoice-lines'].length,
      invoice_payments: S['invoice-payments'].length,
    });
    const known = await ids(ws);
    // Each item the links moved was in its consignment when its change was read.
    expect(
      created['consignment-items']
        ?.filter((change) => change.type === 'item.updated')
        .map((change) => [change.objectId, (change.data as Item).consignmentId])
        .sort(),
    ).toEqual(
      S['consignment-items']
        .map((link) => [itemId(link.sku as string), known.consignments.get(link.consignment as string)])
        .sort(),
    );

    // ── categories: by name (byte order), each under its external id; an item given one shows its name.
    const categories = await categoryList(api);
    expect(categories.items.map((category) => category.name)).toEqual(S.categories.map((row) => row.name).sort());
    for (const row of S.categories) {
      expect(
        categories.items.find((category) => category.id === known.categories.get(row.externalId as string)),
      ).toEqual({ id: known.categories.get(row.externalId as string), name: row.name });
    }
    const ancients = known.categories.get('CAT-03') as string;
    expectStatus(await api.patch(`/items/${itemId('ELL-1881-S-65')}`, { body: { categoryId: ancients } }), 200);
    expect((await getItem(api, itemId('ELL-1881-S-65'))).category).toEqual({
      id: ancients,
      name: 'Ancients, Greek and Roman',
    });

    // ── warehouses: the organization's own first, then by name, each with its zones in file order.
    const warehouses = await warehouseList(api);
    expect(
      warehouses.items.map((warehouse) => ({
        name: warehouse.name,
        isDefault: warehouse.isDefault,
        zones: warehouse.zones.map((zone) => zone.name),
      })),
    ).toEqual([
      { name: 'Main', isDefault: true, zones: ['Receiving'] },
      ...S.warehouses
        .map((row) => ({
          name: row.name,
          isDefault: false,
          zones: S.zones.filter((zone) => zone.warehouse === row.externalId).map((zone) => zone.name),
        }))
        .sort((a, b) => ((a.name as string) < (b.name as string) ? -1 : 1)),
    ]);
    expect(warehouses.items.find((w) => w.name === 'Main Street Showroom')?.zones.map((zone) => zone.name)).toEqual([
      'Showroom case A',
      'Showroom case B',
      'Back office safe',
    ]);

    // ── consignments: every field from the files, the totals from the linked items and the invoices' lines.
    const consignors = new Map(S.consignors.map((row) => [row.externalId as string, row]));
    const invoiceStatus = new Map(S.invoices.map((row) => [row.number as string, row.status as string]));
    const undatedConsignment = created.consignments?.find(
      (change) => (change.data as Consignment).number === 'C-2026-103',
    )?.data as Consignment;
    expect(Date.parse(undatedConsignment.createdAt)).toBeGreaterThanOrEqual((windows.consignments?.from ?? 0) - 2_000);
    expect(Date.parse(undatedConsignment.createdAt)).toBeLessThanOrEqual((windows.consignments?.to ?? 0) + 2_000);
    const expectedConsignments = S.consignments.map((row): Consignment => {
      const held = S['consignment-items'].filter((link) => link.consignment === row.number).map((link) => link.sku);
      const sold = S['invoice-lines']
        .filter((line) => line.sku !== undefined && held.includes(line.sku))
        .filter((line) =>
          (SOLD_INVOICE_STATUSES as readonly string[]).includes(invoiceStatus.get(line.invoice as string) as string),
        )
        .reduce((sum, line) => sum + Number(line.quantity) * Number(line.unitPriceInCents), 0);
      const commission = Math.round((sold * (num(row.commissionBps) ?? 0)) / 10_000);
      const consignor = row.consignor === undefined ? undefined : consignors.get(row.consignor);
      return {
        id: known.consignments.get(row.number as string) as string,
        number: row.number as string,
        name: row.name ?? null,
        status: row.status as string,
        paymentStatus: row.paymentStatus ?? null,
        consignor:
          consignor === undefined
            ? null
            : {
                id: known.consignors.get(consignor.externalId as string) as string,
                name: consignor.name ?? null,
                email: consignor.email ?? null,
              },
        commissionBps: num(row.commissionBps),
        buyerPremiumBps: num(row.buyerPremiumBps),
        numItems: held.length,
        numItemsSold: 0,
        totalValueInCents: held.reduce(
          (sum, sku) => sum + (SAMPLE_ITEMS.find((item) => item.sku === sku)?.valueInCents ?? Number.NaN),
          0,
        ),
        totalSoldInCents: sold,
        totalCommissionInCents: commission,
        totalPayoutInCents: sold - commission,
        receivedAt: at(row.receivedAt),
        soldAt: at(row.soldAt),
        settledAt: at(row.settledAt),
        // Absent: set when the import created it, and kept by the second.
        createdAt: at(row.createdAt) ?? undatedConsignment.createdAt,
      };
    });
    const consignments = await consignmentList(api);
    expect(consignments.items).toEqual(newestFirst(expectedConsignments));
    for (const expected of expectedConsignments) expect(await consignment(api, expected.id)).toEqual(expected);
    // The expectations above, worked by hand for two of them.
    expect(expectedConsignments[0]).toMatchObject({
      number: 'C-2026-101',
      consignor: { name: 'Margaret Ellison', email: 'm.ellison@mail.example' },
      numItems: 2,
      totalValueInCents: 49_500,
      totalSoldInCents: 18_500,
      totalCommissionInCents: 2_775,
      totalPayoutInCents: 15_725,
      receivedAt: '2026-03-04T00:00:00.000Z',
      createdAt: '2026-03-04T15:30:00.000Z',
    });
    expect(expectedConsignments[2]).toMatchObject({
      number: 'C-2026-103',
      consignor: null,
      receivedAt: '2026-06-01T13:00:00.000Z',
      numItems: 0,
      totalValueInCents: 0,
    });
    for (const link of S['consignment-items']) {
      expect((await getItem(api, itemId(link.sku as string))).consignmentId, link.sku).toBe(
        known.consignments.get(link.consignment as string),
      );
    }

    // ── invoices: every field from the files, the lines in order, the payments, and the amounts they make.
    const customers = new Map(S.customers.map((row) => [row.externalId as string, row]));
    const undatedInvoice = created.invoices?.find((change) => (change.data as Invoice).number === 5003)
      ?.data as Invoice;
    expect(Date.parse(undatedInvoice.createdAt)).toBeGreaterThanOrEqual((windows.invoices?.from ?? 0) - 2_000);
    expect(Date.parse(undatedInvoice.createdAt)).toBeLessThanOrEqual((windows.invoices?.to ?? 0) + 2_000);
    const expectedInvoices = S.invoices.map((row): Invoice => {
      const customer = row.customer === undefined ? undefined : customers.get(row.customer);
      const lines = S['invoice-lines']
        .filter((line) => line.invoice === row.number)
        .sort((a, b) => Number(a.line) - Number(b.line))
        .map((line) => ({
          id: expect.any(String) as unknown as string,
          itemId: line.sku === undefined ? null : itemId(line.sku),
          description: line.description ?? null,
          quantity: Number(line.quantity),
          unitPriceInCents: Number(line.unitPriceInCents),
          totalPriceInCents: Number(line.quantity) * Number(line.unitPriceInCents),
        }));
      const payments = S['invoice-payments']
        .filter((payment) => payment.invoice === row.number)
        .map((payment) => ({
          id: expect.any(String) as unknown as string,
          amountInCents: Number(payment.amountInCents),
          method: payment.method ?? null,
          status: payment.status ?? null,
          paidAt: at(payment.paidAt),
        }));
      const subtotal = lines.reduce((sum, line) => sum + line.totalPriceInCents, 0);
      const discount = num(row.discountInCents) ?? 0;
      const shipping = num(row.shippingInCents) ?? 0;
      const tax = num(row.taxInCents) ?? 0;
      const total = Math.max(subtotal - discount + shipping + tax, 0);
      const paid = payments
        .filter((payment) => payment.status === 'succeeded')
        .reduce((sum, payment) => sum + payment.amountInCents, 0);
      return {
        id: known.invoices.get(row.number as string) as string,
        number: Number(row.number),
        status: row.status as string,
        source: row.source ?? 'manual',
        customer: {
          id: customer === undefined ? null : (known.customers.get(customer.externalId as string) as string),
          name: row.customerName ?? customer?.name ?? null,
          email: row.customerEmail ?? customer?.email ?? null,
        },
        subtotalInCents: subtotal,
        discountInCents: discount,
        shippingInCents: shipping,
        taxInCents: tax,
        totalInCents: total,
        paidInCents: paid,
        dueInCents: Math.max(total - paid, 0),
        lines,
        payments,
        dueAt: at(row.dueAt),
        paidAt: at(row.paidAt),
        createdAt: at(row.createdAt) ?? undatedInvoice.createdAt,
      };
    });
    expect((await invoiceList(api)).items).toEqual(newestFirst(expectedInvoices));
    for (const expected of expectedInvoices) expect(await invoice(api, expected.id)).toEqual(expected);
    expect(expectedInvoices.map((i) => [i.number, i.source, i.customer.name, i.customer.email])).toEqual([
      [5001, 'Heritage Auctions', 'Harold Jennings', 'hjennings@mail.example'],
      [5002, 'manual', 'Coastal Bullion Exchange LLC', 'accounts@coastal-bullion.example'],
      [5003, 'manual', 'Walk-in customer', null],
    ]);
    expect(expectedInvoices.map((i) => [i.subtotalInCents, i.totalInCents, i.paidInCents, i.dueInCents])).toEqual([
      [18_500, 21_000, 21_000, 0],
      [530_000, 530_650, 250_000, 280_650],
      [3_750, 3_750, 0, 3_750],
    ]);
    expect(expectedInvoices[1]?.payments.map((payment) => payment.paidAt)).toEqual([
      '2026-05-20T00:00:00.000Z',
      '2026-05-21T12:30:00.000Z',
    ]);
  });

  it('re-imports changed files: what they change is updated, and the feed tells each consumer of it', async () => {
    const { ws, api, items } = await setUp();
    const itemId = (sku: string) => items.get(sku)?.id as string;
    await importSamples(ws);
    const known = await ids(ws);
    const c101 = known.consignments.get('C-2026-101') as string;
    const c102 = known.consignments.get('C-2026-102') as string;
    const [i5001, i5002, i5003] = ['5001', '5002', '5003'].map((n) => known.invoices.get(n) as string) as [
      string,
      string,
      string,
    ];
    const changed = async (cursor: string) => {
      const { changes } = await readToEnd(api, cursor);
      await expectDataCurrent(api, changes);
      return changes;
    };
    const rewrite = (kind: Kind, name: string, from: string, to: string) => {
      const text = readFileSync(path(kind), 'utf8');
      expect(text).toContain(from);
      return file(name, text.replace(from, to).trimEnd().split('\n'));
    };

    // A renamed category: each of its items reads differently, so each gets item.updated (and no other item does).
    const filed = await createItem(api, {
      sku: 'MOR-1879-S-64',
      title: '1879-S Morgan Dollar',
      categoryId: known.categories.get('CAT-01') as string,
    });
    let cursor = await feedCursor(api);
    const renamedCategory = rewrite(
      'categories',
      'categories.csv',
      'CAT-01,Morgan Dollars',
      'CAT-01,Morgan Silver Dollars',
    );
    expect(await json('import', 'categories', renamedCategory, '--org', ws.slug)).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 3,
    });
    let changes = await changed(cursor);
    expect(pairs(changes)).toEqual([['item.updated', filed.id]]);
    const refiled = await getItem(api, filed.id);
    expect(refiled.category).toEqual({ id: known.categories.get('CAT-01'), name: 'Morgan Silver Dollars' });
    expect(Date.parse(refiled.updatedAt as string)).toBeGreaterThanOrEqual(Date.parse(filed.createdAt));

    // A renamed consignor: its consignments show the new name, each with consignment.updated.
    cursor = await feedCursor(api);
    const renamedConsignor = rewrite(
      'consignors',
      'consignors.csv',
      'CN-1001,Margaret Ellison,',
      'CN-1001,Margaret Ellison-Hart,',
    );
    expect(await json('import', 'consignors', renamedConsignor, '--org', ws.slug)).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 2,
    });
    changes = await changed(cursor);
    expect(pairs(changes)).toEqual([['consignment.updated', c101]]);
    expect((changes[0]?.data as Consignment | undefined)?.consignor).toEqual({
      id: known.consignors.get('CN-1001'),
      name: 'Margaret Ellison-Hart',
      email: 'm.ellison@mail.example',
    });

    // A consignment's own fields: consignment.updated, and its other fields as they were.
    cursor = await feedCursor(api);
    const before101 = await consignment(api, c101);
    const sold = rewrite(
      'consignments',
      'consignments.csv',
      'C-2026-101,Ellison Morgan collection,listed,unpaid',
      'C-2026-101,Ellison Morgan collection,sold,unpaid',
    );
    expect(await json('import', 'consignments', sold, '--org', ws.slug)).toMatchObject({ updated: 1, unchanged: 2 });
    changes = await changed(cursor);
    expect(pairs(changes)).toEqual([['consignment.updated', c101]]);
    expect(changes[0]?.data).toEqual({ ...before101, status: 'sold' });

    // An item taken out of its consignment (no consignment) and another moved: item.updated for each, and
    // consignment.updated for the consignments that lost or gained one.
    cursor = await feedCursor(api);
    const moved = file('consignment-items.csv', [
      'sku,consignment',
      'ELL-1881-S-65,',
      'BRA-1924-P-63,C-2026-101',
      'ELL-1884-O-64,C-2026-101',
    ]);
    expect(await json('import', 'consignment-items', moved, '--org', ws.slug)).toMatchObject({
      rows: 3,
      created: 0,
      updated: 2,
      unchanged: 1,
      rejected: [],
    });
    changes = await changed(cursor);
    expect(pairs(changes)).toEqual(
      [
        ['item.updated', itemId('ELL-1881-S-65')],
        ['item.updated', itemId('BRA-1924-P-63')],
        ['consignment.updated', c101],
        ['consignment.updated', c102],
      ].sort(),
    );
    expect((await getItem(api, itemId('ELL-1881-S-65'))).consignmentId).toBeNull();
    expect((await getItem(api, itemId('BRA-1924-P-63'))).consignmentId).toBe(c101);
    expect(await consignment(api, c101)).toMatchObject({ numItems: 2, totalValueInCents: 17_500 + 255_000 });
    expect(await consignment(api, c102)).toMatchObject({ numItems: 0, totalValueInCents: 0, totalSoldInCents: 0 });
    // The same file again: nothing moves.
    cursor = await feedCursor(api);
    expect(await json('import', 'consignment-items', moved, '--org', ws.slug)).toMatchObject({ unchanged: 3 });
    expect(await changed(cursor)).toEqual([]);

    // An invoice's status: invoice.updated.
    cursor = await feedCursor(api);
    const voided = rewrite('invoices', 'invoices.csv', '5003,draft,', '5003,void,');
    expect(await json('import', 'invoices', voided, '--org', ws.slug)).toMatchObject({ updated: 1, unchanged: 2 });
    changes = await changed(cursor);
    expect(pairs(changes)).toEqual([['invoice.updated', i5003]]);
    expect((changes[0]?.data as Invoice | undefined)?.status).toBe('void');

    // A renamed customer changes no invoice: an invoice keeps what it was issued to.
    cursor = await feedCursor(api);
    const renamedCustomer = rewrite(
      'customers',
      'customers.csv',
      'CU-501,Harold Jennings,',
      'CU-501,Harold J. Jennings,',
    );
    expect(await json('import', 'customers', renamedCustomer, '--org', ws.slug)).toMatchObject({ updated: 1 });
    expect(await changed(cursor)).toEqual([]);
    expect((await invoice(api, i5001)).customer.name).toBe('Harold Jennings');
    // Nor does importing the invoices again: a row without a name keeps what the invoice was issued to.
    expect(await json('import', 'invoices', voided, '--org', ws.slug)).toMatchObject({ updated: 0, unchanged: 3 });
    expect(await changed(cursor)).toEqual([]);
    expect((await invoice(api, i5001)).customer.name).toBe('Harold Jennings');

    // Fewer lines for an invoice the file names: the missing ones are removed; an invoice it does not name keeps
    // its lines. A dry run says so and changes nothing.
    const fewer = file('invoice-lines.csv', [
      'invoice,line,sku,description,quantity,unitPriceInCents',
      '5001,1,ELL-1884-O-64,1884-O Morgan Dollar PCGS MS64,1,18500',
      '5002,1,BRA-1924-P-63,1924 Saint-Gaudens Double Eagle NGC MS63,1,265000',
    ]);
    cursor = await feedCursor(api);
    const untouched = await Promise.all([i5001, i5002, i5003].map((id) => invoice(api, id)));
    expect(await json('import', 'invoice-lines', fewer, '--org', ws.slug, '--dry-run')).toEqual({
      kind: 'invoice-lines',
      file: 'invoice-lines.csv',
      organization: { id: ws.organizationId, slug: ws.slug },
      dryRun: true,
      rows: 2,
      created: 0,
      updated: 1,
      unchanged: 1,
      removed: 1,
      rejected: [],
    });
    expect(await Promise.all([i5001, i5002, i5003].map((id) => invoice(api, id)))).toEqual(untouched);
    expect(await changed(cursor)).toEqual([]);

    const output = await run('import', 'invoice-lines', fewer, '--org', ws.slug);
    expect(output).toEqual({
      exitCode: EXIT.ok,
      stdout: `Imported invoice-lines.csv (invoice-lines) into ${ws.slug}: 0 created, 1 updated, 1 unchanged, 1 removed, of 2 rows.\n`,
      stderr: '',
    });
    changes = await changed(cursor);
    // 5002 (partially paid, so sold) sells one of BRA-1924-P-63 where it sold two: its consignment's totals move.
    expect(pairs(changes)).toEqual(
      [
        ['invoice.updated', i5001],
        ['invoice.updated', i5002],
        ['consignment.updated', c101],
      ].sort(),
    );
    expect(changes.find((change) => change.type === 'consignment.updated')?.data).toEqual(await consignment(api, c101));
    const [after5001, after5002, after5003] = await Promise.all([i5001, i5002, i5003].map((id) => invoice(api, id)));
    expect(
      after5001?.lines.map((line) => [line.itemId, line.description, line.quantity, line.unitPriceInCents]),
    ).toEqual([[itemId('ELL-1884-O-64'), '1884-O Morgan Dollar PCGS MS64', 1, 18_500]]);
    expect(after5001).toMatchObject({ subtotalInCents: 18_500, totalInCents: 21_000, dueInCents: 0 });
    expect(after5002?.lines.map((line) => [line.quantity, line.totalPriceInCents])).toEqual([[1, 265_000]]);
    expect(after5002).toMatchObject({ subtotalInCents: 265_000, totalInCents: 265_650, dueInCents: 15_650 });
    expect(after5003).toEqual(untouched[2]);
    expect((await counts(ws))?.invoice_lines).toBe(3);
  });

  it('refuses a bad file of consignments, invoices, invoice lines or zones row by row, changing nothing; --partial imports the rest', async () => {
    const { ws, api } = await setUp();
    await importSamples(ws);
    const known = await ids(ws);

    /**
     * The file refused whole (exit code, the reasons by row), then dry run with --partial (the good rows' counts,
     * nothing written): the organization as it was and the feed silent both times. Then --partial: its summary.
     */
    const refuse = async (kind: Kind, bad: string, stderr: string[], partial: object) => {
      const before = await everything(ws, api);
      expect(await run('import', kind, bad, '--org', ws.slug)).toEqual({
        exitCode: EXIT.refused,
        stdout: '',
        stderr: `${stderr.join('\n')}\n`,
      });
      expect(await everything(ws, api)).toEqual(before);
      expect((await readToEnd(api, before.cursor)).changes).toEqual([]);
      expect(await json('import', kind, bad, '--org', ws.slug, '--partial', '--dry-run')).toEqual({
        kind,
        file: bad.slice(work.length + 1),
        organization: { id: ws.organizationId, slug: ws.slug },
        ...partial,
        dryRun: true,
      });
      expect(await everything(ws, api)).toEqual(before);
      expect((await readToEnd(api, before.cursor)).changes).toEqual([]);
      expect(await json('import', kind, bad, '--org', ws.slug, '--partial')).toEqual({
        kind,
        file: bad.slice(work.length + 1),
        organization: { id: ws.organizationId, slug: ws.slug },
        ...partial,
        dryRun: false,
      });
      const { changes } = await readToEnd(api, before.cursor);
      await expectDataCurrent(api, changes);
      return changes;
    };

    // ── consignments
    const statuses = 'must be one of intake, cataloging, listed, partially_sold, sold, settled, withdrawn, returned';
    const badDate = 'must be a date (2026-05-01) or an ISO 8601 date-time with Z or an offset';
    let changes = await refuse(
      'consignments',
      file('bad-consignments.csv', [
        'number,name,status,paymentStatus,consignor,commissionBps,buyerPremiumBps,receivedAt,soldAt,settledAt,createdAt',
        'C-2026-201,Oakes type set,intake,,CN-1003,1200,,2026-07-01,,,2026-07-01T10:00:00Z',
        'C-2026-202,,on_hold,,,,,,,,',
        'C-2026-203,,intake,,CN-9999,,,,,,',
        'C-2026-204,,intake,,,-5,,,,,',
        'C-2026-205,,intake,,,,,2026-02-30,,,',
        'C-2026-201,,intake,,,,,,,,',
        'C-2026-206,,intake,,,12.5,200000,,,,',
        ',No number,intake,,,,,,,,',
        'C-2026-103,,cataloging,,,,,2026-06-01T09:00:00-04:00,,,',
      ]),
      [
        'Nothing imported: 7 of 9 rows of bad-consignments.csv are refused (--partial imports the others).',
        `  row 3: status: ${statuses}`,
        '  row 4: consignor: no consignor with externalId "CN-9999" (import consignors first)',
        '  row 5: commissionBps: must be whole basis points (digits only)',
        `  row 6: receivedAt: ${badDate}`,
        '  row 7: repeats row 2 (the same number)',
        '  row 8: commissionBps: must be whole basis points (digits only); buyerPremiumBps: must be at most 100000',
        '  row 9: number: is required',
      ],
      {
        rows: 9,
        created: 1,
        updated: 1,
        unchanged: 0,
        rejected: [
          { row: 3, reason: `status: ${statuses}` },
          { row: 4, reason: 'consignor: no consignor with externalId "CN-9999" (import consignors first)' },
          { row: 5, reason: 'commissionBps: must be whole basis points (digits only)' },
          { row: 6, reason: `receivedAt: ${badDate}` },
          { row: 7, reason: 'repeats row 2 (the same number)' },
          {
            row: 8,
            reason: 'commissionBps: must be whole basis points (digits only); buyerPremiumBps: must be at most 100000',
          },
          { row: 9, reason: 'number: is required' },
        ],
      },
    );
    const c201 = (await ids(ws)).consignments.get('C-2026-201') as string;
    const c103 = known.consignments.get('C-2026-103') as string;
    expect(pairs(changes)).toEqual(
      [
        ['consignment.created', c201],
        ['consignment.updated', c103],
      ].sort(),
    );
    expect(await consignment(api, c201)).toMatchObject({
      number: 'C-2026-201',
      name: 'Oakes type set',
      status: 'intake',
      consignor: { id: known.consignors.get('CN-1003'), name: null, email: 'collector.442@mail.example' },
      commissionBps: 1200,
      buyerPremiumBps: null,
      receivedAt: '2026-07-01T00:00:00.000Z',
      createdAt: '2026-07-01T10:00:00.000Z',
    });
    expect((await consignment(api, c103)).status).toBe('cataloging');
    expect((await counts(ws))?.consignments).toBe(4);

    // ── invoices
    const invoiceStatuses = 'must be one of draft, sent, paid, partially_paid, overdue, void, cancelled';
    changes = await refuse(
      'invoices',
      file('bad-invoices.csv', [
        'number,status,source,customer,customerName,customerEmail,discountInCents,shippingInCents,taxInCents,dueAt,paidAt,createdAt',
        '6001,sent,,CU-503,,,,1500,,2026-08-01,,2026-07-15',
        '6002,pending,,,,,,,,,,',
        '6003,draft,,CU-999,,,,,,,,',
        '6004,draft,,,Someone,not-an-email,,,,,,',
        '6005,draft,,,,,-100,,,,,',
        '6006,draft,,,,,,12.50,,,,',
        '6001,void,,,,,,,,,,',
        '6007,draft,,,,,,,,2026-13-01,,',
        'INV-6008,draft,,,,,,,,,,',
      ]),
      [
        'Nothing imported: 8 of 9 rows of bad-invoices.csv are refused (--partial imports the others).',
        `  row 3: status: ${invoiceStatuses}`,
        '  row 4: customer: no customer with externalId "CU-999" (import customers first)',
        '  row 5: customerEmail: must be an email address',
        '  row 6: discountInCents: must be whole cents (digits only)',
        '  row 7: shippingInCents: must be whole cents (digits only)',
        '  row 8: repeats row 2 (the same number)',
        `  row 9: dueAt: ${badDate}`,
        '  row 10: number: must be a whole invoice number (digits only)',
      ],
      {
        rows: 9,
        created: 1,
        updated: 0,
        unchanged: 0,
        rejected: [
          { row: 3, reason: `status: ${invoiceStatuses}` },
          { row: 4, reason: 'customer: no customer with externalId "CU-999" (import customers first)' },
          { row: 5, reason: 'customerEmail: must be an email address' },
          { row: 6, reason: 'discountInCents: must be whole cents (digits only)' },
          { row: 7, reason: 'shippingInCents: must be whole cents (digits only)' },
          { row: 8, reason: 'repeats row 2 (the same number)' },
          { row: 9, reason: `dueAt: ${badDate}` },
          { row: 10, reason: 'number: must be a whole invoice number (digits only)' },
        ],
      },
    );
    const i6001 = (await ids(ws)).invoices.get('6001') as string;
    expect(pairs(changes)).toEqual([['invoice.created', i6001]]);
    expect(await invoice(api, i6001)).toMatchObject({
      number: 6001,
      status: 'sent',
      source: 'manual',
      customer: { id: known.customers.get('CU-503'), name: 'Thomas Okonkwo', email: null },
      shippingInCents: 1_500,
      totalInCents: 1_500,
      lines: [],
      payments: [],
      dueAt: '2026-08-01T00:00:00.000Z',
      createdAt: '2026-07-15T00:00:00.000Z',
    });

    // ── invoice lines
    const i5003 = known.invoices.get('5003') as string;
    const ell = (
      await sql()<{ id: string }[]>`
      SELECT id::text FROM items WHERE organization_id = ${ws.organizationId} AND sku = 'ELL-1881-S-65'
    `
    )[0]?.id;
    changes = await refuse(
      'invoice-lines',
      file('bad-lines.csv', [
        'invoice,line,sku,description,quantity,unitPriceInCents',
        '5003,1,,Coin holder set,3,1250',
        '5003,2,ELL-1881-S-65,1881-S Morgan Dollar PCGS MS65,1,32000',
        '9999,1,,Gift card,1,5000',
        '5003,3,NO-SUCH-SKU,Unknown coin,1,100',
        '5003,4,,Half a coin,1.5,100',
        '5003,5,,Refund,1,-100',
        '5003,1,,The first line again,1,1',
        '5003,0,,Line zero,1,1',
        '9998,1,NOT-A-SKU,Neither,1,1',
      ]),
      [
        'Nothing imported: 7 of 9 rows of bad-lines.csv are refused (--partial imports the others).',
        '  row 4: invoice: no invoice numbered 9999 (import invoices first)',
        '  row 5: sku: no item with SKU "NO-SUCH-SKU"',
        '  row 6: quantity: must be a whole quantity (digits only)',
        '  row 7: unitPriceInCents: must be whole cents (digits only)',
        '  row 8: repeats row 2 (the same invoice and line)',
        '  row 9: line: must be at least 1',
        '  row 10: invoice: no invoice numbered 9998 (import invoices first); sku: no item with SKU "NOT-A-SKU"',
      ],
      {
        rows: 9,
        created: 1,
        updated: 0,
        unchanged: 1,
        removed: 0,
        rejected: [
          { row: 4, reason: 'invoice: no invoice numbered 9999 (import invoices first)' },
          { row: 5, reason: 'sku: no item with SKU "NO-SUCH-SKU"' },
          { row: 6, reason: 'quantity: must be a whole quantity (digits only)' },
          { row: 7, reason: 'unitPriceInCents: must be whole cents (digits only)' },
          { row: 8, reason: 'repeats row 2 (the same invoice and line)' },
          { row: 9, reason: 'line: must be at least 1' },
          {
            row: 10,
            reason: 'invoice: no invoice numbered 9998 (import invoices first); sku: no item with SKU "NOT-A-SKU"',
          },
        ],
      },
    );
    expect(pairs(changes)).toEqual([['invoice.updated', i5003]]);
    expect(
      (await invoice(api, i5003)).lines.map((line) => [line.itemId, line.description, line.totalPriceInCents]),
    ).toEqual([
      [null, 'Coin holder set', 3_750],
      [ell, '1881-S Morgan Dollar PCGS MS65', 32_000],
    ]);

    // ── zones (NDJSON: rows are lines)
    changes = await refuse(
      'zones',
      file('bad-zones.ndjson', [
        '{"warehouse":"WH-MAIN","externalId":"CASE-C","name":"Showroom case C"}',
        '{"warehouse":"WH-NOPE","externalId":"SHELF-1","name":"Shelf 1"}',
        '{"warehouse":"WH-MAIN","externalId":"CASE-C","name":"Showroom case C, again"}',
        '{"warehouse":"WH-VAULT","name":"Box without an id"}',
        '{"warehouse":"WH-VAULT","externalId":"BOX-115","name":"   "}',
        '{"warehouse":"WH-VAULT","externalId":"BOX-116",',
        '{"warehouse":"WH-VAULT","externalId":"BOX-117","name":"Box 117","floor":2}',
      ]),
      [
        'Nothing imported: 6 of 7 rows of bad-zones.ndjson are refused (--partial imports the others).',
        '  row 2: warehouse: no warehouse with externalId "WH-NOPE" (import warehouses first)',
        '  row 3: repeats row 1 (the same warehouse and externalId)',
        '  row 4: externalId: is required',
        '  row 5: name: must not be empty',
        '  row 6: not valid JSON',
        "  row 7: Unrecognized key(s) in object: 'floor'",
      ],
      {
        rows: 7,
        created: 1,
        updated: 0,
        unchanged: 0,
        rejected: [
          { row: 2, reason: 'warehouse: no warehouse with externalId "WH-NOPE" (import warehouses first)' },
          { row: 3, reason: 'repeats row 1 (the same warehouse and externalId)' },
          { row: 4, reason: 'externalId: is required' },
          { row: 5, reason: 'name: must not be empty' },
          { row: 6, reason: 'not valid JSON' },
          { row: 7, reason: "Unrecognized key(s) in object: 'floor'" },
        ],
      },
    );
    expect(changes).toEqual([]);
    // The new zone comes after the warehouse's others.
    expect(
      (await warehouseList(api)).items.find((w) => w.name === 'Main Street Showroom')?.zones.map((zone) => zone.name),
    ).toEqual(['Showroom case A', 'Showroom case B', 'Back office safe', 'Showroom case C']);
  });
  it('queues webhook deliveries for the imports’ changes to the endpoints subscribed to their types', async () => {
    const { ws, api } = await setUp();
    const subscribe = async (events: string[]) => {
      const response = await api.post('/webhook-endpoints', {
        body: { url: `https://hooks.example.com/${events.join('-')}`, events },
      });
      expectStatus(response, 200);
      return (response.body as { id: string }).id;
    };
    const consignments = await subscribe(['consignment.created']);
    const invoices = await subscribe(['invoice.created', 'invoice.updated']);
    const everything = await subscribe(['*']);
    for (const [kind, name] of [
      ['consignors', 'consignors.csv'],
      ['consignments', 'consignments.csv'],
      ['customers', 'customers.csv'],
      ['invoices', 'invoices.csv'],
      ['invoice-payments', 'invoice-payments.ndjson'],
    ] as const) {
      await json('import', kind, join(SAMPLES, name), '--org', ws.slug);
    }
    const queued = async (endpointId: string) =>
      (
        await sql()<{ type: string }[]>`
          SELECT c.type FROM webhook_deliveries d
          JOIN changes c ON c.organization_id = d.organization_id AND c.position = d.change_position
          WHERE d.organization_id = ${ws.organizationId} AND d.endpoint_id = ${endpointId}
          ORDER BY c.position
        `
      ).map((row) => row.type);
    expect(await queued(consignments)).toEqual(Array(3).fill('consignment.created'));
    // Payments for two of the three invoices.
    expect(await queued(invoices)).toEqual([...Array(3).fill('invoice.created'), ...Array(2).fill('invoice.updated')]);
    expect(await queued(everything)).toEqual([
      ...Array(3).fill('consignment.created'),
      ...Array(3).fill('invoice.created'),
      ...Array(2).fill('invoice.updated'),
    ]);
  });
});
