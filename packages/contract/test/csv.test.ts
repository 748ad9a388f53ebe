import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  csvField,
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
