import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CSV_FORMULA_TRIGGERS,
  CsvParser,
  csvField,
  csvRecord,
  csvRow,
  ITEM_BODY_FIELD_KINDS,
  ITEM_COLUMN_BODY_FIELDS,
  ITEM_CSV_COLUMNS,
  ITEM_READ_ONLY_COLUMNS,
  type ItemBodyFieldType,
} from '../src/csv.js';
import { COMPONENT_EXAMPLES } from '../src/openapi/examples.js';
import { CreateItemBodySchema } from '../src/schemas/item.js';

describe('item CSV', () => {
  it('has a column for every field of Item, nested ones dotted, in the order an item shows them', () => {
    expect(ITEM_CSV_COLUMNS.slice(0, 6)).toEqual(['id', 'sku', 'title', 'description', 'category.id', 'category.name']);
    expect(new Set(ITEM_CSV_COLUMNS).size).toBe(ITEM_CSV_COLUMNS.length);
    expect(ITEM_CSV_COLUMNS).toHaveLength(27);
  });

  it('reads every field POST /items takes from exactly one column, and skips the others', () => {
    const columns = Object.keys(ITEM_COLUMN_BODY_FIELDS);
    for (const column of columns) expect(ITEM_CSV_COLUMNS).toContain(column);
    expect(Object.values(ITEM_COLUMN_BODY_FIELDS).sort()).toEqual(Object.keys(CreateItemBodySchema.shape).sort());
    expect([...columns, ...ITEM_READ_ONLY_COLUMNS].sort()).toEqual([...ITEM_CSV_COLUMNS].sort());
    expect(ITEM_READ_ONLY_COLUMNS).toEqual([
      'id',
      'category.name',
      'quantity.sold',
      'quantity.reserved',
      'consignmentId',
      'isAtAuction',
      'images',
      'createdAt',
      'updatedAt',
    ]);
  });

  it('quotes what needs it, keeps JSON for maps and arrays, and leaves null empty', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField({ year: 1921 })).toBe('"{""year"":1921}"');
    const record = csvRow(ITEM_CSV_COLUMNS, COMPONENT_EXAMPLES.Item);
    expect(record.endsWith('\r\n')).toBe(true);
    expect(record.startsWith(`${COMPONENT_EXAMPLES.Item.id},MOR-1921-D-63,`)).toBe(true);
  });
});

/** What a field holds once its RFC 4180 quoting is undone: what a spreadsheet sees in the cell. */
const cellOf = (field: string): string => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field);

/** The text of one written field, read back by the contract's reader. */
function readBack(field: string): string | undefined {
  const parser = new CsvParser();
  const [record, ...more] = [...parser.push(`${field}\r\n`), ...parser.end()];
  expect(more).toEqual([]);
  expect(record?.problem).toBeUndefined();
  return record?.fields.length === 1 ? record.fields[0] : undefined;
}

/** Every text of up to `length` characters over `alphabet`. */
function texts(alphabet: readonly string[], length: number): string[] {
  let level = [''];
  const all = [''];
  for (let i = 0; i < length; i += 1) {
    level = level.flatMap((text) => alphabet.map((char) => text + char));
    all.push(...level);
  }
  return all;
}

describe('CSV cells a spreadsheet would run as formulas', () => {
  const startsWithTrigger = (cell: string) => (CSV_FORMULA_TRIGGERS as readonly string[]).includes(cell[0] ?? '');

  it("get one leading ' (text only), quoted afterwards where RFC 4180 needs it", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1+2')).toBe("'-1+2");
    expect(csvField('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField('-5')).toBe("'-5");
    // Quotes already there, then a trigger: one more, so that taking one away is always right.
    expect(csvField("'=already")).toBe("''=already");
    expect(csvField("''=")).toBe("'''=");
    // Nothing a spreadsheet runs: unchanged.
    expect(csvField("'")).toBe("'");
    expect(csvField("'x")).toBe("'x");
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(' =1')).toBe('" =1"');
    expect(csvField('\n=1')).toBe('"\n=1"');
    // Numbers, booleans, null and JSON are the API's values, as they are.
    expect(csvField(-5)).toBe('-5');
    expect(csvField(false)).toBe('false');
    expect(csvField(null)).toBe('');
    expect(csvField(['=1'])).toBe('"[""=1""]"');
  });

  it('read back as the text they were, in every field of a record, and only when neutralised', () => {
    const values = ['=1', "'=2", "''''''@x", "'", "''", "'x", 'plain', '-', '@', ' \t', '\r\n'];
    const written = csvRecord(values);
    const parser = new CsvParser();
    expect([...parser.push(written), ...parser.end()]).toEqual([{ fields: values, row: 1 }]);
    // A cell with quotes but no trigger after them was never prefixed: read as it is.
    expect(readBack("'a")).toBe("'a");
    expect(readBack("''")).toBe("''");
    expect(readBack("'")).toBe("'");
    expect(readBack("'' =1")).toBe("'' =1");
  });

  it('round-trip every text over the hostile characters, and no written text cell starts like a formula', () => {
    // Every text of up to 4 characters over the triggers, the quote, the characters CSV quotes for, LF, space and a
    // letter (some 22,000): exhaustive where a random sample could miss the one case that matters.
    const alphabet = [...CSV_FORMULA_TRIGGERS, "'", '"', ',', '\n', ' ', 'x'];
    let count = 0;
    for (const text of texts(alphabet, 4)) {
      count += 1;
      const field = csvField(text);
      const cell = cellOf(field);
      if (startsWithTrigger(cell)) expect.fail(`${JSON.stringify(text)} is written as ${JSON.stringify(field)}`);
      if (cell !== text && cell !== `'${text}`) expect.fail(`${JSON.stringify(text)} became ${JSON.stringify(cell)}`);
      const read = readBack(field);
      if (read !== text) expect.fail(`${JSON.stringify(text)} is read back as ${JSON.stringify(read)}`);
    }
    expect(count).toBe(1 + 12 + 12 ** 2 + 12 ** 3 + 12 ** 4);
  });
});

/** A body field's schema without its wrappers (optional, nullable, refinements), and whether null passes them. */
function unwrap(schema: z.ZodTypeAny): { inner: z.ZodTypeAny; nullable: boolean } {
  let inner = schema;
  let nullable = false;
  for (;;) {
    if (inner instanceof z.ZodOptional) inner = inner.unwrap();
    else if (inner instanceof z.ZodNullable) {
      nullable = true;
      inner = inner.unwrap();
    } else if (inner instanceof z.ZodEffects) inner = inner.innerType();
    else return { inner, nullable };
  }
}

/** The kind of value a body field's zod schema takes, as ITEM_BODY_FIELD_KINDS names it. */
function kindOf(schema: z.ZodTypeAny): ItemBodyFieldType {
  if (schema instanceof z.ZodNumber) {
    if (!schema.isInt) throw new Error('a number field that is not an integer');
    return 'integer';
  }
  if (schema instanceof z.ZodRecord || schema instanceof z.ZodObject) return 'json';
  if (schema instanceof z.ZodString) {
    if (schema.isUUID) return 'uuid';
    if (schema.isDatetime) return 'datetime';
    return 'text';
  }
  throw new Error(`no kind for ${schema.constructor.name}`);
}

describe('item body field kinds (how an import reads a CSV field)', () => {
  it('name every field of POST /items, with the type and nullability of its schema', () => {
    const shape = CreateItemBodySchema.shape;
    expect(Object.keys(ITEM_BODY_FIELD_KINDS).sort()).toEqual(Object.keys(shape).sort());
    const fromSchema = Object.fromEntries(
      Object.entries<z.ZodTypeAny>(shape).map(([field, schema]) => {
        const { inner, nullable } = unwrap(schema);
        return [field, { type: kindOf(inner), nullable }];
      }),
    );
    expect(ITEM_BODY_FIELD_KINDS).toEqual(fromSchema);
  });

  it('accept null exactly where the schema does', () => {
    for (const [field, kind] of Object.entries(ITEM_BODY_FIELD_KINDS)) {
      const parsed = CreateItemBodySchema.safeParse({ sku: 'S', title: 'T', [field]: null });
      // sku and title are required strings: null fails them like any other non-nullable field.
      expect(parsed.success, field).toBe(kind.nullable);
    }
  });
});
