import { ITEM_CSV_COLUMNS } from '@coinventory/contract/csv';
import type { Item, Valuation } from '@coinventory/sdk';
import { dateColumn, idColumn, moneyColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import { formatDate, formatMoney, formatText, NONE, type Style } from '../output/format.js';
import type { DetailView, View } from '../output/render.js';
import { type Column, renderDetails } from '../output/table.js';

// How items and their valuations are shown: table columns, CSV columns and the detail view.

// The export's columns: `items list --output csv` writes what `GET /exports/items` does, and imports back.
const ITEM_CSV = ITEM_CSV_COLUMNS;

const VALUATION_CSV = csvColumns<Valuation>({
  id: true,
  itemId: true,
  estimateLowInCents: true,
  estimateInCents: true,
  estimateHighInCents: true,
  confidencePercent: true,
  basis: true,
  priceGuideValueInCents: true,
  meltValueInCents: true,
  summary: true,
  comps: true,
  appliedAt: true,
  createdAt: true,
});

const grading = (item: Item): string =>
  [item.grading.service, item.grading.grade].filter((part): part is string => !!part).join(' ') || NONE;

const itemColumns: Column<Item>[] = [
  idColumn(),
  { header: 'SKU', value: (i) => i.sku },
  { header: 'TITLE', value: (i) => i.title, shrink: 'first' },
  { header: 'QTY', value: (i) => String(i.quantity.available), align: 'right', reserve: 4 },
  moneyColumn('VALUE', (i) => i.valueInCents),
  { header: 'GRADE', value: grading },
  dateColumn('CREATED', (i) => i.createdAt),
];

export const itemView: DetailView<Item> = {
  noun: ['item', 'items'],
  columns: itemColumns,
  csv: ITEM_CSV,
  details: (item, io) => itemDetails(item, io.style),
};

export const valuationView: View<Valuation> = {
  noun: ['valuation', 'valuations'],
  columns: [
    dateColumn('CREATED', (v) => v.createdAt),
    moneyColumn('ESTIMATE', (v) => v.estimateInCents),
    moneyColumn('LOW', (v) => v.estimateLowInCents),
    moneyColumn('HIGH', (v) => v.estimateHighInCents),
    {
      header: 'CONF',
      value: (v) => (v.confidencePercent === null ? NONE : `${v.confidencePercent}%`),
      align: 'right',
    },
    { header: 'BASIS', value: (v) => formatText(v.basis) },
    { header: 'COMPS', value: (v) => String(v.comps.length), align: 'right' },
    dateColumn('APPLIED', (v) => v.appliedAt),
    { header: 'SUMMARY', value: (v) => formatText(v.summary), shrink: 'first' },
  ],
  csv: VALUATION_CSV,
};

export function itemDetails(item: Item, style: Style): string {
  const { acquisition: a, grading: g, location: l } = item;
  const acquired = [a.date ? formatDate(a.date) : undefined, a.from ? `from ${a.from}` : undefined]
    .filter(Boolean)
    .join(' ');
  const attributes = Object.entries(item.attributes).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return renderDetails(
    [
      ['ID', item.id],
      ['SKU', item.sku],
      ['Title', item.title],
      ['Description', formatText(item.description)],
      ['Category', item.category ? `${item.category.name} (${item.category.id})` : NONE],
      [
        'Quantity',
        `${item.quantity.available} available, ${item.quantity.sold} sold, ${item.quantity.reserved} reserved`,
      ],
      ['Value', formatMoney(item.valueInCents)],
      ['Cost basis', formatMoney(a.priceInCents)],
      ['Acquired', acquired || NONE],
      ['Acquisition notes', formatText(a.notes)],
      ['Grading', [grading(item), g.certificateNumber ? `cert ${g.certificateNumber}` : ''].filter(Boolean).join(', ')],
      ['Grading notes', formatText(g.notes)],
      ['Attributes', attributes.length ? attributes.join('\n') : NONE],
      ['Warehouse', l.warehouseId],
      ['Zone', l.zoneId],
      ['Location details', formatText(l.details)],
      ['Consignment', formatText(item.consignmentId)],
      ['At auction', item.isAtAuction ? 'yes' : 'no'],
      [
        'Images',
        item.images.length
          ? item.images
              .map((image) => `${image.url}${image.width && image.height ? ` (${image.width}x${image.height})` : ''}`)
              .join('\n')
          : NONE,
      ],
      ['Created', formatDate(item.createdAt)],
      ['Updated', formatDate(item.updatedAt)],
    ],
    style,
  );
}
