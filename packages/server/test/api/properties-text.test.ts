import { contractRoutes, ERRORS, ErrorBodySchema, type Item } from '@coinventory/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { attributeValue, metaString, queryKeysOf } from '../support/arbitraries.js';
import { call } from '../support/http.js';
import { ITEM_TEXT_FIELDS } from '../support/items.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { describeExchange, expectContractAnswer, propertiesServer, RUNS } from '../support/properties.js';
import { takesBody, takesId, uniqueSku } from '../support/routes.js';

/**
 * Property-based tests (fast-check) of text: with SQL and JSON metacharacters it is stored and returned unchanged;
 * text PostgreSQL cannot store is refused with 400; and the edges fast-check once found stay fixed.
 */

const suite = propertiesServer();
const { key, itemCount } = suite;

describe('text with SQL and JSON metacharacters', () => {
  // An organization of its own, so no SKU made by the other property tests can collide with the ones made here.
  let owner: TestOrganization;
  const usedSkus = new Set<string>();
  beforeAll(async () => {
    owner = await createTestOrganization(suite.server.database.sql);
  });
  const ownerKey = () => owner.key;
  // fast-check also offers `__proto__` as a key; that one has a test of its own below.
  const attributes = fc.dictionary(
    metaString(1, 100).filter((name) => name !== '__proto__'),
    attributeValue,
    { maxKeys: 6 },
  );
  const itemText = fc.record({
    sku: metaString(1, 100),
    title: metaString(1, 300),
    description: fc.option(metaString(0, 300), { nil: undefined }),
    attributes: fc.option(attributes, { nil: undefined }),
    gradingNotes: fc.option(metaString(0, 100), { nil: undefined }),
  });

  it('round-trips unchanged through POST /items, GET /items/{id}, the sku filter, search and PATCH', async () => {
    await fc.assert(
      fc.asyncProperty(itemText, itemText, async (input, change) => {
        fc.pre(!usedSkus.has(input.sku));
        usedSkus.add(input.sku);
        // What was sent, as JSON carries it (JSON has no -0).
        const sent = JSON.parse(JSON.stringify(input)) as typeof input;
        const created = await call<Item>(suite.server.baseUrl, 'POST', '/items', { key: ownerKey(), body: input });
        const label = describeExchange('POST', '/items', JSON.stringify(input), created);
        expect(created.status, label).toBe(200);
        expect(
          {
            sku: created.body.sku,
            title: created.body.title,
            description: created.body.description,
            attributes: created.body.attributes,
            gradingNotes: created.body.grading.notes,
          },
          label,
        ).toEqual({
          sku: sent.sku,
          title: sent.title,
          description: sent.description ?? null,
          attributes: sent.attributes ?? {},
          gradingNotes: sent.gradingNotes ?? null,
        });

        const fetched = await call<Item>(suite.server.baseUrl, 'GET', `/items/${created.body.id}`, { key: ownerKey() });
        expect(fetched.status, label).toBe(200);
        expect(fetched.body, label).toEqual(created.body);

        const bySku = await call<{ items: Item[] }>(
          suite.server.baseUrl,
          'GET',
          `/items?sku=${encodeURIComponent(sent.sku)}`,
          { key: ownerKey() },
        );
        expect(bySku.status, label).toBe(200);
        expect(
          bySku.body.items.map((item) => item.id),
          label,
        ).toEqual([created.body.id]);

        const searched = await call<{ items: Item[] }>(
          suite.server.baseUrl,
          'GET',
          `/items?q=${encodeURIComponent(sent.sku)}&limit=100`,
          { key: ownerKey() },
        );
        expect(searched.status, label).toBe(200);
        expect(
          searched.body.items.map((item) => item.id),
          label,
        ).toContain(created.body.id);

        // PATCH with other text (not the sku, which may collide): changed exactly, and GET agrees.
        const { sku: _sku, ...patch } = change;
        const sentPatch = JSON.parse(JSON.stringify(patch)) as Omit<typeof change, 'sku'>;
        const patched = await call<Item>(suite.server.baseUrl, 'PATCH', `/items/${created.body.id}`, {
          key: ownerKey(),
          body: patch,
        });
        expect(patched.status, label).toBe(200);
        expect(patched.body.title, label).toBe(sentPatch.title);
        expect(patched.body.description, label).toBe(
          sentPatch.description === undefined ? created.body.description : sentPatch.description,
        );
        expect(patched.body.attributes, label).toEqual(sentPatch.attributes ?? created.body.attributes);
        expect(patched.body.grading.notes, label).toBe(
          sentPatch.gradingNotes === undefined ? created.body.grading.notes : sentPatch.gradingNotes,
        );
        const refetched = await call<Item>(suite.server.baseUrl, 'GET', `/items/${created.body.id}`, {
          key: ownerKey(),
        });
        expect(refetched.body, label).toEqual(patched.body);
      }),
      { numRuns: RUNS },
    );
  });

  it('an attribute named __proto__ is stored and returned like any other key, or refused with 400', async () => {
    const raw = `{"sku":${JSON.stringify(uniqueSku('PROTO'))},"title":"Proto","attributes":{"__proto__":"x","a":1}}`;
    const created = await call<Item>(suite.server.baseUrl, 'POST', '/items', {
      key: key(),
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect([200, 400], created.text).toContain(created.status);
    if (created.status === 200) {
      // Silently dropping the key would lose data the client was told was saved.
      expect(Object.entries(created.body.attributes).sort(), created.text).toEqual([
        ['__proto__', 'x'],
        ['a', 1],
      ]);
    }
  });
});

describe('text PostgreSQL cannot store', () => {
  const poison = fc.oneof(
    fc.constant('\u0000'),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  );
  const poisoned = fc.tuple(metaString(0, 20), poison, metaString(0, 20)).map(([a, p, b]) => `${a}${p}${b}`);
  const TEXT_FIELDS = [...ITEM_TEXT_FIELDS, 'attributeKey', 'attributeValue'] as const;

  function bodyWith(field: (typeof TEXT_FIELDS)[number], value: string): Record<string, unknown> {
    const body: Record<string, unknown> = { sku: uniqueSku('NUL'), title: 'Poisoned' };
    if (field === 'attributeKey') body.attributes = { [value]: 'v' };
    else if (field === 'attributeValue') body.attributes = { k: value };
    else body[field] = value;
    return body;
  }

  it('NUL and unpaired surrogates in any text field → 400 on POST and PATCH, nothing stored', async () => {
    const original = await call<Item>(suite.server.baseUrl, 'GET', `/items/${suite.data.itemId}`, { key: key() });
    expect(original.status).toBe(200);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TEXT_FIELDS), poisoned, async (field, value) => {
        const countBefore = await itemCount();
        const body = bodyWith(field, value);
        const created = await call(suite.server.baseUrl, 'POST', '/items', { key: key(), body });
        const label = describeExchange('POST', '/items', JSON.stringify(body), created);
        expect(created.status, label).toBe(400);
        const parsed = ErrorBodySchema.strict().parse(created.body);
        expect(parsed.code, label).toBe('BAD_REQUEST');
        expect(parsed.message, label).toBe(ERRORS.BAD_REQUEST.message);
        expect(parsed.issues?.length ?? 0, label).toBeGreaterThan(0);
        expect(await itemCount(), label).toBe(countBefore);

        const { sku: _sku, title: _title, ...patch } = body;
        const patchBody = field === 'sku' || field === 'title' ? { [field]: value } : patch;
        const patched = await call(suite.server.baseUrl, 'PATCH', `/items/${suite.data.itemId}`, {
          key: key(),
          body: patchBody,
        });
        expect(patched.status, describeExchange('PATCH', '', JSON.stringify(patchBody), patched)).toBe(400);
      }),
      { numRuns: RUNS },
    );
    const after = await call<Item>(suite.server.baseUrl, 'GET', `/items/${suite.data.itemId}`, { key: key() });
    expect(after.body).toEqual(original.body);
  });

  it('NUL in a text query parameter → 400 on every list route', async () => {
    const lists = contractRoutes.filter((entry) => queryKeysOf(entry).includes('q'));
    expect(lists.map((entry) => entry.key)).toEqual([
      'items.list',
      'items.export',
      'consignments.list',
      'invoices.list',
    ]);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), metaString(0, 20), metaString(0, 20), async (entry, a, b) => {
        const textKeys = queryKeysOf(entry).filter((name) => ['q', 'sku', 'grade', 'gradingService'].includes(name));
        for (const name of textKeys) {
          const path = `${entry.route.path}?${name}=${encodeURIComponent(`${a}\u0000${b}`)}`;
          const response = await call(suite.server.baseUrl, 'GET', path, { key: key() });
          const label = describeExchange('GET', path, undefined, response);
          expectContractAnswer(entry, response, label);
          expect(response.status, label).toBe(400);
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('edges the generators keep away from (each found by fast-check; see the report)', () => {
  // A request line that cannot be decoded is refused before authentication, like any malformed HTTP.
  it('a path id with broken percent-encoding → 400, with or without a key, never 500', async () => {
    const broken = fc.constantFrom('%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', 'abc%');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...contractRoutes.filter(takesId).map((entry) => entry.key)),
        broken,
        fc.boolean(),
        async (routeKey, id, withKey) => {
          const entry = contractRoutes.find((candidate) => candidate.key === routeKey);
          if (!entry) throw new Error(routeKey);
          const path = entry.route.path.replace(':id', id);
          const response = await call(suite.server.baseUrl, entry.route.method, path, {
            key: withKey ? key() : null,
            ...(takesBody(entry.route) && { body: { title: 'x' } }),
          });
          const label = describeExchange(entry.route.method, path, withKey ? 'with key' : 'without key', response);
          expectContractAnswer(entry, response, label);
          expect(response.status, label).toBe(400);
        },
      ),
      { numRuns: 20 },
    );
  });

  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  /** Date-times as zod's datetime({ offset: true }) accepts them, years 0000 to 9999, any offset. */
  const dateTimeInput = fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      millis: fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
      offset: fc.option(
        fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })),
        { nil: undefined },
      ),
    })
    .map(({ year, month, day, hour, minute, millis, offset }) => {
      const fraction = millis === undefined ? '' : `.${pad(millis, 3)}`;
      const zone = offset === undefined ? 'Z' : `${offset[0]}${pad(offset[1], 2)}:${pad(offset[2], 2)}`;
      return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:00${fraction}${zone}`;
    });
  /** The UTC year of the instant a date-time names. */
  const utcYear = (value: string) => new Date(Date.parse(value)).getUTCFullYear();

  async function postDated(acquisitionDate: string) {
    const body = { sku: uniqueSku('DATE'), title: 'Dated', acquisitionDate };
    const created = await call<Item>(suite.server.baseUrl, 'POST', '/items', { key: key(), body });
    return { created, label: describeExchange('POST', '/items', JSON.stringify(body), created) };
  }

  it('an acquisitionDate in years 0001-9999 (UTC) is refused with 400 or reads back as the same instant', async () => {
    const inRange = dateTimeInput.filter((value) => utcYear(value) >= 1 && utcYear(value) <= 9999);
    await fc.assert(
      fc.asyncProperty(inRange, async (acquisitionDate) => {
        const { created, label } = await postDated(acquisitionDate);
        expect([200, 400], label).toContain(created.status);
        if (created.status !== 200) return;
        expect(Date.parse(created.body.acquisition.date ?? ''), label).toBe(Date.parse(acquisitionDate));
        const fetched = await call<Item>(suite.server.baseUrl, 'GET', `/items/${created.body.id}`, { key: key() });
        expect(fetched.body.acquisition.date, label).toBe(created.body.acquisition.date);
      }),
      { numRuns: 100 },
    );
  });

  it('an acquisitionDate outside years 0001-9999 (UTC) → 400, never 500', async () => {
    const outOfRange = fc.oneof(
      dateTimeInput.map((value) => `0000${value.slice(4)}`),
      dateTimeInput.map((value) => `9999-12-31T23:59${value.slice(16, 19)}-${value.endsWith('Z') ? '01:00' : '23:59'}`),
    );
    await fc.assert(
      fc.asyncProperty(
        outOfRange.filter((value) => utcYear(value) < 1 || utcYear(value) > 9999),
        async (acquisitionDate) => {
          const { created, label } = await postDated(acquisitionDate);
          expect(created.status, label).toBe(400);
          expect(ErrorBodySchema.strict().parse(created.body).code, label).toBe('BAD_REQUEST');
        },
      ),
      { numRuns: 30 },
    );
  });

  it('DELETE /items/{id} with a body that is not JSON → a status the contract declares for it', async () => {
    const entry = contractRoutes.find((candidate) => candidate.key === 'items.delete');
    if (!entry) throw new Error('no items.delete');
    const response = await call(suite.server.baseUrl, 'DELETE', `/items/${suite.data.itemId}`, {
      key: key(),
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expectContractAnswer(entry, response, describeExchange('DELETE', '/items/{id}', 'x (text/plain)', response));
  });
});
