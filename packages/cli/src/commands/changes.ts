import { readFile, rename, writeFile } from 'node:fs/promises';
import { CHANGE_TYPES, type ChangeType, DEFAULT_CHANGES_RETENTION_DAYS, LIMITS } from '@coinventory/contract/constants';
import {
  APIConnectionError,
  APIError,
  BadRequestError,
  type Change,
  type ChangeList,
  type Coinventory,
} from '@coinventory/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CliError, EXIT, errorMessage, isErrno } from '../errors.js';
import type { IO } from '../io.js';
import { integer, text } from '../options.js';
import { dateColumn } from '../output/columns.js';
import { formatMoney, formatText, NONE, personName } from '../output/format.js';
import { jsonDocument } from '../output/json.js';
import type { OutputFormat } from '../output/render.js';
import { type Column, TableWriter } from '../output/table.js';
import { globalOptions, openSession } from '../session.js';
import { stoppedExitCode, untilStopped } from '../signals.js';
import { addOutputOptions, changeTypesHelp, examples, invocation, type OutputOptions, shellWord } from './shared.js';

// `coinventory changes`: the changes feed, printed from a cursor to its end, or followed like `tail -f`; and
// `changes cursor`, the feed's end now. Whatever happens, the command ends by saying where to resume.

interface ChangesOptions extends OutputOptions {
  after?: string;
  types?: ChangeType[];
  limit?: number;
  follow?: boolean;
  /** Seconds between polls at the end of the feed, with --follow. */
  interval: number;
  cursorFile?: string;
}

/** `--after now`: the feed's end when the command starts, so only changes made from then on are printed. */
const NOW = 'now';

/** One `--types` value (comma-separated, repeatable), checked against the contract's change types. */
function changeTypes(value: string, previous: ChangeType[] | undefined): ChangeType[] {
  const types = value.split(',').map((part) => {
    const type = CHANGE_TYPES.find((candidate) => candidate === part.trim());
    if (type === undefined) {
      throw new InvalidArgumentError(
        `${JSON.stringify(part.trim())} is not a change type. Allowed: ${CHANGE_TYPES.join(', ')} (comma-separated).`,
      );
    }
    return type;
  });
  return [...new Set([...(previous ?? []), ...types])];
}

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

/** The cursor a `--cursor-file` holds; undefined when the file does not exist or is empty (start from the oldest). */
async function readCursorFile(path: string): Promise<string | undefined> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw new CliError(`Cannot read the cursor file ${path}: ${errorMessage(error)}`);
  }
  const cursor = content.trim();
  if (!cursor) return undefined;
  try {
    return text(LIMITS.cursor)(cursor);
  } catch (error) {
    throw new CliError(`${path} does not hold a changes cursor: ${errorMessage(error)}`, EXIT.USAGE);
  }
}

/** Replaces the file's content in one step (a temporary file renamed over it): a crash never leaves half a cursor. */
export async function writeCursorFile(path: string, cursor: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${cursor}\n`);
    await rename(temporary, path);
  } catch (error) {
    throw new CliError(`Cannot write the cursor file ${path}: ${errorMessage(error)}`);
  }
}

/** How `changes` says where to resume: a command to paste, with the cursor in it (or the file that holds it). */
function resumeLine(cursor: string, options: ChangesOptions): string {
  const types = options.types ? ` --types ${options.types.join(',')}` : '';
  const from = options.cursorFile ? `--cursor-file ${shellWord(options.cursorFile)}` : `--after ${cursor}`;
  return `Resume with: coinventory changes ${from}${types}`;
}

/** Failures a follower outlives: the API unreachable, failing (5xx) or limiting it (429) beyond the SDK's retries. */
const transient = (error: unknown): boolean =>
  error instanceof APIConnectionError || (error instanceof APIError && (error.status >= 500 || error.status === 429));

/** The wait before a follower's next try after `failures` transient failures in a row: 1 s, 2 s, 4 s… up to 30 s. */
const backoffSeconds = (failures: number): number => Math.min(2 ** (failures - 1), 30);
/** Failures more than this apart are not "in a row". */
const BACKOFF_RESET_MS = 60_000;

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Where a reader of the feed is: the cursor after the last page it has handled (and past pages with nothing in it). */
export interface FeedPosition {
  cursor: string | undefined;
}

/** What to read of the feed, from `position.cursor`, and how. */
export interface FeedReading {
  client: Coinventory;
  types: readonly ChangeType[] | undefined;
  limit?: number | undefined;
  /** Keep polling at the end of the feed until `signal` aborts, riding out an API that fails for a while. */
  follow: boolean;
  pollIntervalMs: number;
  /** Aborted by Ctrl-C or SIGTERM. */
  signal: AbortSignal;
  io: IO;
  /** The progress line while waiting for a page (shown on a terminal only). */
  waiting: string;
}

/**
 * Reads the feed from `position.cursor`, handing `handle` each page that holds changes and moving the position after
 * it once handled; with `follow`, polls until stopped, and a lost connection, a 5xx or a 429 is announced and retried
 * with backoff rather than ending the run. Throws what it does not retry, with the position where it was.
 */
export async function readFeed(
  reading: FeedReading,
  position: FeedPosition,
  handle: (page: ChangeList) => Promise<void>,
): Promise<void> {
  const { client, types, limit, follow, pollIntervalMs, signal, io } = reading;
  let failures = 0;
  let lastFailure = 0;
  for (;;) {
    const feed = client.changes.pages({ after: position.cursor, limit, types, follow, pollIntervalMs }, { signal });
    io.progress.update(reading.waiting);
    try {
      for await (const page of feed) {
        io.progress.clear();
        await handle(page);
        position.cursor = page.nextCursor;
      }
      // Past the pages that held nothing: the feed's end, beyond the changes `types` leaves out.
      position.cursor = feed.cursor ?? position.cursor;
      return;
    } catch (error) {
      position.cursor = feed.cursor ?? position.cursor;
      if (!follow || signal.aborted || !transient(error)) throw error;
      // An empty poll yields nothing, so a follower that has been fine for a minute starts its backoff afresh.
      failures = Date.now() - lastFailure > BACKOFF_RESET_MS ? 1 : failures + 1;
      lastFailure = Date.now();
      const wait = backoffSeconds(failures);
      io.notice(io.errStyle.yellow(`${errorMessage(error)}; trying again in ${wait}s… (Ctrl-C to stop)`));
      await pause(wait * 1000, signal);
      if (signal.aborted) return;
    }
  }
}

interface FeedRun {
  client: Coinventory;
  options: ChangesOptions;
  format: OutputFormat;
  io: IO;
  /** Aborted by Ctrl-C or SIGTERM. */
  signal: AbortSignal;
}

/**
 * Prints the feed from the start cursor; with --follow, keeps polling until stopped, riding out lost connections and
 * server errors. Each page is written before its cursor is saved, so what a cursor file holds has been printed. Ends,
 * whichever way, by telling where to resume: after the last page printed.
 */
async function printFeed({ client, options, format, io, signal }: FeedRun): Promise<void> {
  const printer = new ChangePrinter(format, io);
  const waiting = options.follow ? 'Waiting for changes… (Ctrl-C to stop)' : 'Fetching changes…';
  const position: FeedPosition = {
    cursor: options.cursorFile ? await readCursorFile(options.cursorFile) : options.after,
  };
  let saved = position.cursor;
  const save = async (cursor = position.cursor) => {
    if (!options.cursorFile || cursor === undefined || cursor === saved) return;
    // Marked first: a file that cannot be written fails the command once, not again on the way out.
    saved = cursor;
    await writeCursorFile(options.cursorFile, cursor);
  };
  const reading: FeedReading = {
    client,
    types: options.types,
    limit: options.limit,
    follow: options.follow === true,
    pollIntervalMs: options.interval * 1000,
    signal,
    io,
    waiting,
  };
  try {
    if (position.cursor === NOW) position.cursor = (await client.changes.cursor({ signal })).cursor;
    await readFeed(reading, position, async (page) => {
      await io.out.write(printer.text(page.items));
      await save(page.nextCursor);
      io.progress.update(options.follow ? waiting : `Fetching changes… ${printer.count} so far`);
    });
    await save();
    if (format === 'table' && printer.count === 0 && !options.follow && !signal.aborted) io.notice('No changes found.');
  } catch (error) {
    if (!signal.aborted) {
      // A cursor the API refused (expired, of another workspace) is no place to resume from.
      if (error instanceof BadRequestError) position.cursor = undefined;
      throw error;
    }
    // Stopping (Ctrl-C, SIGTERM) may cut a request short: that is the end asked for, not a failure.
    await save();
  } finally {
    io.progress.clear();
    const { cursor } = position;
    if (cursor !== undefined && cursor !== NOW) io.notice(resumeLine(cursor, options));
  }
}

/** Seconds between polls at the end of the feed with --follow; each poll is one request against the rate limit. */
const FOLLOW_INTERVAL_SECONDS = 5;

const CHANGES_HELP = `
Prints every change after a cursor, in the order the changes were committed, then
says on stderr where to resume:

  Resume with: coinventory changes --after <cursor>

Without --after it starts at the oldest change the server keeps (${DEFAULT_CHANGES_RETENTION_DAYS} days unless
configured otherwise); --after now starts at the feed's end, for changes made from
now on. With --follow it keeps waiting for new changes, like tail -f, polling every
--interval seconds, until Ctrl-C or SIGTERM, and then exits 0. While following, a lost
connection, a server error or the rate limit is announced on stderr and retried (1 s,
2 s, 4 s… up to 30 s apart) until it is stopped. Without --follow, Ctrl-C exits 130,
after the resume line.

Output:
  table    one line per change: time (local, to the second), type, object id, then
           REF and DESCRIPTION, by type:
             item.*         the SKU and title (a deleted item's when this run saw it)
             valuation.*    the item's SKU (when this run saw the item), the summary
             consignment.*  the consignment's number and name
             invoice.*      the invoice's number and customer
  --json   one Change per line (NDJSON), exactly as the API returns it: { id, type,
           objectId, occurredAt, data }, data being the object as its GET returns it
           (the item, valuation, consignment or invoice; null for a deleted item)

Cursors:
  Cursors are opaque: store them as they are. --cursor-file <file> starts from the
  cursor in the file (from the oldest kept change when the file does not exist or is
  empty) and replaces it atomically after each page printed, so a restarted run goes
  on where the last one stopped. A page is printed before its cursor is saved: after
  a crash its changes may print again (the change id tells a repeat). A cursor
  expires with the changes after it; an expired one is refused (exit 2): start again
  from a full read. 'coinventory changes cursor' prints the feed's end now: take it
  before a full export, then follow from it, and no change is missed.

${changeTypesHelp(
  '--types',
  ' (all of them without --types).',
  'An item.* change is an item created, changed or deleted (through the API, an import or an applied valuation); valuation.created, an item the valuation engine valued (before the item.updated that applies its estimate, when applied); consignment.* and invoice.*, records an operator imported.',
)}`;

export function registerChanges(program: Command): void {
  const { changesLimit } = LIMITS;
  const changes = program
    .command('changes')
    .description('print the changes feed after a cursor, or follow it; print its current end')
    .addHelpText(
      'after',
      "\n'coinventory changes [options]' runs 'coinventory changes list [options]': see\n'coinventory changes list --help' for its options, its output and how cursors work.",
    );
  examples(changes, [
    'coinventory changes --after now --follow',
    'coinventory changes cursor',
    'coinventory changes list --after <cursor> --json',
  ]);

  // The default subcommand: `changes --follow` runs it. (The group itself has no options, so `changes cursor --json`
  // is the cursor's option, not taken by the group.)
  const list = changes
    .command('list', { isDefault: true })
    .alias('ls')
    .description("print the changes after a cursor, or follow them (the default: 'changes' alone runs it)")
    .addOption(
      new Option('--after <cursor>', "start after this cursor (or 'now'; default: the oldest kept change)")
        .argParser(text(LIMITS.cursor))
        .conflicts('cursorFile'),
    )
    .addOption(
      new Option('--types <types>', 'only these change types, comma-separated (repeatable)').argParser(changeTypes),
    )
    .addOption(
      new Option(
        '--limit <n>',
        `changes per request, ${changesLimit.min} to ${changesLimit.max} (default: ${changesLimit.default})`,
      ).argParser(integer(changesLimit)),
    )
    .option('-f, --follow', 'keep waiting for new changes until Ctrl-C or SIGTERM (then exit 0)')
    .addOption(
      new Option('--interval <seconds>', 'with --follow, seconds between polls at the end of the feed')
        .argParser(integer({ min: 1, max: 3600 }))
        .default(FOLLOW_INTERVAL_SECONDS),
    )
    .addOption(
      new Option(
        '--cursor-file <file>',
        'start from the cursor in this file, and save the cursor there after each page',
      ),
    );
  addOutputOptions(list, ['table', 'json'], 'print one Change per line as JSON, NDJSON (same as --output json)');
  list.addHelpText('after', CHANGES_HELP);
  list.action(async (_options: ChangesOptions, command: Command) => {
    const { options, format, io } = invocation<ChangesOptions>(command);
    const { client } = openSession(globalOptions(command), io);
    await untilStopped(async (signal) => {
      await printFeed({ client, options, format, io, signal });
      // Stopping is how --follow ends; a plain run stopped early was interrupted.
      if (!options.follow) process.exitCode = stoppedExitCode(signal) ?? process.exitCode;
    });
  });
  examples(list, [
    'coinventory changes',
    'coinventory changes list --after <cursor> --types item.created,item.deleted',
    'coinventory changes --after now --follow',
    'coinventory changes --follow --json --cursor-file sync.cursor | ./apply-changes',
    'cursor=$(coinventory changes cursor) && coinventory items list --all --json > items.json && coinventory changes --after "$cursor" --follow',
  ]);

  const cursor = changes
    .command('cursor')
    .description("print the feed's end now: the cursor to follow from after a full read")
    .action(async (_options: OutputOptions, command: Command) => {
      const { format, io } = invocation(command);
      const { client } = openSession(globalOptions(command), io);
      const value = await client.changes.cursor();
      // Plain, the cursor alone, so that `$(coinventory changes cursor)` is the cursor.
      await io.out.write(format === 'json' ? jsonDocument(value) : `${value.cursor}\n`);
    });
  addOutputOptions(cursor, ['table', 'json']);
  examples(cursor, [
    'coinventory changes cursor',
    'coinventory changes cursor --json',
    'coinventory changes cursor > sync.cursor && coinventory changes --follow --cursor-file sync.cursor',
  ]);
}
