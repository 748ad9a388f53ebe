import { LIMITS } from '@coinventory/contract/constants';
import type { IO } from '../io.js';
import { csvHeader, csvRows } from './csv.js';
import { JsonListWriter, jsonDocument } from './json.js';
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

/** A view that also shows one object whole: what `get`, and a write that answers with the object, print. */
export interface DetailView<T> extends View<T> {
  details: (value: T, io: IO) => string;
}

/** One page as the SDK gives it (`limit` absent for a list the API does not page). */
export interface PageLike<T> {
  items: T[];
  page: number;
  limit?: number;
  hasMore: boolean;
}

export interface ListOutput {
  format: OutputFormat;
  /** Walking every page (`--all`): progress on stderr while it runs. */
  all: boolean;
  /** False for a list the API does not page (valuations): its JSON is `{ items }` alone. Default: true. */
  paged?: boolean;
}

/**
 * Prints a list as its pages arrive: a table (header fixed by the first page), CSV (header first, even for an empty
 * list), or the API's list body as JSON (with `hasMore`). With `--all`, a progress line on stderr (only on a
 * terminal) counts pages and items. When more pages follow the one shown, a footer on stderr says which rows these
 * are and how to get the rest (see {@link moreFooter}). Returns how many items were printed.
 */
export async function printPages<T>(
  io: IO,
  view: View<T>,
  output: ListOutput,
  pages: AsyncIterable<PageLike<T>>,
): Promise<number> {
  const [one, many] = view.noun;
  const table = new TableWriter(view.columns, { style: io.style, maxWidth: io.maxWidth, streaming: output.all });
  const json = new JsonListWriter();
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
  if (output.format === 'json') await io.out.write(json.end(listTail(output, last)));
  if (output.format === 'table' && count === 0) io.notice(`No ${many} found.`);
  const footer = !output.all && last?.hasMore ? moreFooter(many, last) : undefined;
  // On stderr, so that stdout holds the table's rows alone (`| wc -l`, `| grep`): always under a table, which is
  // for people; under CSV only when stderr is a terminal (a script's log stays clean); never under JSON, which says
  // `hasMore` itself.
  if (footer && (output.format === 'table' || (output.format === 'csv' && io.stderrIsTTY))) {
    io.notice(io.errStyle.dim(footer));
  }
  return count;
}

/** The keys of a JSON list after its items: the page's, `hasMore` alone for `--all`, none for an unpaged list. */
function listTail(output: ListOutput, last: PageLike<unknown> | undefined): Record<string, unknown> {
  if (output.paged === false) return {};
  if (output.all) return { hasMore: last?.hasMore ?? false };
  return { page: last?.page, limit: last?.limit, hasMore: last?.hasMore ?? false };
}

/**
 * Which rows a page holds and the flags that fetch the rest: `Showing items 21–40; more: --page 3 or --all.` The
 * rows are counted from the page number and size, as the API pages; a page size other than the default is named
 * with the next page (`--page 3 --limit 50`), since the same page number of another size holds other rows.
 */
export function moreFooter(many: string, page: PageLike<unknown>): string {
  const first = page.limit === undefined ? 1 : (page.page - 1) * page.limit + 1;
  const rows = page.items.length === 0 ? 'none' : `${first}–${first + page.items.length - 1}`;
  const size = page.limit === undefined || page.limit === LIMITS.listLimit.default ? '' : ` --limit ${page.limit}`;
  return `Showing ${many} ${rows}; more: --page ${page.page + 1}${size} or --all.`;
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

/** Prints one object as its view shows it: details, its JSON, or a one-row CSV of the view's columns. */
export function printOne<T>(io: IO, format: OutputFormat, value: T, view: DetailView<T>): Promise<void> {
  return printObject(io, format, value, { details: (v) => view.details(v, io), csv: view.csv });
}
