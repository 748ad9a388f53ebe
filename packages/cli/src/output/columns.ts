import { formatDate, formatMoney } from './format.js';
import type { Column } from './table.js';

// The kinds of column the views share. Each keeps its width: a cut id, amount or date would be wrong rather than short.

/** Room an amount column keeps for later pages when a list streams: `$999,999.99`. */
const AMOUNT_WIDTH = 11;

/** The object's id. */
export function idColumn<T extends { id: string }>(): Column<T> {
  return { header: 'ID', value: (row) => row.id, shrink: 'never' };
}

/** Integer cents as dollars, right-aligned. */
export function moneyColumn<T>(header: string, cents: (row: T) => number | null): Column<T> {
  return { header, value: (row) => formatMoney(cents(row)), align: 'right', reserve: AMOUNT_WIDTH };
}

/** A date-time in the local time zone, to the minute (or the second, for events). */
export function dateColumn<T>(
  header: string,
  at: (row: T) => string | null,
  precision: 'minutes' | 'seconds' = 'minutes',
): Column<T> {
  return { header, value: (row) => formatDate(at(row), precision), shrink: 'never' };
}
