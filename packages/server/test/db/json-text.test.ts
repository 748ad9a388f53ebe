import { ListItemsQuerySchema } from '@coinventory/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/types.js';
import { ITEMS } from '../../src/modules/items/index.js';
import { selectItems, selectItemsText } from '../../src/modules/items/list-sql.js';
import { metaString } from '../support/arbitraries.js';
import { serverWithOrganization } from '../support/server.js';

/**
 * A list's JSON text written by PostgreSQL (db/json-text.ts) must be, byte for byte, what JSON.stringify writes of the
 * objects the rows map to: the answer's bytes and its ETag must not depend on which way it was made (If-Match compares
 * a list item's ETag with the object's JSON made in JavaScript). Checked on every kind of field, with text dense in
 * escapes and Unicode, timestamps with microseconds, and `jsonb` attributes with keys PostgreSQL orders its own way.
 */

const suite = serverWithOrganization();

/** A timestamp with microseconds, as PostgreSQL takes it: years 1000 to 9999 and the odd early one. */
const timestamp = fc
  .tuple(
    fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }),
    fc.integer({ min: 0, max: 999 }),
    fc.constantFrom('+00', '+05:30', '-08'),
  )
  .map(([ms, micros, zone]) => {
    const iso = new Date(ms).toISOString().replace('Z', '');
    return `${iso}${String(micros).padStart(3, '0')}${zone}`;
  });

const attributes = fc.dictionary(
  fc.oneof(metaString(1, 12), fc.constantFrom('10', '2', '0', 'a', 'aa', 'b')),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }), metaString(0, 20)),
  { maxKeys: 6 },
);

const row = fc.record({
  sku: metaString(1, 30),
  title: metaString(1, 60),
  description: fc.option(metaString(0, 80)),
  available: fc.integer({ min: 0, max: 1_000_000 }),
  valueInCents: fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constant(Number.MAX_SAFE_INTEGER)),
  priceInCents: fc.option(fc.integer({ min: 0, max: 10 ** 12 })),
  acquiredAt: fc.option(timestamp),
  notes: fc.option(metaString(0, 40)),
  attributes,
  atAuction: fc.boolean(),
  createdAt: timestamp,
  updatedAt: fc.option(timestamp),
  withCategory: fc.boolean(),
  images: fc.array(fc.record({ url: metaString(1, 40), width: fc.option(fc.integer({ min: 1, max: 9000 })) }), {
    maxLength: 3,
  }),
});

type Row = typeof row extends fc.Arbitrary<infer T> ? T : never;

async function insert(sql: Queryable, rows: readonly Row[]) {
  const { organization } = suite;
  const [category] = await sql<{ id: string }[]>`
    INSERT INTO categories (organization_id, name) VALUES (${organization.organizationId}, ${'Ancient "Greek" \\ coins'})
    RETURNING id
  `;
  for (const [n, r] of rows.entries()) {
    const [item] = await sql<{ id: string }[]>`
      INSERT INTO items (
        organization_id, sku, title, description, category_id, quantity_available, value_in_cents,
        acquisition_price_in_cents, acquisition_date, acquisition_notes, attributes, is_at_auction, created_at,
        updated_at, warehouse_id, zone_id
      ) VALUES (
        ${organization.organizationId}, ${`${n}-${r.sku}`}, ${r.title}, ${r.description},
        ${r.withCategory ? (category?.id ?? null) : null}, ${r.available}, ${r.valueInCents}, ${r.priceInCents},
        ${r.acquiredAt}::text::timestamptz, ${r.notes}, ${sql.json(r.attributes)}, ${r.atAuction},
        ${r.createdAt}::text::timestamptz, ${r.updatedAt}::text::timestamptz,
        ${organization.defaultWarehouseId}, ${organization.defaultZoneId}
      )
      RETURNING id
    `;
    for (const [position, image] of r.images.entries()) {
      await sql`
        INSERT INTO item_images (organization_id, item_id, position, url, width, height)
        VALUES (${organization.organizationId}, ${item?.id ?? null}, ${position}, ${image.url}, ${image.width}, ${image.width})
      `;
    }
  }
}

describe('a list as JSON text written by PostgreSQL', () => {
  it('is byte for byte JSON.stringify of the objects its rows map to, on every kind of field', async () => {
    const sql = suite.server.database.sql;
    await insert(sql, fc.sample(row, { numRuns: 60, seed: 40 }));
    const query = ListItemsQuerySchema.parse({ limit: '100' });
    const where = sql`WHERE i.organization_id = ${suite.organization.organizationId} ORDER BY i.created_at, i.id`;
    const objects = await ITEMS.page(sql`${selectItems(sql)} ${where} LIMIT 101`, query);
    const text = await ITEMS.pageText(sql`${selectItemsText(sql)} ${where} LIMIT 101`, query);
    expect(objects.items).toHaveLength(60);
    expect(text.text).toBe(JSON.stringify(objects));
  });
});
