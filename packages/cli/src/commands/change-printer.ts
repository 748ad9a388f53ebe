import type { Change } from '@coinventory/sdk';
import type { IO } from '../io.js';
import { dateColumn } from '../output/columns.js';
import { formatMoney, formatText, NONE, personName } from '../output/format.js';
import type { OutputFormat } from '../output/render.js';
import { type Column, TableWriter } from '../output/table.js';

// How `changes` prints the feed: a table row per change, or the change itself as one line of JSON.

/**
 * A change as a table row: what the changed object is known by (REF) and what it is (DESCRIPTION), read from its
 * `data`. An item: its SKU and title (a deletion, which carries no data, the ones this run saw last). A valuation: the
 * valued item's SKU when this run saw the item, and the valuation's summary. A consignment: its number and name. An
 * invoice: its number and customer.
 */
interface ChangeRow {
  change: Change;
  ref: string;
  description: string;
}

const CHANGE_COLUMNS: readonly Column<ChangeRow>[] = [
  dateColumn('TIME', (row) => row.change.occurredAt, 'seconds'),
  { header: 'TYPE', value: (row) => row.change.type, shrink: 'never' },
  { header: 'OBJECT', value: (row) => row.change.objectId, shrink: 'never' },
  { header: 'REF', value: (row) => row.ref, reserve: 20 },
  { header: 'DESCRIPTION', value: (row) => row.description, shrink: 'first' },
];

/** How many items' SKU and title a long `--follow` keeps for the deletions and valuations that come later. */
const REMEMBERED_ITEMS = 10_000;

interface ItemNames {
  sku: string;
  title: string;
}

/** Prints changes as they arrive: table rows (the first batch fixes the widths) or one JSON object per line. */
export class ChangePrinter {
  readonly #format: OutputFormat;
  readonly #table: TableWriter<ChangeRow>;
  readonly #items = new Map<string, ItemNames>();
  count = 0;

  constructor(format: OutputFormat, io: Pick<IO, 'style' | 'maxWidth'>) {
    this.#format = format;
    this.#table = new TableWriter(CHANGE_COLUMNS, { style: io.style, maxWidth: io.maxWidth, streaming: true });
  }

  text(changes: readonly Change[]): string {
    this.count += changes.length;
    // NDJSON: each change exactly as the API sent it, one per line.
    if (this.#format === 'json') return changes.map((change) => `${JSON.stringify(change)}\n`).join('');
    return this.#table.rows(changes.map((change) => this.#row(change)));
  }

  #row(change: Change): ChangeRow {
    switch (change.type) {
      case 'item.created':
      case 'item.updated': {
        const item = this.#remember(change.objectId, change.data);
        return { change, ref: item.sku, description: item.title };
      }
      case 'item.deleted': {
        const item = this.#items.get(change.objectId);
        return { change, ref: item?.sku ?? NONE, description: item?.title ?? NONE };
      }
      case 'valuation.created': {
        const { itemId, summary, estimateInCents } = change.data;
        return {
          change,
          ref: this.#items.get(itemId)?.sku ?? NONE,
          description: summary ?? formatMoney(estimateInCents),
        };
      }
      case 'consignment.created':
      case 'consignment.updated':
        return { change, ref: formatText(change.data.number), description: formatText(change.data.name) };
      case 'invoice.created':
      case 'invoice.updated':
        return { change, ref: formatText(change.data.number), description: personName(change.data.customer) };
      case 'reservation.created':
      case 'reservation.committed':
      case 'reservation.released':
      case 'reservation.expired': {
        const { itemId, quantity, reference } = change.data;
        const units = `${quantity} ${quantity === 1 ? 'unit' : 'units'}`;
        return {
          change,
          ref: this.#items.get(itemId)?.sku ?? NONE,
          description: reference ? `${units} for ${reference}` : units,
        };
      }
      default:
        // A type added to the API after this CLI was built: its type and object id say what there is to say.
        return { change, ref: NONE, description: NONE };
    }
  }

  #remember(id: string, item: ItemNames): ItemNames {
    const names = { sku: item.sku, title: item.title };
    this.#items.delete(id);
    this.#items.set(id, names);
    // A Map iterates in insertion order: the first key is the item seen longest ago.
    if (this.#items.size > REMEMBERED_ITEMS) this.#items.delete(this.#items.keys().next().value ?? '');
    return names;
  }
}
