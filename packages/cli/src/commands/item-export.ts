import { EXPORTS, type ExportFormat } from '@coinventory/contract/constants';
import { csvRecord, csvRow, ITEM_CSV_COLUMNS } from '@coinventory/contract/csv';
import type { ExportItemsParams } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import { CliError, reportError } from '../errors.js';
import type { Out } from '../io.js';
import { groupDigits } from '../output/format.js';
import { globalOptions, ioFor, openSession } from '../session.js';
import { writeCursorFile } from './cursor-file.js';
import { defined, examples, shellWord } from './shared.js';

// `items export`: every item the filters keep, streamed to stdout as the API sends it (one request, one snapshot),
// in NDJSON or CSV, ending with the changes cursor of that snapshot to follow from.

interface ExportOptions {
  format: ExportFormat;
  cursorFile?: string;
}

/** An option for every filter of the export (the list's, but the page and sort), keyed by its parameter. */
export type ExportFilters = { readonly [K in keyof ExportItemsParams]-?: Option };

/** Lines are written in chunks of about this size: few writes, and output still flows while the export runs. */
const CHUNK_CHARS = 64 * 1024;
/** A chunk is written at least this often, so a slow export shows its items as they come. */
const CHUNK_MS = 200;

/** Text gathered into chunks and written with back-pressure. */
class ChunkedWriter {
  readonly #out: Out;
  #text = '';
  #since = performance.now();

  constructor(out: Out) {
    this.#out = out;
  }

  async add(text: string): Promise<void> {
    this.#text += text;
    if (this.#text.length >= CHUNK_CHARS || performance.now() - this.#since >= CHUNK_MS) await this.flush();
  }

  async flush(): Promise<void> {
    const text = this.#text;
    this.#text = '';
    this.#since = performance.now();
    await this.#out.write(text);
  }
}

const EXPORT_HELP = `
Prints every item the filters keep, oldest first, as the API streams it: one request
(one against the rate limit, whatever the size) read from one snapshot of the
inventory, written to stdout as it arrives.

Formats:
  ndjson   one Item per line, exactly as the API returns it, then a last line
           {"count":N,"nextCursor":"…"} that says the export is complete
  csv      a header row, then one record per item: the columns of 'items list
           --output csv' (RFC 4180, CRLF line ends, nested fields dotted, attributes
           and images as JSON, empty for null)

Both import back unchanged with 'coinventory items import FILE'.

When it is done, it says on stderr how many items it wrote and the changes cursor
of the snapshot: 'coinventory changes --after <cursor>' then gives every change made
since, and none already in the export. --cursor-file saves that cursor in a file,
which 'coinventory changes --cursor-file' starts from.`;

/** An error that cut the export short, saying that the output is incomplete (with the exit code it has). */
function incomplete(error: unknown, count: number): CliError {
  const { lines, exitCode } = reportError(error);
  // The SDK's advice is for code (read it again with client.items.export()); the command's is to run again.
  const [first = '', ...rest] = lines.map((line) =>
    line.replace(/: read it again with client\.items\.export\(\)\.$/, '.'),
  );
  return new CliError(first, exitCode, [
    ...rest,
    `The output is incomplete (${groupDigits(count)} item${count === 1 ? '' : 's'} written): run the export again.`,
  ]);
}

/** Adds `items export` to the `items` group. */
export function registerItemExport(items: Command, filters: ExportFilters): void {
  const command = items.command('export').description('stream every item (filtered) to stdout as NDJSON or CSV');
  const entries = Object.entries<Option>(filters);
  for (const [, option] of entries) command.addOption(option);
  command
    .addOption(
      new Option('--format <format>', 'ndjson (one Item per line) or csv (the columns of --output csv)')
        .choices(Object.keys(EXPORTS.mediaTypes))
        .default('ndjson'),
    )
    .addOption(
      new Option(
        '--cursor-file <file>',
        'save the changes cursor of the export there, for coinventory changes --cursor-file',
      ),
    )
    .addHelpText('after', EXPORT_HELP)
    .action(async (_options: ExportOptions, cmd: Command) => {
      const options = cmd.opts<ExportOptions>();
      const values = cmd.opts<Record<string, unknown>>();
      const io = ioFor(cmd);
      const { client } = openSession(globalOptions(cmd), io);
      // Each filter's value under the parameter its option sets; the type ties the two.
      const params = defined(
        Object.fromEntries(entries.map(([param, option]) => [param, values[option.attributeName()]])),
      ) as ExportItemsParams;
      const exported = client.items.export(params);
      const writer = new ChunkedWriter(io.out);
      const csv = options.format === 'csv';
      if (csv) await writer.add(csvRecord(ITEM_CSV_COLUMNS));
      let count = 0;
      // Progress on a terminal only, and not when the items themselves go to that terminal.
      const progress = (text: string) => {
        if (!io.out.isTTY) io.progress.update(text);
      };
      progress('Exporting items…');
      try {
        for await (const item of exported) {
          count += 1;
          await writer.add(csv ? csvRow(ITEM_CSV_COLUMNS, item) : `${JSON.stringify(item)}\n`);
          if (count % 1000 === 0) progress(`Exporting items… ${groupDigits(count)} so far`);
        }
      } catch (error) {
        // What was read is written, so the output shows where it stopped; the error says it is incomplete.
        await writer.flush();
        io.progress.clear();
        throw incomplete(error, count);
      }
      const cursor = exported.nextCursor ?? '';
      if (!csv) await writer.add(`${JSON.stringify({ count: exported.count ?? count, nextCursor: cursor })}\n`);
      await writer.flush();
      io.progress.clear();
      if (options.cursorFile) await writeCursorFile(options.cursorFile, cursor);
      const follow = options.cursorFile
        ? `--cursor-file ${shellWord(options.cursorFile)}`
        : `--after ${shellWord(cursor)}`;
      io.notice(
        `Exported ${groupDigits(count)} item${count === 1 ? '' : 's'}. Follow the changes made since with: coinventory changes ${follow}`,
      );
    });
  examples(command, [
    'coinventory items export > items.ndjson',
    'coinventory items export --format csv --status in_stock > in-stock.csv',
    'coinventory items export --cursor-file sync.cursor > items.ndjson && coinventory changes --follow --cursor-file sync.cursor',
    "coinventory items export | jq -c 'select(.sku) | {sku, value: .valueInCents}'",
  ]);
}
