import { extname } from 'node:path';
import { BATCH, type BatchMode, RATE_LIMIT } from '@coinventory/contract/constants';
import { ITEM_READ_ONLY_COLUMNS } from '@coinventory/contract/csv';
import { type Command, Option } from 'commander';
import { EXIT, UsageError } from '../errors.js';
import { columnsTable, EXAMPLE_HEADER, SAMPLE_FILE } from '../import/column-help.js';
import { importItems } from '../import/importer.js';
import type { InputFormat } from '../import/rows.js';
import { groupDigits } from '../output/format.js';
import { jsonDocument } from '../output/json.js';
import { globalOptions, ioFor, openSession } from '../session.js';
import { untilStopped } from '../signals.js';
import { commaSeparated, examples, shellWord, wrap } from './shared.js';

// `items import FILE`: the command line; the work is in ../import/.

interface ImportOptions {
  mode?: BatchMode;
  dryRun?: boolean;
  restart?: boolean;
  format?: InputFormat;
  json?: boolean;
}

const FORMATS: readonly InputFormat[] = ['csv', 'ndjson'];
const EXTENSIONS: Readonly<Record<string, InputFormat>> = { '.csv': 'csv', '.ndjson': 'ndjson', '.jsonl': 'ndjson' };

/** The input's format: --format, else the file's extension. */
function inputFormat(file: string, given: InputFormat | undefined): InputFormat {
  if (file === '-') {
    throw new UsageError(
      'items import reads a file, not stdin: it keeps its place in a state file beside it, to resume. Save the input to a file first.',
      'items import',
    );
  }
  const format = given ?? EXTENSIONS[extname(file).toLowerCase()];
  if (!format) {
    throw new UsageError(
      `Cannot tell the format of ${file} from its name: pass --format csv or --format ndjson.`,
      'items import',
    );
  }
  return format;
}

const IMPORT_HELP = `
Reads a CSV or NDJSON file (the format from its name: .csv, .ndjson or .jsonl; else
--format) and sends its rows to the API in batches of ${BATCH.maxItems} (POST /items/batch), in
file order. --mode create (the default): each row is a new item, and a SKU already
in use is refused. --mode upsert: a row whose SKU an item has changes that item
(only the fields the row has), and the others are created.

Columns (CSV) and fields (NDJSON):
  A CSV header names each column as 'items export' and 'items list --output csv'
  write it (COLUMN) or by its field name in 'items create' (OR FIELD), in any order.
  REQUIRED: yes, or the --mode that needs it. FORMAT: an integer is digits (money in
  cents); a date-time is ISO 8601 with Z or an offset (2026-03-01T10:00:00Z). EMPTY:
  what an empty field does: clears the item's value, or is left out.
${columnsTable()}
  Read-only columns are skipped, so an export imports unchanged:
${wrap(commaSeparated(ITEM_READ_ONLY_COLUMNS), '    ')}
  Example header:
    ${EXAMPLE_HEADER.join(',')}
  Any other column, or one given twice, stops the import before anything is sent.
  An NDJSON line is an Item as exported (nested) or an object of those fields; an
  export's end line is skipped.

Sample file:
  The package ships ${SAMPLE_FILE}, a CSV of items to try (--dry-run first). After
  'npm install -g @coinventory/cli' it is at
  "$(npm root -g)/@coinventory/cli/${SAMPLE_FILE}".

Values (CSV):
  As --output csv writes them: money in cents, ISO 8601 date-times, attributes as a
  JSON object. An empty field clears a field that can be empty (description, grade,
  category.id, …) and leaves the others out (their default when created, unchanged
  when updated). The API checks each row as it would one 'items create': a row it
  refuses does not stop the others.

Refused rows:
  Written to FILE.rejects.csv (or .ndjson) beside the input, replacing one an earlier
  import left: each row as given, after its row number (the header is row 1) or line
  number and the reason. Correct them there and import that file: its "rejected"
  columns are skipped.

Stopping and resuming:
  After each batch, the place is saved in FILE.import-state.json beside the input.
  Ctrl-C stops after the batch in flight (a second Ctrl-C at once); however the run
  ends (a crash, a lost connection), running the same command again resumes after the
  last batch saved. Each batch carries an Idempotency-Key, so a batch sent again gets
  the API's first answer (kept 24 hours) instead of being applied twice. A changed
  file or another --mode is refused; --restart starts again from the first row. The
  state file is removed when the import completes.

Rate limit:
  Each answer's RateLimit header says how many requests the key has left; the import
  pauses before spending the last one, so it does not get 429s (the default limit,
  ${RATE_LIMIT.maxRequests} requests per ${RATE_LIMIT.windowSeconds} s, is ${groupDigits((RATE_LIMIT.maxRequests * BATCH.maxItems * 60) / RATE_LIMIT.windowSeconds)} rows a minute). If one comes all the same,
  it waits the Retry-After and sends the same batch again. The summary counts both.

--dry-run:
  Every batch is sent with ?dryRun=true: the API checks each row (SKUs in use, ids)
  and writes nothing. Refused rows are listed on stderr; no state or rejects file is
  read or written. Each batch is checked on its own: a SKU that two batches of the
  file repeat is not found to clash.

Output:
  On a terminal, a progress bar on stderr (rows done, items/s, time left); otherwise a
  line every few seconds. Then a summary on stderr; --json prints it as JSON on stdout
  too: { file, mode, dryRun, complete, rows, created, updated, refused, rejectsFile,
  rateLimited, pauses, replayedBatches, elapsedMs, … }.

Exit codes:
  0 every row applied; ${EXIT.ROWS_REFUSED} some rows refused (listed in the rejects file); ${EXIT.INTERRUPTED} stopped
  by Ctrl-C (143 by SIGTERM); the others as for every command (2 for a bad header).`;

/** Adds `items import` to the `items` group. */
export function registerItemImport(items: Command): void {
  const command = items
    .command('import')
    .description('create or upsert items from a CSV or NDJSON file, in batches; resumable')
    .argument('<file>', 'a .csv or .ndjson file, such as items export writes')
    .addOption(
      new Option(
        '--mode <mode>',
        'create: each row is a new item; upsert: a row updates the item with its SKU, or creates it (default: create; a resumed import keeps its own)',
      ).choices(BATCH.modes),
    )
    .option('--dry-run', 'check every row with the API (?dryRun=true) and write nothing')
    .addOption(
      new Option('--restart', 'start from the first row, dropping the saved place of an interrupted import').conflicts(
        'dryRun',
      ),
    )
    .addOption(
      new Option('--format <format>', 'the file format, when its name does not end in .csv, .ndjson or .jsonl').choices(
        FORMATS,
      ),
    )
    .option('--json', 'print the summary as JSON on stdout as well')
    .addHelpText('after', IMPORT_HELP)
    .action(async (file: string, _options: ImportOptions, cmd: Command) => {
      const options = cmd.opts<ImportOptions>();
      const format = inputFormat(file, options.format);
      const io = ioFor(cmd);
      const global = globalOptions(cmd);
      const resumeCommand = (mode: BatchMode) =>
        [
          'coinventory items import',
          shellWord(file),
          `--mode ${mode}`,
          options.format ? `--format ${format}` : '',
          global.profile ? `--profile ${shellWord(global.profile)}` : '',
          global.baseUrl ? `--base-url ${shellWord(global.baseUrl)}` : '',
        ]
          .filter(Boolean)
          .join(' ');
      await untilStopped(async (signal) => {
        const { summary, exitCode } = await importItems({
          file,
          format,
          mode: options.mode ?? 'create',
          modeGiven: options.mode !== undefined,
          dryRun: options.dryRun === true,
          restart: options.restart === true,
          io,
          connect: (observe) => openSession(global, io, observe),
          signal,
          resumeCommand,
        });
        if (options.json) await io.out.write(jsonDocument(summary));
        process.exitCode = exitCode;
      });
    });
  examples(command, [
    `coinventory items import "$(npm root -g)/@coinventory/cli/${SAMPLE_FILE}" --dry-run`,
    'coinventory items import items.csv',
    'coinventory items import stock-count.csv --mode upsert --dry-run',
    'coinventory items import items.ndjson --mode upsert --json',
    'coinventory items export --format csv > items.csv && coinventory items import items.csv --mode upsert',
  ]);
}
