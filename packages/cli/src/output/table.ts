import { cell, displayWidth, multiline, NONE, pad, type Style, truncate } from './format.js';

/**
 * How a column may give up width when the table is wider than the terminal:
 * `first` (long free text such as titles) shrinks before `normal` columns; `never` (ids, money, numbers) keeps its
 * width, since a cut id or amount would be wrong rather than short.
 */
export type Shrink = 'first' | 'normal' | 'never';

export interface Column<T> {
  header: string;
  /** The cell's text (plain: styling is added after widths are computed). */
  value: (row: T) => string;
  align?: 'left' | 'right';
  shrink?: Shrink;
  /**
   * Width kept for the column when a list streams (`--all`), where the first page fixes the widths: money and
   * counts of later pages are never cut, so room is kept for them.
   */
  reserve?: number;
}

export interface TableOptions {
  style: Style;
  /** Terminal width to fit; undefined means never truncate (output piped without COLUMNS). */
  maxWidth: number | undefined;
  /** Rows will follow in later batches: columns take at least their `reserve` width. */
  streaming?: boolean;
}

const GAP = '  ';
/** Narrowest a shrinking column becomes (before its header would be cut). */
const MIN_WIDTH = { first: 12, normal: 6 } as const;

/**
 * A table written in pieces, for lists that stream page by page: the first call fixes the column widths (from the
 * header and that first batch of rows, fitted to the terminal) and prints the header; later calls reuse the widths.
 * A later value wider than its column is cut with `…` when fitting a terminal, and overflows otherwise.
 */
export class TableWriter<T> {
  readonly #columns: readonly Column<T>[];
  readonly #options: TableOptions;
  #widths: number[] | undefined;

  constructor(columns: readonly Column<T>[], options: TableOptions) {
    this.#columns = columns;
    this.#options = options;
  }

  /** The text for `rows` (with the header before the first batch); empty for an empty batch. */
  rows(rows: readonly T[]): string {
    if (rows.length === 0) return '';
    const cells = rows.map((row) => this.#columns.map((column) => cell(column.value(row))));
    let out = '';
    if (!this.#widths) {
      const reserved = this.#options.streaming ? this.#columns.map((column) => column.reserve ?? 0) : undefined;
      this.#widths = fitWidths(this.#columns, cells, this.#options.maxWidth, reserved);
      out += `${this.#line(
        this.#columns.map((column) => column.header),
        true,
      )}\n`;
    }
    for (const line of cells) out += `${this.#line(line, false)}\n`;
    return out;
  }

  #line(values: readonly string[], header: boolean): string {
    const widths = this.#widths ?? [];
    const { style, maxWidth } = this.#options;
    const last = values.length - 1;
    return values
      .map((value, i) => {
        const column = this.#columns[i];
        const width = widths[i] ?? 0;
        const shrink = column?.shrink ?? (column?.align === 'right' ? 'never' : 'normal');
        const text = maxWidth !== undefined && shrink !== 'never' ? truncate(value, width) : value;
        const align = column?.align ?? 'left';
        // No trailing spaces after the last column.
        const padded = i === last && align === 'left' ? text : pad(text, width, align);
        return header ? style.bold(padded) : padded;
      })
      .join(GAP);
  }
}

/** Column widths: each column's widest cell, then narrowed (shrinkable columns first) to fit `maxWidth`. */
export function fitWidths<T>(
  columns: readonly Column<T>[],
  cells: readonly (readonly string[])[],
  maxWidth: number | undefined,
  reserved?: readonly number[],
): number[] {
  const widths = columns.map((column, i) =>
    Math.max(displayWidth(column.header), reserved?.[i] ?? 0, ...cells.map((row) => displayWidth(row[i] ?? ''))),
  );
  if (maxWidth === undefined) return widths;
  let excess = widths.reduce((sum, w) => sum + w, 0) + GAP.length * (columns.length - 1) - maxWidth;
  for (const tier of ['first', 'normal'] as const) {
    while (excess > 0) {
      // Take one column from the widest column of this tier that can still give some.
      let widest = -1;
      columns.forEach((column, i) => {
        const shrink = column.shrink ?? (column.align === 'right' ? 'never' : 'normal');
        if (shrink !== tier) return;
        const floor = Math.min(MIN_WIDTH[tier], widths[i] ?? 0);
        if ((widths[i] ?? 0) > floor && (widest === -1 || (widths[i] ?? 0) > (widths[widest] ?? 0))) widest = i;
      });
      if (widest === -1) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
      excess -= 1;
    }
  }
  return widths;
}

/** A whole table at once (a single page, a sub-table). */
export function renderTable<T>(columns: readonly Column<T>[], rows: readonly T[], options: TableOptions): string {
  return new TableWriter(columns, options).rows(rows);
}

/** A label/value list for one object; multi-line values are indented under their first line. */
export function renderDetails(pairs: ReadonlyArray<readonly [string, string]>, style: Style): string {
  const width = Math.max(...pairs.map(([label]) => displayWidth(label)));
  const indent = ' '.repeat(width + GAP.length);
  return pairs
    .map(([label, value]) => {
      const lines = multiline(value).split('\n');
      const first = `${style.bold(pad(label, width))}${GAP}${lines[0] ?? ''}`;
      return [first, ...lines.slice(1).map((line) => (line ? indent + line : ''))].join('\n').trimEnd();
    })
    .join('\n')
    .concat('\n');
}

/** A section heading inside a detail view. */
export function heading(title: string, style: Style): string {
  return `\n${style.bold(title)}\n`;
}

/** A titled table under a detail view (an invoice's lines, a warehouse's zones), its title counting the rows. */
export function renderSection<T>(
  title: string,
  columns: readonly Column<T>[],
  rows: readonly T[],
  options: TableOptions,
): string {
  const table = rows.length ? renderTable(columns, rows, options) : `${NONE}\n`;
  return heading(`${title} (${rows.length})`, options.style) + table;
}
