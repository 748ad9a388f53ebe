import { CsvParser, csvRecord, csvRow, ITEM_CSV_COLUMNS } from '@coinventory/contract/csv';
import { describe, expect, it } from 'vitest';
import { csvInputRow, ndjsonRow, planHeader } from '../src/import/rows.js';

// The import's CSV reader and row reading, without a server: every way RFC 4180 text can arrive in chunks, and
// what each value becomes in the body.

/** The records of `text` fed in chunks of `size` characters. */
function parse(text: string, size = text.length) {
  const parser = new CsvParser();
  const records = [];
  for (let i = 0; i < text.length; i += size) records.push(...parser.push(text.slice(i, i + size)));
  records.push(...parser.end());
  return records;
}

describe('the CSV reader', () => {
  const text = 'a,"b, ""quoted""",c\r\n"two\r\nlines",,"x"\n\nlast,"",end';

  it('reads quoted fields with commas, quotes and line breaks; CRLF, LF and a last line without one', () => {
    const expected = [
      { fields: ['a', 'b, "quoted"', 'c'], row: 1 },
      { fields: ['two\r\nlines', '', 'x'], row: 2 },
      { fields: [''], row: 3 },
      { fields: ['last', '', 'end'], row: 4 },
    ];
    // Every chunk size, so that no boundary (inside a quote, between CR and LF) changes what is read.
    for (let size = 1; size <= text.length; size += 1) expect(parse(text, size), `chunks of ${size}`).toEqual(expected);
  });

  it('reads back every byte the export writes', () => {
    const item = {
      id: 'i',
      sku: ' S,1 ',
      title: 'He said "hi"\r\nand left',
      attributes: { note: 'a,"b"' },
      quantity: { available: 1 },
    };
    const written = csvRecord(ITEM_CSV_COLUMNS) + csvRow(ITEM_CSV_COLUMNS, item);
    const [header, row] = parse(written, 7);
    expect(header?.fields).toEqual(ITEM_CSV_COLUMNS);
    expect(row?.fields[1]).toBe(' S,1 ');
    expect(row?.fields[2]).toBe('He said "hi"\r\nand left');
    expect(JSON.parse(row?.fields[ITEM_CSV_COLUMNS.indexOf('attributes')] ?? '')).toEqual({ note: 'a,"b"' });
  });

  it('marks quoting mistakes on their record, keeping the text as written, and reads on', () => {
    const records = parse('a,"b"c,d\r\nnext,row\r\n"open,never closed\r\nmore');
    expect(records[0]).toMatchObject({ fields: ['a', '"b"c', 'd'], problem: expect.stringContaining('field 2') });
    expect(records[1]).toEqual({ fields: ['next', 'row'], row: 2 });
    expect(records[2]).toMatchObject({
      fields: ['open,never closed\r\nmore'],
      problem: expect.stringContaining('never closed'),
    });
  });
});

describe('rows into bodies', () => {
  const plan = planHeader(
    {
      fields: [
        'id',
        'sku',
        'title',
        'quantity.available',
        'valueInCents',
        'description',
        'attributes',
        'gradingService',
      ],
      row: 1,
    },
    'create',
    'f.csv',
  );
  const body = (fields: string[]) => csvInputRow({ fields, row: 2 }, plan);

  it('read-only columns are skipped; an empty field is null where null clears, else left out', () => {
    expect(body(['x', 'S', 'T', '', '', '', '', '']).body).toEqual({
      sku: 'S',
      title: 'T',
      description: null,
      gradingService: null,
    });
  });

  it('integers in plain notation are numbers; anything else is sent as text for the API to refuse', () => {
    const values = (quantity: string) => body(['', 'S', 'T', quantity, '', 'd', '{}', 'P']).body?.quantity;
    expect(values('42')).toBe(42);
    expect(values('-1')).toBe(-1);
    expect(values('1.5')).toBe(1.5);
    expect(values('lots')).toBe('lots');
    expect(values('1e3')).toBe('1e3');
    // Past 2^53 a number would not be exact: the digits go as text, and the API refuses them.
    expect(values('9007199254740993')).toBe('9007199254740993');
  });

  it('attributes are JSON; invalid JSON refuses the row before anything is sent', () => {
    expect(body(['', 'S', 'T', '', '', '', '{"year":1921}', '']).body?.attributes).toEqual({ year: 1921 });
    expect(body(['', 'S', 'T', '', '', '', '{year}', '']).error).toMatch(/^attributes: not valid JSON \(/);
  });

  it('NDJSON: an Item as exported (nested), or body fields; the export end line is skipped', () => {
    const item = {
      id: 'x',
      sku: 'S',
      title: 'T',
      category: null,
      quantity: { available: 3, sold: 1, reserved: 0 },
      grading: { service: 'PCGS', grade: null },
      attributes: { a: { nested: true } },
    };
    expect(ndjsonRow(JSON.stringify(item), 1)?.body).toEqual({
      sku: 'S',
      title: 'T',
      categoryId: null,
      quantity: 3,
      gradingService: 'PCGS',
      grade: null,
      attributes: { a: { nested: true } },
    });
    expect(ndjsonRow('{"sku":"S","title":"T","quantity":2}', 1)?.body).toEqual({ sku: 'S', title: 'T', quantity: 2 });
    expect(ndjsonRow('{"count":3,"nextCursor":"c"}', 4)).toBeUndefined();
    expect(ndjsonRow('   ', 5)).toBeUndefined();
    expect(ndjsonRow('{"sku":"S","grade":"A","grading":{"grade":"B"}}', 6)?.error).toBe(
      '"grade", "grading.grade" both set grade: keep one.',
    );
  });
});
