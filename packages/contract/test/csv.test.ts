import { describe, expect, it } from 'vitest';
import { csvField, csvRow, ITEM_COLUMN_BODY_FIELDS, ITEM_CSV_COLUMNS, ITEM_READ_ONLY_COLUMNS } from '../src/csv.js';
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
