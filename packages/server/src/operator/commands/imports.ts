import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CATEGORIES_IMPORT } from '../../modules/categories/index.js';
import { CONSIGNMENT_ITEMS_IMPORT, CONSIGNMENTS_IMPORT, CONSIGNORS_IMPORT } from '../../modules/consignments/index.js';
import {
  IMPORT_FORMATS,
  type ImportKind,
  type ImportResult,
  type Revalued,
  runImport,
} from '../../modules/imports/index.js';
import {
  CUSTOMERS_IMPORT,
  INVOICE_LINES_IMPORT,
  INVOICE_PAYMENTS_IMPORT,
  INVOICES_IMPORT,
} from '../../modules/invoices/index.js';
import { IMAGES_IMPORT } from '../../modules/items/index.js';
import { PRICE_GUIDE_IMPORT, SALES_IMPORT } from '../../modules/valuations/index.js';
import { ITEM_PLACES_IMPORT, WAREHOUSES_IMPORT, ZONES_IMPORT } from '../../modules/warehouses/index.js';
import { org, string } from '../options.js';
import { spec } from '../spec.js';

const flag = { type: 'boolean' } as const;
const file = z
  .string()
  .refine(
    (path) => IMPORT_FORMATS.some((format) => path.toLowerCase().endsWith(format)),
    `must be a ${IMPORT_FORMATS.join(', ')} file`,
  );

function revaluedLine({ valued, unchanged, withoutBasis }: Revalued): string {
  const others = [
    ...(unchanged > 0 ? [`${unchanged} unchanged since their latest valuation`] : []),
    ...(withoutBasis > 0 ? [`${withoutBasis} without a basis still`] : []),
  ];
  return `Valued again: ${valued} ${valued === 1 ? 'item' : 'items'} of these coins${others.length > 0 ? ` (${others.join(', ')})` : ''}.`;
}

function summary(result: ImportResult): string {
  const removed = result.removed === undefined ? '' : `, ${result.removed} removed`;
  const counts = `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged${removed}`;
  const refused = result.rejected.length === 0 ? '' : `, ${result.rejected.length} refused`;
  const head = result.dryRun
    ? `Dry run of ${result.file} (${result.kind}) for ${result.organization.slug}, nothing written: it would make ${counts}${refused}, of ${result.rows} rows.`
    : `Imported ${result.file} (${result.kind}) into ${result.organization.slug}: ${counts}${refused}, of ${result.rows} rows.`;
  const revalued = result.revalued ? [revaluedLine(result.revalued)] : [];
  return [head, ...result.rejected.map((reject) => `  row ${reject.row}: ${reject.reason}`), ...revalued].join('\n');
}

/** The package's sample files (samples/imports, shipped in the npm package): under the package's root. */
const SAMPLES = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'samples/imports');

/** The nearest folder above `from` with a package.json: the package, from its bundle in dist/ or its sources. */
function packageRoot(from: string): string {
  const parent = dirname(from);
  return existsSync(join(from, 'package.json')) || parent === from ? from : packageRoot(parent);
}

/** An import's columns, from the kind's own field list, and where its sample file is on this machine. */
function columnsHelp(kind: ImportKind<unknown>): string {
  const required = new Set(kind.required);
  const columns = kind.fields.map((name) => (required.has(name) ? `${name}*` : name));
  const sample = IMPORT_FORMATS.map((format) => join(SAMPLES, `${kind.name}${format}`)).find((path) =>
    existsSync(path),
  );
  return [
    'Columns (the CSV header, or the keys of each NDJSON line; * required, the others may be left empty):',
    `  ${columns.join(', ')}`,
    ...(sample ? ['', 'A sample file to start from:', `  ${sample}`] : []),
    '',
    'Each column\'s format: "Moving to Coinventory" in the documentation.',
  ].join('\n');
}

/** `import <kind> FILE`: one command per kind, all reading and checking files the same way (modules/imports). */
const importCommand = <Row>(kind: ImportKind<Row>, what: string, example: string) =>
  spec({
    name: `import ${kind.name}`,
    summary: `Import ${what} from a CSV or NDJSON file; a row whose ${kind.keyFields} is already there is updated. All or nothing unless --partial.`,
    synopsis: 'FILE.csv|FILE.ndjson --org <id|slug> [--dry-run] [--partial]',
    example,
    details: () => columnsHelp(kind as ImportKind<unknown>),
    options: { org: string, 'dry-run': flag, partial: flag },
    file: true,
    input: z
      .object({ org, file, 'dry-run': z.boolean().optional(), partial: z.boolean().optional() })
      .transform((value) => ({
        org: value.org,
        file: value.file,
        dryRun: value['dry-run'] === true,
        partial: value.partial === true,
      })),
    run: (sql, input) => runImport(sql, kind, input),
    text: summary,
  });

/** In the order records depend on one another: what "Moving to Coinventory" imports them in. */
export const IMPORTS_COMMANDS = [
  importCommand(
    CATEGORIES_IMPORT,
    'item categories (externalId, name)',
    'coinventory-server import categories categories.csv --org liberty-coin --dry-run',
  ),
  importCommand(
    WAREHOUSES_IMPORT,
    'warehouses (externalId, name)',
    'coinventory-server import warehouses warehouses.csv --org liberty-coin',
  ),
  importCommand(
    ZONES_IMPORT,
    "warehouses' zones (warehouse, externalId, name)",
    'coinventory-server import zones zones.csv --org liberty-coin',
  ),
  importCommand(
    ITEM_PLACES_IMPORT,
    "each item's category, warehouse and zone by their externalIds (sku, category, warehouse, zone)",
    'coinventory-server import item-places item-places.csv --org liberty-coin',
  ),
  importCommand(
    IMAGES_IMPORT,
    "items' images (an item the file names gets exactly its rows, in order)",
    'coinventory-server import images images.csv --org liberty-coin',
  ),
  importCommand(
    CONSIGNORS_IMPORT,
    'consignors (externalId, name, email)',
    'coinventory-server import consignors consignors.csv --org liberty-coin',
  ),
  importCommand(
    CONSIGNMENTS_IMPORT,
    'consignments (number, status, consignor, commission, dates)',
    'coinventory-server import consignments consignments.csv --org liberty-coin',
  ),
  importCommand(
    CONSIGNMENT_ITEMS_IMPORT,
    'which consignment each item is in (sku, consignment; no consignment takes it out)',
    'coinventory-server import consignment-items consignment-items.csv --org liberty-coin',
  ),
  importCommand(
    CUSTOMERS_IMPORT,
    'customers (externalId, name, email)',
    'coinventory-server import customers customers.csv --org liberty-coin',
  ),
  importCommand(
    INVOICES_IMPORT,
    'invoices (number, status, source, customer, amounts, dates)',
    'coinventory-server import invoices invoices.csv --org liberty-coin',
  ),
  importCommand(
    INVOICE_LINES_IMPORT,
    "invoices' lines (an invoice the file names gets exactly its lines)",
    'coinventory-server import invoice-lines invoice-lines.csv --org liberty-coin',
  ),
  importCommand(
    INVOICE_PAYMENTS_IMPORT,
    "invoices' payments (invoice, externalId, amount, method, status, paid at)",
    'coinventory-server import invoice-payments invoice-payments.csv --org liberty-coin',
  ),
  importCommand(
    SALES_IMPORT,
    'comparable sales (auction and dealer results) for the valuation engine',
    'coinventory-server import sales sales.csv --org liberty-coin --dry-run',
  ),
  importCommand(
    PRICE_GUIDE_IMPORT,
    'a price guide (a value per coin and grade) for the valuation engine',
    'coinventory-server import price-guide price-guide.csv --org liberty-coin',
  ),
];
