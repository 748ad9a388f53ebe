import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDemoRows } from '../../src/demo/build/index.js';
import { DEMO_ANCHOR } from '../../src/demo/index.js';

/** A value with its objects' keys sorted and dates as ISO 8601: what the rows hold, not how they were written. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, canonical(record[key])]),
    );
  }
  return value;
}

/** Each table's row count and a hash of its rows. */
function fingerprint(rows: Record<string, readonly unknown[]>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(rows).map(([table, list]) => {
      const hash = createHash('sha256')
        .update(JSON.stringify(canonical(list)))
        .digest('hex');
      return [table, `${list.length}:${hash.slice(0, 16)}`];
    }),
  );
}

describe('buildDemoRows', () => {
  const organization = {
    organizationId: '00000000-0000-4000-8000-000000000001',
    warehouseId: '00000000-0000-4000-8000-000000000002',
    receivingZoneId: '00000000-0000-4000-8000-000000000003',
  };

  // Figures taken from the demo before its catalog became data files (one file of specs and builders then), but for
  // the valuations, their sources and the values of the items whose estimates were applied, which the valuation
  // engine makes since: reshaping the catalog, the builder or the shared generator must not change a single value, id
  // or date.
  it('builds the same rows as ever at the anchor', () => {
    expect(fingerprint({ ...buildDemoRows(organization, DEMO_ANCHOR) })).toEqual({
      warehouses: '1:ab41a843e35cf930',
      zones: '4:5d3c525444ec4f39',
      categories: '5:26591fb6079d216a',
      consignors: '4:1a6f507e05c9640e',
      consignments: '8:47b9ed4402445568',
      items: '53:0b289aa86ba9f2be',
      itemImages: '99:f5fc16c31715b13f',
      comparableSales: '103:f0034e7050f5064f',
      priceGuideEntries: '8:ec8c303bd7e9094e',
      spotPrices: '2:44a63b913dfe3e70',
      valuations: '37:993d398daa073608',
      valuationComps: '86:2fb59ef146f07b61',
      customers: '4:618100376b3ec04c',
      invoices: '16:890c3de719fd29e1',
      invoiceLines: '28:d2570a06a990742e',
      invoicePayments: '12:0d328b8d0945977d',
      marketplaceListings: '3:2d0b57f93cd7a058',
    });
  });

  // The valuations' confidences may differ by a point: the engine counts sales' ages in fractions of a day, and a sale
  // reported by the day sold at midnight, whatever the hour of `now`.
  it('moves every date with `now`', () => {
    expect(fingerprint({ ...buildDemoRows(organization, new Date('2025-03-01T09:30:00.000Z')) })).toEqual({
      warehouses: '1:3fb202034c41d5fd',
      zones: '4:5d3c525444ec4f39',
      categories: '5:26591fb6079d216a',
      consignors: '4:1a6f507e05c9640e',
      consignments: '8:4a20e2b169bf791b',
      items: '53:5a287879cf3fcf43',
      itemImages: '99:f5fc16c31715b13f',
      comparableSales: '103:06d24b89a7d1fb70',
      priceGuideEntries: '8:9386a1825928bfbe',
      spotPrices: '2:d784bd9fb1d2641c',
      valuations: '37:e02e01b2cc9d20b6',
      valuationComps: '86:e938a1ceec20a017',
      customers: '4:618100376b3ec04c',
      invoices: '16:1a3ad403b652c739',
      invoiceLines: '28:d2570a06a990742e',
      invoicePayments: '12:ed426327083c3a9c',
      marketplaceListings: '3:081b3128e094015c',
    });
  });
});
