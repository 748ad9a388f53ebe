import {
  type ContractRoute,
  CreateItemBodySchema,
  contractRoutes,
  type Item,
  UpdateItemBodySchema,
} from '@coinventory/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metaString, queryStringFor, rawBody, uuidLike } from '../support/arbitraries.js';
import { call } from '../support/http.js';
import { describeExchange, expectContractAnswer, propertiesServer, RUNS } from '../support/properties.js';
import { type SeededResources, takesBody, takesId, uniqueSku } from '../support/routes.js';

/**
 * Property-based tests (fast-check) of every contract route: whatever the body, query string or path id, the
 * answer is one the contract declares, shaped as the contract says, and never a 500. Text is tested in
 * properties-text.test.ts.
 */

const suite = propertiesServer();
const { key, itemCount } = suite;

/** Fills the placeholders of plausibleBody with the organization's real ids (or another organization's). */
function withRealIds(raw: string): string {
  return raw
    .replaceAll('"FOREIGN_CATEGORY"', JSON.stringify(suite.foreign.categoryId))
    .replaceAll('"CATEGORY"', JSON.stringify(suite.data.categoryId))
    .replaceAll('"WAREHOUSE"', JSON.stringify(suite.organization.defaultWarehouseId))
    .replaceAll('"ZONE"', JSON.stringify(suite.organization.defaultZoneId));
}

type IdKind = 'own' | 'foreign' | 'other';
interface PathId {
  kind: IdKind;
  encoded: string;
}

const ID_FIELD: Record<string, keyof SeededResources> = {
  items: 'itemId',
  consignments: 'consignmentId',
  invoices: 'invoiceId',
  categories: 'categoryId',
  warehouses: 'warehouseId',
  'webhook-endpoints': 'webhookEndpointId',
  reservations: 'reservationId',
};
function idFieldOf(entry: ContractRoute): keyof SeededResources {
  const field = ID_FIELD[entry.route.path.split('/')[1] ?? ''];
  if (!field) throw new Error(`no id for ${entry.route.path}`);
  return field;
}

/** Path ids: the organization's own resource, another organization's, random UUIDs and random (well-encoded) text. */
function pathIdFor(entry: ContractRoute): fc.Arbitrary<PathId> {
  const field = idFieldOf(entry);
  const own = String(suite.data[field]);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant<PathId>({ kind: 'own', encoded: own }) },
    { weight: 1, arbitrary: fc.constant<PathId>({ kind: 'own', encoded: own.toUpperCase() }) },
    { weight: 1, arbitrary: fc.constant<PathId>({ kind: 'foreign', encoded: String(suite.foreign[field]) }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          uuidLike.filter((id) => id !== ''),
          fc.constantFrom(`${own}0`, ` ${own}`, 'null', '0', '-1'),
        )
        .map((id): PathId => ({ kind: 'other', encoded: encodeURIComponent(id) })),
    },
    {
      weight: 2,
      arbitrary: metaString(1, 40)
        .map(encodeURIComponent)
        .filter((id) => id !== '.' && id !== '..')
        .map((encoded): PathId => ({ kind: 'other', encoded })),
    },
  );
}

const pathWith = (entry: ContractRoute, id: PathId | undefined) =>
  id === undefined ? entry.route.path : entry.route.path.replace(':id', id.encoded);

/** What a DELETE with the organization's own id removes: made fresh for it, so later runs still find the seeded one. */
async function freshVictim(entry: ContractRoute): Promise<string | undefined> {
  if (entry.key === 'items.delete') {
    const created = await call<Item>(suite.server.baseUrl, 'POST', '/items', {
      key: key(),
      body: { sku: uniqueSku('DEL'), title: 'To delete' },
    });
    return created.body.id;
  }
  if (entry.key === 'webhookEndpoints.delete') {
    const created = await call<{ id: string }>(suite.server.baseUrl, 'POST', '/webhook-endpoints', {
      key: key(),
      body: { url: 'https://hooks.example.com/to-delete', events: ['*'] },
    });
    return created.body.id;
  }
  return undefined;
}

const everyRoute = contractRoutes.map((entry) => [entry.key, entry] as const);
const bodyRoutes = contractRoutes.filter((entry) => entry.route.method !== 'GET').map((e) => [e.key, e] as const);

describe('generated query strings and path ids, on every route', () => {
  it.each(everyRoute)('%s: never 500; every answer is declared and shaped by the contract', async (_key, entry) => {
    const body = takesBody(entry.route) ? JSON.stringify({ sku: uniqueSku('QS'), title: 'Query probe' }) : undefined;
    const id = takesId(entry) ? pathIdFor(entry) : fc.constant(undefined);
    await fc.assert(
      fc.asyncProperty(queryStringFor(entry), id, async (query, pathId) => {
        // A DELETE that succeeds removes the item; later runs need one to exist.
        let path = pathWith(entry, pathId);
        const victim = pathId?.kind === 'own' ? await freshVictim(entry) : undefined;
        if (victim !== undefined) path = pathWith(entry, { kind: 'own', encoded: victim });
        const bodyText = entry.key === 'items.create' ? JSON.stringify({ sku: uniqueSku('QS'), title: 'Q' }) : body;
        const response = await call(suite.server.baseUrl, entry.route.method, `${path}${query}`, {
          key: key(),
          ...(bodyText !== undefined && { rawBody: bodyText, headers: { 'content-type': 'application/json' } }),
        });
        const label = describeExchange(entry.route.method, `${path}${query}`, bodyText, response);
        expectContractAnswer(entry, response, label);
        if (pathId?.kind === 'foreign') expect([400, 404], label).toContain(response.status);
        if (response.status === 200 && typeof response.body === 'object' && response.body !== null) {
          const list = response.body as { items?: unknown[]; limit?: number };
          if (list.limit !== undefined) expect(list.items?.length ?? 0, label).toBeLessThanOrEqual(list.limit);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('generated JSON bodies, on every route that takes one', () => {
  it.each(bodyRoutes)('%s: never 500; answers declared and shaped; refusals change nothing', async (_key, entry) => {
    await fc.assert(
      fc.asyncProperty(rawBody, pathIdFor(entry), async (generated, generatedId) => {
        const raw = withRealIds(generated);
        let pathId = generatedId;
        if (entry.key === 'items.create') pathId = { kind: 'other', encoded: '' };
        const victim = pathId.kind === 'own' ? await freshVictim(entry) : undefined;
        if (victim !== undefined) pathId = { kind: 'own', encoded: victim };
        const path = takesId(entry) ? pathWith(entry, pathId) : entry.route.path;
        // The routes answering with one item (or deleting one), whose answer can be compared with a GET.
        const itemRoute = ['items.create', 'items.update', 'items.delete'].includes(entry.key);
        const before =
          itemRoute && pathId.kind === 'own'
            ? await call(suite.server.baseUrl, 'GET', `/items/${pathId.encoded}`, { key: key() })
            : undefined;
        const countBefore = await itemCount();

        const response = await call(suite.server.baseUrl, entry.route.method, path, {
          key: key(),
          rawBody: raw,
          headers: { 'content-type': 'application/json' },
        });
        const label = describeExchange(entry.route.method, path, raw, response);
        expectContractAnswer(entry, response, label);
        if (pathId.kind === 'foreign') expect([400, 404], label).toContain(response.status);

        // What the contract's own schema refuses, the server refuses with 400.
        let parsedBody: unknown;
        try {
          // An empty body is no body: PATCH then changes nothing, POST lacks its required fields.
          parsedBody = raw === '' ? {} : JSON.parse(raw);
        } catch {
          parsedBody = undefined;
        }
        const schema =
          entry.key === 'items.create'
            ? CreateItemBodySchema
            : entry.key === 'items.update'
              ? UpdateItemBodySchema
              : undefined;
        if (schema && (parsedBody === undefined || !schema.safeParse(parsedBody).success)) {
          expect(response.status, label).toBe(400);
        }

        if (!itemRoute) {
          // Another resource's answer: shaped by the contract (checked above); a refusal changed no item.
          if (response.status !== 200) expect(await itemCount(), label).toBe(countBefore);
        } else if (response.status === 200 && entry.key !== 'items.delete') {
          const item = response.body as Item;
          const stored = await call(suite.server.baseUrl, 'GET', `/items/${item.id}`, { key: key() });
          expect(stored.body, label).toEqual(item);
        } else if (response.status === 200) {
          expect(
            (await call(suite.server.baseUrl, 'GET', `/items/${pathId.encoded}`, { key: key() })).status,
            label,
          ).toBe(404);
        } else {
          expect(await itemCount(), label).toBe(countBefore);
          if (before) {
            const after = await call(suite.server.baseUrl, 'GET', `/items/${pathId.encoded}`, { key: key() });
            expect(after.body, label).toEqual(before.body);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
