import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ITEM_BODY_FIELD_KINDS, ITEM_COLUMN_BODY_FIELDS, ITEM_READ_ONLY_COLUMNS } from '@coinventory/contract/csv';
import { describe, expect, inject, it } from 'vitest';
import { cli, tempDir } from './support/cli.js';
import { withKey } from './support/demo.js';

// `items import --help` lists the columns the importer reads, each with whether it is required, its format and what
// an empty field does; the columns it lists are exactly those the import accepts (tried with dry runs through the
// real binary), and the sample file it names ships in the npm package.

const { keys } = inject('server');
const { run } = withKey(keys.importHelp);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
/** The sample the guides import (moving-to-coinventory.md), which the package ships a copy of. */
const REPOSITORY_SAMPLE = fileURLToPath(new URL('../../server/samples/imports/items.csv', import.meta.url));

interface HelpRow {
  column: string;
  field: string;
  required: string;
  format: string;
  empty: string;
}

/** The rows of the help's column table: from its COLUMN header to the first line that is not a row. */
function helpTable(help: string): HelpRow[] {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => /^ {2}COLUMN +OR FIELD +REQUIRED +FORMAT +EMPTY$/.test(line));
  expect(start, help).toBeGreaterThan(0);
  const rows: HelpRow[] = [];
  for (const line of lines.slice(start + 1)) {
    const cells =
      /^ {2}(\S+) +(\S+) +(yes|no|create|upsert) +(text|integer|date-time|UUID|JSON object) +(clears|left out)$/.exec(
        line,
      );
    if (!cells) break;
    const [, column = '', field = '', required = '', format = '', empty = ''] = cells;
    rows.push({ column, field, required, format, empty });
  }
  return rows;
}

/** Writes a CSV of `header` and one row (`values` by column name, the rest empty) and imports it with --dry-run. */
async function dryRun(header: readonly string[], values: Record<string, string>, mode: 'create' | 'upsert') {
  const file = join(tempDir('import-help'), 'items.csv');
  writeFileSync(file, `${header.join(',')}\n${header.map((name) => values[name] ?? '').join(',')}\n`);
  return run(['items', 'import', file, '--mode', mode, '--dry-run']);
}

describe('items import --help', () => {
  it("lists exactly the importer's columns, with what each takes, and an example header", async () => {
    const { code, stdout } = await cli(['items', 'import', '--help']);
    expect(code).toBe(0);
    const rows = helpTable(stdout);
    expect(rows.map((row) => row.column)).toEqual(Object.keys(ITEM_COLUMN_BODY_FIELDS));
    for (const row of rows) {
      const field = ITEM_COLUMN_BODY_FIELDS[row.column as keyof typeof ITEM_COLUMN_BODY_FIELDS];
      expect(row.field).toBe(field === row.column ? '-' : field);
      expect(row.empty).toBe(ITEM_BODY_FIELD_KINDS[field].nullable ? 'clears' : 'left out');
    }
    expect(rows.filter((row) => row.required !== 'no')).toEqual([
      expect.objectContaining({ column: 'sku', required: 'yes' }),
      expect.objectContaining({ column: 'title', required: 'create' }),
    ]);
    for (const column of ITEM_READ_ONLY_COLUMNS) expect(stdout).toContain(column);
    expect(stdout).toMatch(/^ {2}Example header:\n {4}sku,title,\S+$/m);
  });

  it('every column it lists, under either name, is one the import reads; each REQUIRED one is required', async () => {
    const rows = helpTable((await cli(['items', 'import', '--help'])).stdout);
    const sku = `HELP-${Date.now()}`;
    const values = { sku, title: 'Import help', quantity: '1', 'quantity.available': '1' };
    // Every column by its COLUMN name, then by its OR FIELD name: the import reads the header and checks the row.
    for (const header of [rows.map((r) => r.column), rows.map((r) => (r.field === '-' ? r.column : r.field))]) {
      const result = await dryRun(header, values, 'create');
      expect(result.stderr).toContain('1 would be created');
      expect(result.code).toBe(0);
    }
    // The example header too.
    const example = /Example header:\n {4}(\S+)/.exec((await cli(['items', 'import', '--help'])).stdout)?.[1] ?? '';
    expect((await dryRun(example.split(','), values, 'create')).code).toBe(0);
    // Leaving out a column REQUIRED says is needed stops the import (exit 2), for the modes it names.
    for (const row of rows.filter((r) => r.required !== 'no')) {
      const modes = row.required === 'yes' ? (['create', 'upsert'] as const) : ([row.required] as ['create']);
      for (const mode of modes) {
        const result = await dryRun(
          ['sku', 'title'].filter((name) => name !== row.column),
          values,
          mode,
        );
        expect(result.code, `${row.column} with --mode ${mode}`).toBe(2);
        expect(result.stderr).toContain(`no "${row.column}" column`);
      }
    }
    // And title is not needed to upsert an item that exists (a demo item; a dry run changes nothing).
    const upsert = await dryRun(['sku', 'quantity'], { sku: 'MOR-1881-S-65', quantity: '1' }, 'upsert');
    expect(upsert.stderr).toContain('0 would be created, 1 updated');
    expect(upsert.code).toBe(0);
  });
});

describe('the sample file', () => {
  it('ships in the npm package (npm pack), the same bytes as the sample the guides import, and imports', async () => {
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: PACKAGE,
      encoding: 'utf8',
    });
    expect(packed.status, packed.stderr).toBe(0);
    const [manifest] = JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = manifest?.files.map((file) => file.path) ?? [];
    expect(files).toContain('samples/items.csv');
    expect(files).toContain('dist/coinventory.js');
    expect(readFileSync(join(PACKAGE, 'samples/items.csv'))).toEqual(readFileSync(REPOSITORY_SAMPLE));
    // The help names it where npm puts it.
    expect((await cli(['items', 'import', '--help'])).stdout).toContain(
      '"$(npm root -g)/@coinventory/cli/samples/items.csv"',
    );
    const result = await run(['items', 'import', join(PACKAGE, 'samples/items.csv'), '--mode', 'upsert', '--dry-run']);
    expect(result.stderr).toMatch(/Dry run of items\.csv \(--mode upsert\), nothing written: /);
    expect(result.code).toBe(0);
  });
});
