import {
  CONSIGNMENT_STATUSES,
  type ContractRoute,
  CreateItemBodySchema,
  contractRoutes,
  declaredStatuses,
  ERROR_CODES,
  ERRORS,
  ErrorBodySchema,
  type ErrorCode,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  ITEM_SORTS,
  ITEM_STATUSES,
  type Item,
  isStorableText,
  LIMITS,
  UpdateItemBodySchema,
} from '@coinventory/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call } from '../support/http.js';
import { ITEM_TEXT_FIELDS } from '../support/items.js';
import { type SeededResources, seedResources, takesBody, uniqueSku } from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createWorkspace, type TestWorkspace } from '../support/workspace.js';

/**
 * Property-based tests (fast-check) of every contract route: whatever the body, query string or path id, the
 * answer is one the contract declares, shaped as the contract says, and never a 500. Text with SQL and JSON
 * metacharacters is stored and returned unchanged; text PostgreSQL cannot store is refused with 400.
 */

const RUNS = 40;
const JSON_TYPE = /^application\/json(;|$)/;

let server: TestServer;
let workspace: TestWorkspace;
let data: SeededResources;
let foreign: SeededResources;

const key = () => workspace.key;
const itemCount = async () => {
  const [row] = await server.database.sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM items WHERE organization_id = ${workspace.organizationId}
  `;
  return row?.count ?? -1;
};

beforeAll(async () => {
  server = await startTestServer({ policy: { maxRequests: 1_000_000, windowSeconds: 60 } });
  workspace = await createWorkspace(server.database.sql);
  data = await seedResources(server.database.sql, server.baseUrl, workspace, 'PROP');
  const other = await createWorkspace(server.database.sql);
  foreign = await seedResources(server.database.sql, server.baseUrl, other, 'PROPX');
});
afterAll(() => server.close());

// ---------------------------------------------------------------------------------------------------------------
// What every answer must look like.

interface Parser {
  safeParse(value: unknown): { success: true } | { success: false; error: { message: string } };
}

function isParser(value: unknown): value is Parser {
  return typeof value === 'object' && value !== null && typeof (value as Parser).safeParse === 'function';
}

const describeExchange = (method: string, path: string, raw: string | undefined, response: ApiResponse) =>
  `${method} ${path.slice(0, 300)} ${raw === undefined ? '' : raw.slice(0, 300)} → ${response.status} ${response.text.slice(0, 500)}`;

/** The answer is declared by the route, never 500, and its body parses with the contract's schema for it. */
function expectContractAnswer(entry: ContractRoute, response: ApiResponse, label: string) {
  expect(response.status, label).not.toBe(500);
  expect(declaredStatuses(entry.route), label).toContain(response.status);
  expect(response.headers.get('content-type'), label).toMatch(JSON_TYPE);
  if (response.status === 200) {
    const schema: unknown = entry.route.responses[200];
    if (!isParser(schema)) throw new Error(`${entry.key} has no 200 schema`);
    const parsed = schema.safeParse(response.body);
    if (!parsed.success) throw new Error(`${label}\n200 body does not match the contract: ${parsed.error.message}`);
    return;
  }
  const parsed = ErrorBodySchema.strict().safeParse(response.body);
  if (!parsed.success) throw new Error(`${label}\nerror body does not match the contract: ${parsed.error.message}`);
  const body = parsed.data;
  expect(ERROR_CODES, label).toContain(body.code);
  const code = body.code as ErrorCode;
  expect(ERRORS[code].status, label).toBe(response.status);
  expect(body.message, label).toBe(ERRORS[code].message);
  if (response.status === 400) expect(body.issues?.length ?? 0, label).toBeGreaterThan(0);
  else expect(Object.keys(body).sort(), label).toEqual(['code', 'message']);
}

// ---------------------------------------------------------------------------------------------------------------
// Generators.

/** Pieces of text that break naive SQL, LIKE, JSON or Unicode handling. */
const META_UNITS = [
  "'",
  '"',
  '\\',
  '%',
  '_',
  ';',
  '--',
  '/*',
  '*/',
  '{}',
  '[]',
  '{',
  '}',
  '[',
  ']',
  '`',
  '$1',
  '$$',
  '?',
  ':name',
  '\n',
  '\r\n',
  '\t',
  ' ',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u200d',
  'é',
  'e\u0301',
  'ß',
  'İ',
  'ﬃ',
  'Ω',
  '中文',
  'العربية',
  '😀',
  '𝄞',
  '\u{10ffff}',
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  "' OR '1'='1",
  "'; DROP TABLE items; --",
  '\\u0000',
  '\\x00',
  '%00',
  '\\"',
  '"}',
  '",',
  'null',
  'NULL',
  '<script>',
  '&amp;',
];

const metaUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...META_UNITS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter(isStorableText) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);

const codePoints = (text: string) => [...text].length;
const clip = (text: string, max: number) => [...text].slice(0, max).join('');

/** Storable text of min to max code points, dense in metacharacters. */
const metaString = (min: number, max: number) =>
  fc
    .string({ unit: metaUnit, minLength: min, maxLength: Math.min(max, 60) })
    .map((text) => clip(text, max))
    .filter((text) => codePoints(text) >= min && isStorableText(text));

/** Long strings at and around every length bound, in one- and two-unit characters. */
const LENGTHS = [
  1, 49, 50, 51, 99, 100, 101, 199, 200, 201, 299, 300, 301, 499, 500, 501, 1999, 2000, 2001, 20_000, 20_001,
];
const boundaryString = fc
  .tuple(fc.constantFrom('a', 'é', '😀', "'", '\\', '%', '"'), fc.constantFrom(...LENGTHS))
  .map(([unit, length]) => unit.repeat(length));

const STRANGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_SAFE_INTEGER,
];

/** Date-times whose instant lies in years 1000 to 9998, in every accepted and several refused spellings. */
const dateTimeString = fc.oneof(
  fc
    .date({ min: new Date('1000-01-02T00:00:00Z'), max: new Date('9998-12-30T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  fc.constantFrom(
    '2024-02-29T12:00:00Z',
    '2023-02-29T12:00:00Z',
    '2024-02-30T00:00:00Z',
    '2024-01-01T00:00:00',
    '2024-01-01',
    '2024-01-01T00:00:00+02:00',
    '2024-01-01T00:00:00-23:59',
    '2024-01-01T00:00:00+24:00',
    '2024-01-01T00:00:00.123456789Z',
    '2024-13-01T00:00:00Z',
    '2024-01-01T25:00:00Z',
    '2024-01-01 00:00:00Z',
    'now',
    'infinity',
    '-infinity',
    'epoch',
    'today',
  ),
);

const uuidLike = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'not-a-uuid',
    '',
    '{00000000-0000-0000-0000-000000000000}',
  ),
);

/** A value of any JSON type, leaning towards what breaks servers. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: metaString(0, 40) },
  { weight: 1, arbitrary: boundaryString },
  { weight: 2, arbitrary: fc.constantFrom(...STRANGE_NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: uuidLike },
  { weight: 1, arbitrary: dateTimeString },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

const ITEM_FIELDS = Object.keys(UpdateItemBodySchema.shape);

/** Real field names most of the time, with random values of random types. */
const fieldSoup = fc.dictionary(
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ITEM_FIELDS) },
    { weight: 1, arbitrary: fc.string() },
    {
      weight: 1,
      arbitrary: fc.constantFrom('id', 'organizationId', 'organization_id', 'createdAt', 'images', 'status'),
    },
  ),
  anyValue,
  { maxKeys: 10 },
);

const attributeValue = fc.oneof(
  metaString(0, 40),
  fc.constantFrom(...STRANGE_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

/** Bodies close to valid: each field is present or not, mostly with a value of its own type near its bounds. */
const plausibleBody = fc.record(
  {
    sku: fc.oneof(metaString(1, 100), boundaryString, fc.constant('')),
    title: fc.oneof(metaString(1, 300), boundaryString, fc.constant('')),
    description: fc.oneof(metaString(0, 200), boundaryString, fc.constant(null)),
    quantity: fc.oneof(fc.integer({ min: -2, max: 1000 }), fc.constantFrom(...STRANGE_NUMBERS)),
    valueInCents: fc.oneof(fc.nat(), fc.constantFrom(...STRANGE_NUMBERS)),
    acquisitionPriceInCents: fc.oneof(fc.nat(), fc.constantFrom(...STRANGE_NUMBERS), fc.constant(null)),
    acquisitionDate: fc.oneof(dateTimeString, fc.constant(null)),
    acquiredFrom: fc.oneof(metaString(0, 60), boundaryString, fc.constant(null)),
    acquisitionNotes: fc.oneof(metaString(0, 60), boundaryString, fc.constant(null)),
    gradingService: fc.oneof(metaString(0, 60), fc.constant(null)),
    grade: fc.oneof(metaString(0, 60), fc.constant(null)),
    certificateNumber: fc.oneof(metaString(0, 60), fc.constant(null)),
    gradingNotes: fc.oneof(metaString(0, 60), boundaryString, fc.constant(null)),
    categoryId: fc.oneof(
      fc.constant(null),
      uuidLike,
      fc.constant('CATEGORY'), // replaced by the workspace's category
      fc.constant('FOREIGN_CATEGORY'), // replaced by another workspace's category
    ),
    attributes: fc.oneof(
      fc.dictionary(fc.oneof(metaString(1, 100), boundaryString), attributeValue, { maxKeys: 8 }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    warehouseId: fc.oneof(uuidLike, fc.constant('WAREHOUSE')),
    zoneId: fc.oneof(uuidLike, fc.constant('ZONE')),
    locationDetails: fc.oneof(metaString(0, 60), boundaryString, fc.constant(null)),
  },
  { requiredKeys: [] },
);

/** Any JSON text: objects of real fields, near-valid bodies, any JSON value, or text that is not JSON. */
const rawBody = fc.oneof(
  { weight: 4, arbitrary: fieldSoup.map((body) => JSON.stringify(body)) },
  { weight: 4, arbitrary: plausibleBody.map((body) => JSON.stringify(body)) },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '{', '{"sku":', '[]', 'null', '"text"', '1', '{"sku":"a","sku":"b","title":"t"}'),
  },
);

/** Fills the placeholders of plausibleBody with the workspace's real ids (or another workspace's). */
function withRealIds(raw: string): string {
  return raw
    .replaceAll('"FOREIGN_CATEGORY"', JSON.stringify(foreign.categoryId))
    .replaceAll('"CATEGORY"', JSON.stringify(data.categoryId))
    .replaceAll('"WAREHOUSE"', JSON.stringify(workspace.defaultWarehouseId))
    .replaceAll('"ZONE"', JSON.stringify(workspace.defaultZoneId));
}

/** The query parameters a route declares. */
function queryKeysOf(entry: ContractRoute): string[] {
  const query: unknown = 'query' in entry.route ? entry.route.query : undefined;
  if (typeof query !== 'object' || query === null || !('shape' in query)) return [];
  return Object.keys((query as { shape: Record<string, unknown> }).shape);
}

const queryValue = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      '0',
      '1',
      '-1',
      '2',
      '1e1',
      '0x10',
      ' 5',
      '5 ',
      '1.0',
      '+1',
      '20',
      '50',
      '51',
      '100',
      '101',
      String(LIMITS.page.max),
      String(LIMITS.page.max + 1),
      '9007199254740991',
      '99999999999999999999999',
      'NaN',
      'Infinity',
      'true',
      'null',
      'undefined',
      '[]',
      '{}',
      ...ITEM_STATUSES,
      ...ITEM_SORTS,
      ...CONSIGNMENT_STATUSES,
      ...INVOICE_STATUSES,
      ...INVOICE_SORTS,
      'IN_STOCK',
      'newest ',
      'PCGS',
      'MS65',
    ),
  },
  { weight: 1, arbitrary: uuidLike },
  { weight: 3, arbitrary: metaString(0, 40) },
  { weight: 1, arbitrary: fc.constantFrom(...[1, 199, 200, 201].map((n) => '%'.repeat(n))) },
  { weight: 1, arbitrary: fc.nat().map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

/** Fragments sent as they are: broken escapes, repeated and bracketed names, prototype names. */
const RAW_QUERY_FRAGMENTS = [
  '%',
  '%zz',
  '%ED%A0%80',
  '%00',
  'q=%00',
  'sku=%00',
  '%FF',
  'a[b]=c',
  'a[]=1',
  'q',
  'q=',
  '=',
  '&',
  '__proto__=x',
  'constructor=1',
  'hasOwnProperty=1',
  'toString=',
  'page=1&page=2',
  'limit=1&limit=1',
  'q=a+b',
  'q=%2B',
  ';',
  'q=%E0%A4%A',
];

function queryStringFor(entry: ContractRoute) {
  const keys = [...queryKeysOf(entry), 'page', 'limit', 'q', 'status', 'sort'];
  const pair = fc
    .tuple(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: metaString(1, 10) }),
      queryValue,
    )
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return fc
    .array(
      fc.oneof({ weight: 5, arbitrary: pair }, { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERY_FRAGMENTS) }),
      { maxLength: 5 },
    )
    .map((parts) => (parts.length === 0 ? '' : `?${parts.join('&')}`));
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
};
function idFieldOf(entry: ContractRoute): keyof SeededResources {
  const field = ID_FIELD[entry.route.path.split('/')[1] ?? ''];
  if (!field) throw new Error(`no id for ${entry.route.path}`);
  return field;
}

/** Path ids: the workspace's own resource, another workspace's, random UUIDs and random (well-encoded) text. */
function pathIdFor(entry: ContractRoute): fc.Arbitrary<PathId> {
  const field = idFieldOf(entry);
  const own = String(data[field]);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant<PathId>({ kind: 'own', encoded: own }) },
    { weight: 1, arbitrary: fc.constant<PathId>({ kind: 'own', encoded: own.toUpperCase() }) },
    { weight: 1, arbitrary: fc.constant<PathId>({ kind: 'foreign', encoded: String(foreign[field]) }) },
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

const takesId = (entry: ContractRoute) => entry.route.path.includes(':id');

// ---------------------------------------------------------------------------------------------------------------

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
        if (entry.key === 'items.delete' && pathId?.kind === 'own') {
          const created = await call<Item>(server.baseUrl, 'POST', '/items', {
            key: key(),
            body: { sku: uniqueSku('DEL'), title: 'To delete' },
          });
          path = `/items/${created.body.id}`;
        }
        const bodyText = entry.key === 'items.create' ? JSON.stringify({ sku: uniqueSku('QS'), title: 'Q' }) : body;
        const response = await call(server.baseUrl, entry.route.method, `${path}${query}`, {
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
        if (entry.key === 'items.delete' && pathId.kind === 'own') {
          const created = await call<Item>(server.baseUrl, 'POST', '/items', {
            key: key(),
            body: { sku: uniqueSku('DEL'), title: 'To delete' },
          });
          pathId = { kind: 'own', encoded: created.body.id };
        }
        const path = takesId(entry) ? pathWith(entry, pathId) : entry.route.path;
        const before =
          pathId.kind === 'own'
            ? await call(server.baseUrl, 'GET', `/items/${pathId.encoded}`, { key: key() })
            : undefined;
        const countBefore = await itemCount();

        const response = await call(server.baseUrl, entry.route.method, path, {
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

        if (response.status === 200 && entry.key !== 'items.delete') {
          const item = response.body as Item;
          const stored = await call(server.baseUrl, 'GET', `/items/${item.id}`, { key: key() });
          expect(stored.body, label).toEqual(item);
        } else if (response.status === 200) {
          expect((await call(server.baseUrl, 'GET', `/items/${pathId.encoded}`, { key: key() })).status, label).toBe(
            404,
          );
        } else {
          expect(await itemCount(), label).toBe(countBefore);
          if (before) {
            const after = await call(server.baseUrl, 'GET', `/items/${pathId.encoded}`, { key: key() });
            expect(after.body, label).toEqual(before.body);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('text with SQL and JSON metacharacters', () => {
  // A workspace of its own, so no SKU made by the generators above can collide with the ones made here.
  let owner: TestWorkspace;
  const usedSkus = new Set<string>();
  beforeAll(async () => {
    owner = await createWorkspace(server.database.sql);
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
        const created = await call<Item>(server.baseUrl, 'POST', '/items', { key: ownerKey(), body: input });
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

        const fetched = await call<Item>(server.baseUrl, 'GET', `/items/${created.body.id}`, { key: ownerKey() });
        expect(fetched.status, label).toBe(200);
        expect(fetched.body, label).toEqual(created.body);

        const bySku = await call<{ items: Item[] }>(
          server.baseUrl,
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
          server.baseUrl,
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
        const patched = await call<Item>(server.baseUrl, 'PATCH', `/items/${created.body.id}`, {
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
        const refetched = await call<Item>(server.baseUrl, 'GET', `/items/${created.body.id}`, { key: ownerKey() });
        expect(refetched.body, label).toEqual(patched.body);
      }),
      { numRuns: RUNS },
    );
  });

  it('an attribute named __proto__ is stored and returned like any other key, or refused with 400', async () => {
    const raw = `{"sku":${JSON.stringify(uniqueSku('PROTO'))},"title":"Proto","attributes":{"__proto__":"x","a":1}}`;
    const created = await call<Item>(server.baseUrl, 'POST', '/items', {
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
    const original = await call<Item>(server.baseUrl, 'GET', `/items/${data.itemId}`, { key: key() });
    expect(original.status).toBe(200);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TEXT_FIELDS), poisoned, async (field, value) => {
        const countBefore = await itemCount();
        const body = bodyWith(field, value);
        const created = await call(server.baseUrl, 'POST', '/items', { key: key(), body });
        const label = describeExchange('POST', '/items', JSON.stringify(body), created);
        expect(created.status, label).toBe(400);
        const parsed = ErrorBodySchema.strict().parse(created.body);
        expect(parsed.code, label).toBe('BAD_REQUEST');
        expect(parsed.message, label).toBe(ERRORS.BAD_REQUEST.message);
        expect(parsed.issues?.length ?? 0, label).toBeGreaterThan(0);
        expect(await itemCount(), label).toBe(countBefore);

        const { sku: _sku, title: _title, ...patch } = body;
        const patchBody = field === 'sku' || field === 'title' ? { [field]: value } : patch;
        const patched = await call(server.baseUrl, 'PATCH', `/items/${data.itemId}`, { key: key(), body: patchBody });
        expect(patched.status, describeExchange('PATCH', '', JSON.stringify(patchBody), patched)).toBe(400);
      }),
      { numRuns: RUNS },
    );
    const after = await call<Item>(server.baseUrl, 'GET', `/items/${data.itemId}`, { key: key() });
    expect(after.body).toEqual(original.body);
  });

  it('NUL in a text query parameter → 400 on every list route', async () => {
    const lists = contractRoutes.filter((entry) => queryKeysOf(entry).includes('q'));
    expect(lists.map((entry) => entry.key)).toEqual(['items.list', 'consignments.list', 'invoices.list']);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), metaString(0, 20), metaString(0, 20), async (entry, a, b) => {
        const textKeys = queryKeysOf(entry).filter((name) => ['q', 'sku', 'grade', 'gradingService'].includes(name));
        for (const name of textKeys) {
          const path = `${entry.route.path}?${name}=${encodeURIComponent(`${a}\u0000${b}`)}`;
          const response = await call(server.baseUrl, 'GET', path, { key: key() });
          const label = describeExchange('GET', path, undefined, response);
          expectContractAnswer(entry, response, label);
          expect(response.status, label).toBe(400);
        }
      }),
      { numRuns: 15 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('edges the generators above keep away from (each found by fast-check; see the report)', () => {
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
          const response = await call(server.baseUrl, entry.route.method, path, {
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
    const created = await call<Item>(server.baseUrl, 'POST', '/items', { key: key(), body });
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
        const fetched = await call<Item>(server.baseUrl, 'GET', `/items/${created.body.id}`, { key: key() });
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
    const response = await call(server.baseUrl, 'DELETE', `/items/${data.itemId}`, {
      key: key(),
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expectContractAnswer(entry, response, describeExchange('DELETE', '/items/{id}', 'x (text/plain)', response));
  });
});
