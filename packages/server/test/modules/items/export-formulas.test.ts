import {
  CategoryListSchema,
  CSV_FORMULA_TRIGGERS,
  CsvParser,
  ITEM_CSV_COLUMNS,
  type Item,
} from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { expectStatus } from '../../support/http.js';
import { importFiles, operatorCommands } from '../../support/imports.js';
import { type Api, freshApi, listItems } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * Spreadsheet formula injection (issue 35): text that starts like a formula is exported as CSV with a leading `'`
 * (so a spreadsheet shows it instead of running it), and an operator's CSV import takes that `'` off again; NDJSON
 * is never touched. (The CLI's `--output csv` and `items import` round trip is in the CLI's suite.)
 */

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

/** Starts a spreadsheet reads as a formula, and text around them that must come back unchanged too. */
const HOSTILE = ['=HYPERLINK("http://x")', '+1', '-1+2', '@SUM(1)', '\tx', '\rx', "'=already", '-5', "''=", "'"];
const startsLikeFormula = (text: string) => /^'*[-=+@\t\r]/.test(text);

/** A CSV's fields as a spreadsheet sees them: RFC 4180 quoting undone, nothing else. */
function cellsOf(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i += 1) {
    const char = csv[i] as string;
    if (quoted) {
      if (char === '"' && csv[i + 1] === '"') i += 1;
      else if (char === '"') {
        quoted = false;
        continue;
      }
      field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',' || (char === '\r' && csv[i + 1] === '\n')) {
      row.push(field);
      field = '';
      if (char === '\r') {
        rows.push(row);
        row = [];
        i += 1;
      }
    } else field += char;
  }
  expect(field, 'the CSV ends with CRLF').toBe('');
  return rows;
}

describe('GET /exports/items as CSV', () => {
  it("writes text that starts like a formula with one leading ', which the contract's reader takes off", async () => {
    const api: Api = await freshApi(ctx.server, ctx.organization);
    const made = await api.post<{ failed: number }>('/items/batch', {
      body: {
        mode: 'create',
        items: HOSTILE.map((text, i) => ({
          sku: `${text}FML-${i}`,
          title: text,
          description: `${text} and more`,
          grade: text,
          attributes: { note: text },
        })),
      },
    });
    expectStatus(made, 200);
    expect(made.body.failed).toBe(0);
    const items: Item[] = (await listItems(api, { sort: 'oldest', limit: 100 })).items;
    expect(items.map((item) => item.title).sort()).toEqual([...HOSTILE].sort());

    const response = await fetch(`${ctx.server.baseUrl}/exports/items`, {
      headers: { authorization: `Bearer ${ctx.organization.readKey}`, accept: 'text/csv' },
    });
    expect(response.status).toBe(200);
    const csv = await response.text();

    // As a spreadsheet reads it: no cell starts like a formula, and each text cell set here has one ' more.
    const [header, ...rows] = cellsOf(csv);
    expect(header).toEqual(ITEM_CSV_COLUMNS);
    const triggers: readonly string[] = CSV_FORMULA_TRIGGERS;
    expect(rows.flat().filter((cell) => triggers.includes(cell[0] ?? ''))).toEqual([]);
    const column = (row: string[], name: string) => row[ITEM_CSV_COLUMNS.indexOf(name)];
    expect(rows.map((row) => column(row, 'id'))).toEqual(items.map((item) => item.id));
    rows.forEach((row, i) => {
      const item = items[i] as Item;
      const expected = (text: string) => (startsLikeFormula(text) ? `'${text}` : text);
      expect(column(row, 'sku')).toBe(expected(item.sku));
      expect(column(row, 'title')).toBe(expected(item.title));
      expect(column(row, 'description')).toBe(expected(item.description as string));
      expect(column(row, 'grading.grade')).toBe(expected(item.grading.grade as string));
      expect(JSON.parse(column(row, 'attributes') ?? '')).toEqual(item.attributes);
    });

    // As an import reads it: every value exactly the item's.
    const parser = new CsvParser();
    const [, ...records] = [...parser.push(csv), ...parser.end()];
    expect(
      records.map((record) =>
        ['sku', 'title', 'description', 'grading.grade'].map((name) => column(record.fields, name)),
      ),
    ).toEqual(items.map((item) => [item.sku, item.title, item.description, item.grading.grade]));
  });
});

describe('coinventory-server import, reading CSV', () => {
  const { run } = operatorCommands(() => ctx.server.database.sql);
  const { file } = importFiles('formulas');

  it("takes the export's ' off text that starts like a formula, and leaves NDJSON as it is", async () => {
    const ws = await createTestOrganization(ctx.server.database.sql);
    const csv = file('categories.csv', [
      'externalId,name',
      `F-1,"'=HYPERLINK(""http://x"")"`,
      "F-2,'-5",
      "F-3,''@SUM(1)",
      "F-4,'",
      "F-5,'plain",
      // Quoted or not: the reader sees the field's text.
      '"F-6","\'+1"',
    ]);
    const ndjson = file('categories.ndjson', [JSON.stringify({ externalId: 'N-1', name: "'=SUM(2)" })]);
    for (const path of [csv, ndjson]) {
      const output = await run('import', 'categories', path, '--org', ws.slug, '--json');
      expect(output.exitCode, output.stderr).toBe(0);
    }
    const response = await fetch(`${ctx.server.baseUrl}/categories?limit=100`, {
      headers: { authorization: `Bearer ${ws.readKey}` },
    });
    expect(response.status).toBe(200);
    const names = CategoryListSchema.parse(await response.json()).items.map((category) => category.name);
    expect(names.sort()).toEqual(['=HYPERLINK("http://x")', '-5', "'@SUM(1)", "'", "'plain", '+1', "'=SUM(2)"].sort());
  });
});
