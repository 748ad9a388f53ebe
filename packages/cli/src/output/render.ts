import type { IO } from '../io.js';
import { csvHeader, csvRows } from './csv.js';
import { JsonArrayWriter, jsonDocument } from './json.js';
import { type Column, TableWriter } from './table.js';

export const OUTPUT_FORMATS = ['table', 'json', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How one kind of API object is shown. */
export interface View<T> {
  /** Singular and plural nouns: `item`, `items`. */
  noun: readonly [string, string];
  /** Table columns for lists. */
  columns: readonly Column<T>[];
  /** CSV columns: every field, nested ones dotted. */
  csv: readonly string[];
}

/** One page as the SDK gives it. */
export interface PageLike<T> {
  items: T[];
  page: number;
  hasMore: boolean;
}

export interface ListOutput {
  format: OutputFormat;
  /** Walking every page (`--all`): progress on stderr while it runs. */
  all: boolean;
}

/**
 * Prints a list as its pages arrive: a table (header fixed by the first page), CSV (header first, even for an empty
 * list), or one JSON array. With `--all`, a progress line on stderr (only on a terminal) counts pages and items.
 * Returns how many items were printed.
 */
export async function printPages<T>(
  io: IO,
  view: View<T>,
  output: ListOutput,
  pages: AsyncIterable<PageLike<T>>,
): Promise<number> {
  const [one, many] = view.noun;
  const table = new TableWriter(view.columns, { style: io.style, maxWidth: io.maxWidth, streaming: output.all });
  const json = new JsonArrayWriter();
  let count = 0;
  let last: PageLike<T> | undefined;
  if (output.all) io.progress.update(`Fetching ${many}…`);
  if (output.format === 'json') await io.out.write(json.start());
  if (output.format === 'csv') await io.out.write(csvHeader(view.csv));
  try {
    for await (const page of pages) {
      last = page;
      count += page.items.length;
      io.progress.clear();
      if (output.format === 'json') await io.out.write(json.items(page.items));
      else if (output.format === 'csv') await io.out.write(csvRows(view.csv, page.items));
      else await io.out.write(table.rows(page.items));
      if (output.all) {
        io.progress.update(
          `Fetching ${many}… page ${page.page}, ${count} ${count === 1 ? one : many}${page.hasMore ? ' so far' : ''}`,
        );
      }
    }
  } finally {
    io.progress.clear();
  }
  if (output.format === 'json') await io.out.write(json.end());
  if (output.format === 'table' && count === 0) io.notice(`No ${many} found.`);
  // A hint for people, never for scripts: only when stderr is a terminal.
  if (!output.all && last?.hasMore && io.stderrIsTTY) {
    io.notice(io.errStyle.dim(`More ${many} follow: --page ${last.page + 1} for the next page, --all for every page.`));
  }
  return count;
}

/** An array that is not paginated (valuations) as the one page of a list. */
export async function* onePage<T>(items: T[]): AsyncGenerator<PageLike<T>> {
  yield { items, page: 1, hasMore: false };
}

/** Prints one object: a detail view, its JSON, or a one-row CSV. */
export async function printObject<T>(
  io: IO,
  format: OutputFormat,
  value: T,
  views: { details: (value: T) => string; csv?: readonly string[] },
): Promise<void> {
  if (format === 'json') await io.out.write(jsonDocument(value));
  else if (format === 'csv' && views.csv) await io.out.write(csvHeader(views.csv) + csvRows(views.csv, [value]));
  else await io.out.write(views.details(value));
}
