import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CATEGORIES_IMPORT } from '../../src/modules/categories/index.js';
import {
  CONSIGNMENT_ITEMS_IMPORT,
  CONSIGNMENTS_IMPORT,
  CONSIGNORS_IMPORT,
} from '../../src/modules/consignments/index.js';
import type { ImportKind } from '../../src/modules/imports/index.js';
import {
  CUSTOMERS_IMPORT,
  INVOICE_LINES_IMPORT,
  INVOICE_PAYMENTS_IMPORT,
  INVOICES_IMPORT,
} from '../../src/modules/invoices/index.js';
import { IMAGES_IMPORT } from '../../src/modules/items/index.js';
import { PRICE_GUIDE_IMPORT, SALES_IMPORT } from '../../src/modules/valuations/index.js';
import { ITEM_PLACES_IMPORT, WAREHOUSES_IMPORT, ZONES_IMPORT } from '../../src/modules/warehouses/index.js';
import { commandHelp, findCommand } from '../../src/operator/run.js';
import { adminCli, expectOk } from '../support/admin.js';
import { removeTempDirs, tempDir } from '../support/binary.js';

afterAll(removeTempDirs);

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const SAMPLES = join(PACKAGE, 'samples/imports');
const KINDS: ImportKind<unknown>[] = [
  CATEGORIES_IMPORT,
  WAREHOUSES_IMPORT,
  ZONES_IMPORT,
  ITEM_PLACES_IMPORT,
  IMAGES_IMPORT,
  CONSIGNORS_IMPORT,
  CONSIGNMENTS_IMPORT,
  CONSIGNMENT_ITEMS_IMPORT,
  CUSTOMERS_IMPORT,
  INVOICES_IMPORT,
  INVOICE_LINES_IMPORT,
  INVOICE_PAYMENTS_IMPORT,
  SALES_IMPORT,
  PRICE_GUIDE_IMPORT,
] as ImportKind<unknown>[];

/**
 * `import <kind> --help` says what the file holds: the kind's own columns (the importer's list, required ones marked)
 * and the sample file to start from, which the npm package ships.
 */
/** The operator command `import <name>`. */
function helpOf(name: string) {
  const found = findCommand(['import', name]);
  if (!found) throw new Error(`no command import ${name}`);
  return found.command;
}

describe('import --help', () => {
  const admin = adminCli({ COINVENTORY_DATA_DIR: tempDir() });

  // Through the binary for one kind (what an operator runs); the help of each kind, read in-process, is the same text.
  it("import sales --help, through the binary, is the command's help", async () => {
    const help = expectOk(await admin('import sales', '--help'));
    expect(help.trim()).toBe(commandHelp(helpOf('sales')).trim());
  });

  it.each(KINDS.map((kind) => [kind.name, kind] as const))(
    'import %s lists its columns and a sample file that exists',
    async (name, kind) => {
      const help = commandHelp(helpOf(name));
      const lines = help.split('\n');
      const columns = lines[lines.findIndex((line) => line.startsWith('Columns')) + 1]?.trim().split(', ');
      expect(columns).toEqual(kind.fields.map((field) => (kind.required.includes(field) ? `${field}*` : field)));
      const sample = lines[lines.findIndex((line) => line.startsWith('A sample file')) + 1]?.trim() ?? '';
      expect(sample.startsWith(SAMPLES), help).toBe(true);
      expect(basename(sample).replace(/\.(csv|ndjson)$/, '')).toBe(name);
      expect(existsSync(sample)).toBe(true);
    },
  );

  it('every sample file is one kind of import, or the items the API imports, and all ship in the npm package', () => {
    const files = readdirSync(SAMPLES).filter((file) => file !== 'README.md');
    const kinds = new Set([...KINDS.map((kind) => kind.name), 'items']);
    expect(files.filter((file) => !kinds.has(file.replace(/\.(csv|ndjson)$/, '')))).toEqual([]);
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE, encoding: 'utf8' }),
    ) as [{ files: { path: string }[] }];
    const shipped = packed.files.map((file) => file.path);
    expect(files.map((file) => `samples/imports/${file}`).filter((path) => !shipped.includes(path))).toEqual([]);
  });
});
