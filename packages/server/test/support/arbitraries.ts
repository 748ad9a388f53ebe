import {
  CONSIGNMENT_STATUSES,
  type ContractRoute,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  ITEM_SORTS,
  ITEM_STATUSES,
  isStorableText,
  LIMITS,
  UpdateItemBodySchema,
} from '@coinventory/contract';
import fc from 'fast-check';

/**
 * fast-check generators for the property-based route tests: text dense in SQL, LIKE, JSON and Unicode
 * metacharacters, strings at every length bound, strange numbers and date-times, near-valid bodies, query strings.
 */

/** Pieces of text that break naive SQL, LIKE, JSON or Unicode handling. */
export const META_UNITS = [
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

export const metaUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...META_UNITS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter(isStorableText) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);

export const codePoints = (text: string) => [...text].length;
export const clip = (text: string, max: number) => [...text].slice(0, max).join('');

/** Storable text of min to max code points, dense in metacharacters. */
export const metaString = (min: number, max: number) =>
  fc
    .string({ unit: metaUnit, minLength: min, maxLength: Math.min(max, 60) })
    .map((text) => clip(text, max))
    .filter((text) => codePoints(text) >= min && isStorableText(text));

/** Long strings at and around every length bound, in one- and two-unit characters. */
export const LENGTHS = [
  1, 49, 50, 51, 99, 100, 101, 199, 200, 201, 299, 300, 301, 499, 500, 501, 1999, 2000, 2001, 20_000, 20_001,
];
export const boundaryString = fc
  .tuple(fc.constantFrom('a', 'é', '😀', "'", '\\', '%', '"'), fc.constantFrom(...LENGTHS))
  .map(([unit, length]) => unit.repeat(length));

export const STRANGE_NUMBERS = [
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
export const dateTimeString = fc.oneof(
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

export const uuidLike = fc.oneof(
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
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
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

export const ITEM_FIELDS = Object.keys(UpdateItemBodySchema.shape);

/** Real field names most of the time, with random values of random types. */
export const fieldSoup = fc.dictionary(
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

export const attributeValue = fc.oneof(
  metaString(0, 40),
  fc.constantFrom(...STRANGE_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

/** Bodies close to valid: each field is present or not, mostly with a value of its own type near its bounds. */
export const plausibleBody = fc.record(
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
      fc.constant('CATEGORY'), // replaced by the organization's category
      fc.constant('FOREIGN_CATEGORY'), // replaced by another organization's category
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
export const rawBody = fc.oneof(
  { weight: 4, arbitrary: fieldSoup.map((body) => JSON.stringify(body)) },
  { weight: 4, arbitrary: plausibleBody.map((body) => JSON.stringify(body)) },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '{', '{"sku":', '[]', 'null', '"text"', '1', '{"sku":"a","sku":"b","title":"t"}'),
  },
);

/** The query parameters a route declares. */
export function queryKeysOf(entry: ContractRoute): string[] {
  const query: unknown = 'query' in entry.route ? entry.route.query : undefined;
  if (typeof query !== 'object' || query === null || !('shape' in query)) return [];
  return Object.keys((query as { shape: Record<string, unknown> }).shape);
}

export const queryValue = fc.oneof(
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
export const RAW_QUERY_FRAGMENTS = [
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

export function queryStringFor(entry: ContractRoute) {
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
