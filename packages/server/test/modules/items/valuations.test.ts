import {
  type ComparableSale,
  LIMITS,
  type Valuation,
  ValuationListSchema,
  ValuationSchema,
} from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { type Api, at, compareBytes, createItem, freshApi, randomId } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let org: TestOrganization;
let other: TestOrganization;

interface CompSeed extends ComparableSale {
  position: number;
}

/**
 * What a seed may set: every field but the keys, the comps and the dates. Each is stored in the column of its
 * snake_case name, as is each comp's field.
 */
const NOT_SEEDED = ['id', 'itemId', 'comps', 'appliedAt', 'createdAt'] as const satisfies readonly (keyof Valuation)[];
type SeededField = Exclude<keyof Valuation, (typeof NOT_SEEDED)[number]>;
const SEEDED_FIELDS = Object.keys(ValuationSchema.shape).filter(
  (field): field is SeededField => !(NOT_SEEDED as readonly string[]).includes(field),
);
type SeededFields = Pick<Valuation, SeededField>;
const columnsOf = (fields: object) =>
  Object.fromEntries(
    Object.entries(fields).map(([field, value]) => [field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
  );

type ValuationSeed = Partial<SeededFields> & {
  /** As inserted; may carry an offset. */
  appliedAt?: string | null;
  createdAt: string;
  comps?: CompSeed[];
};

const NULL_COMP: ComparableSale = {
  source: null,
  title: null,
  grade: null,
  gradingService: null,
  priceInCents: null,
  soldAt: null,
  venue: null,
  url: null,
};

/** Comparable sales with every field set. */
const SECOND_COMP: ComparableSale = {
  source: 'ebay',
  title: 'Second',
  grade: 'MS64',
  gradingService: 'NGC',
  priceInCents: 0,
  soldAt: '2023-11-02',
  venue: null,
  url: null,
};
const THIRD_COMP: ComparableSale = {
  source: 'heritage',
  title: 'Third',
  grade: 'MS65',
  gradingService: 'PCGS',
  priceInCents: 1_600_000,
  soldAt: 'sometime in 2023',
  venue: 'Heritage Auctions',
  url: 'https://example.test/lots/3',
};

/** Inserts a valuation and its comps with parameterised statements; returns the Valuation the API should show. */
async function insertValuation(
  organization: TestOrganization,
  itemId: string,
  seed: ValuationSeed,
): Promise<Valuation> {
  const sql = server.database.sql;
  const shown = Object.fromEntries(SEEDED_FIELDS.map((field) => [field, seed[field] ?? null])) as SeededFields;
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO valuations ${sql({
      organization_id: organization.organizationId,
      item_id: itemId,
      ...columnsOf(shown),
      applied_at: seed.appliedAt ?? null,
      created_at: seed.createdAt,
    })}
    RETURNING id
  `;
  if (!row) throw new Error('no valuation');
  const comps = seed.comps ?? [];
  if (comps.length > 0) {
    await sql`
      INSERT INTO valuation_comps ${sql(
        comps.map((comp) => ({
          organization_id: organization.organizationId,
          valuation_id: row.id,
          ...columnsOf(comp),
        })),
      )}
    `;
  }
  return {
    id: row.id,
    itemId,
    ...shown,
    comps: [...comps].sort((a, b) => a.position - b.position).map(({ position: _position, ...comp }) => comp),
    appliedAt: seed.appliedAt ? new Date(seed.appliedAt).toISOString() : null,
    createdAt: new Date(seed.createdAt).toISOString(),
  };
}

/** Newest first: createdAt descending, then id descending. */
const newestFirst = (valuations: Valuation[]): Valuation[] =>
  [...valuations].sort((a, b) => compareBytes(b.createdAt, a.createdAt) || compareBytes(b.id, a.id));

async function listValuations(api: Api, itemId: string, query = ''): Promise<Valuation[]> {
  const response = await api.get(`/items/${itemId}/valuations${query}`);
  expectStatus(response, 200);
  // Only `items`: no page, limit or hasMore.
  expect(Object.keys(response.body as object)).toEqual(['items']);
  return ValuationListSchema.parse(response.body).items;
}

beforeAll(async () => {
  server = await startTestServer();
  org = await createTestOrganization(server.database.sql);
  other = await createTestOrganization(server.database.sql);
});
afterAll(() => server.close());

describe('GET /items/:id/valuations', () => {
  let api: Api;
  let itemId: string;
  let expected: Valuation[];

  beforeAll(async () => {
    api = await freshApi(server, org);
    itemId = (await createItem(api, { sku: 'VAL-1', title: '1893-S Morgan Dollar' })).id;
    const inserted: Valuation[] = [];
    // Ten plain valuations, one a second apart.
    for (let i = 0; i < 10; i += 1) {
      inserted.push(
        await insertValuation(org, itemId, {
          estimateInCents: 10_000 + i,
          basis: 'price_guide',
          createdAt: at(i),
          comps: [{ ...NULL_COMP, position: 1, title: `Comp for ${i}`, priceInCents: 9_000 + i }],
        }),
      );
    }
    // The newest two share a timestamp: id descending breaks the tie.
    inserted.push(
      await insertValuation(org, itemId, {
        estimateLowInCents: 1_200_000,
        estimateInCents: 1_500_000,
        estimateHighInCents: Number.MAX_SAFE_INTEGER,
        confidencePercent: 85,
        basis: 'comps',
        priceGuideValueInCents: 1_400_000,
        meltValueInCents: 2_345,
        summary: `Strong comps; "quoted" O'Brien \\ 🪙\nsecond line`,
        appliedAt: '2024-03-01T12:00:00+05:00',
        createdAt: at(30),
        // Inserted out of position order: the API answers in position order.
        comps: [
          { ...THIRD_COMP, position: 3 },
          { ...NULL_COMP, position: 1, title: 'First' },
          { ...SECOND_COMP, position: 2 },
        ],
      }),
    );
    inserted.push(await insertValuation(org, itemId, { createdAt: at(30) }));
    expected = newestFirst(inserted);
  });

  it('returns the newest 10 by default, newest first with the id tie-break, each fully shaped', async () => {
    const valuations = await listValuations(api, itemId);
    expect(valuations).toHaveLength(LIMITS.valuationLimit.default);
    expect(valuations).toEqual(expected.slice(0, 10));
    // The two newest share createdAt; the larger id comes first.
    expect(valuations[0]?.createdAt).toBe(valuations[1]?.createdAt);
    expect(compareBytes(valuations[0]?.id ?? '', valuations[1]?.id ?? '')).toBe(1);
  });

  it('shows every field, nulls included, with comps in position order and money as integers', async () => {
    const valuations = await listValuations(api, itemId);
    const full = valuations.find((v) => v.basis === 'comps');
    expect(full).toEqual({
      id: expect.any(String),
      itemId,
      estimateLowInCents: 1_200_000,
      estimateInCents: 1_500_000,
      estimateHighInCents: 9_007_199_254_740_991,
      confidencePercent: 85,
      basis: 'comps',
      priceGuideValueInCents: 1_400_000,
      meltValueInCents: 2_345,
      summary: `Strong comps; "quoted" O'Brien \\ 🪙\nsecond line`,
      comps: [{ ...NULL_COMP, title: 'First' }, SECOND_COMP, THIRD_COMP],
      appliedAt: '2024-03-01T07:00:00.000Z',
      createdAt: '2024-05-01T10:00:30.000Z',
    });
    for (const comp of full?.comps ?? []) expect(Object.keys(comp).sort()).toEqual(Object.keys(NULL_COMP).sort());
    const empty = valuations.find((v) => v.basis === null);
    expect(empty).toEqual({
      id: expect.any(String),
      itemId,
      estimateLowInCents: null,
      estimateInCents: null,
      estimateHighInCents: null,
      confidencePercent: null,
      basis: null,
      priceGuideValueInCents: null,
      meltValueInCents: null,
      summary: null,
      comps: [],
      appliedAt: null,
      createdAt: '2024-05-01T10:00:30.000Z',
    });
    for (const v of valuations) {
      for (const money of [v.estimateLowInCents, v.estimateInCents, v.estimateHighInCents, v.priceGuideValueInCents]) {
        if (money !== null) expect(Number.isInteger(money)).toBe(true);
      }
    }
  });

  it('honours ?limit, from 1 up to its maximum of 50', async () => {
    expect(await listValuations(api, itemId, '?limit=1')).toEqual(expected.slice(0, 1));
    expect(await listValuations(api, itemId, '?limit=11')).toEqual(expected.slice(0, 11));
    expect(await listValuations(api, itemId, '?limit=50')).toEqual(expected);

    const manyItem = (await createItem(api, { sku: 'VAL-MANY', title: 'Many valuations' })).id;
    const many: Valuation[] = [];
    for (let i = 0; i < 55; i += 1) {
      many.push(await insertValuation(org, manyItem, { estimateInCents: i, createdAt: at(i) }));
    }
    const fifty = await listValuations(api, manyItem, '?limit=50');
    expect(fifty).toHaveLength(50);
    expect(fifty).toEqual(newestFirst(many).slice(0, 50));
    expect(await listValuations(api, manyItem)).toEqual(newestFirst(many).slice(0, 10));
  });

  it.each(['51', '0', '-1', 'ten', '1.5'])('refuses ?limit=%s with 400 naming query.limit', async (limit) => {
    expectBadRequest(await api.get(`/items/${itemId}/valuations?limit=${limit}`), ['query.limit']);
  });

  it('returns {items: []} for an item without valuations, and never shows another item’s', async () => {
    const bare = (await createItem(api, { sku: 'VAL-NONE', title: 'No valuations' })).id;
    const response = await api.get(`/items/${bare}/valuations`);
    expectStatus(response, 200);
    expect(response.body).toEqual({ items: [] });
  });

  it('answers 404 with the exact body for an unknown item', async () => {
    const response = await api.get(`/items/${randomId()}/valuations`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it("answers 404 for another organization's item, and theirs never leak into ours", async () => {
    const theirApi = await freshApi(server, other);
    const theirItem = (await createItem(theirApi, { sku: 'VAL-1', title: 'Theirs' })).id;
    const theirs = await insertValuation(other, theirItem, { estimateInCents: 1, createdAt: at(59) });
    const response = await api.get(`/items/${theirItem}/valuations`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await listValuations(theirApi, theirItem)).toEqual([theirs]);
    expect(await listValuations(api, itemId, '?limit=50')).toEqual(expected);
  });

  it('removes the valuations and their comps with the item (cascade)', async () => {
    const doomed = (await createItem(api, { sku: 'VAL-DOOMED', title: 'Doomed' })).id;
    const v = await insertValuation(org, doomed, {
      estimateInCents: 5,
      createdAt: at(1),
      comps: [{ ...NULL_COMP, position: 1, title: 'gone' }],
    });
    expect(await listValuations(api, doomed)).toEqual([v]);
    expectStatus(await api.delete(`/items/${doomed}`), 200);
    const response = await api.get(`/items/${doomed}/valuations`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    const sql = server.database.sql;
    const [counts] = await sql<{ valuations: number; comps: number }[]>`
      SELECT
        (SELECT count(*)::int FROM valuations WHERE organization_id = ${org.organizationId} AND item_id = ${doomed})
          AS valuations,
        (SELECT count(*)::int FROM valuation_comps WHERE organization_id = ${org.organizationId} AND valuation_id = ${v.id})
          AS comps
    `;
    expect(counts).toEqual({ valuations: 0, comps: 0 });
  });
});
