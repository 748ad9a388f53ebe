import { CHANGE_TYPES, type ChangeType, DEFAULT_CHANGES_RETENTION_DAYS, LIMITS } from '@coinventory/contract/constants';
import { BadRequestError, type Coinventory } from '@coinventory/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { IO } from '../io.js';
import { integer, text } from '../options.js';
import { jsonDocument } from '../output/json.js';
import type { OutputFormat } from '../output/render.js';
import { stoppedExitCode, untilStopped } from '../signals.js';
import { ChangePrinter } from './change-printer.js';
import { readCursorFile, writeCursorFile } from './cursor-file.js';
import { type FeedPosition, type FeedReading, readFeed } from './feed.js';
import { addOutputOptions, apiAction, changeTypesHelp, examples, type OutputOptions, shellWord } from './shared.js';

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

/** How `changes` says where to resume: a command to paste, with the cursor in it (or the file that holds it). */
function resumeLine(cursor: string, options: ChangesOptions): string {
  const types = options.types ? ` --types ${options.types.join(',')}` : '';
  const from = options.cursorFile ? `--cursor-file ${shellWord(options.cursorFile)}` : `--after ${cursor}`;
  return `Resume with: coinventory changes ${from}${types}`;
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
      // A cursor the API refused (expired, of another organization) is no place to resume from.
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
             reservation.*  the item's SKU (when this run saw the item), the units
                            held and the reference
  --json   one Change per line (NDJSON), exactly as the API returns it: { id, type,
           objectId, occurredAt, actor, data }, data being the object as its GET returns
           it (the item, valuation, consignment, invoice or reservation; null for a
           deleted item), actor who made it (a key, the operator or the server)

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
  registerChangesList(changes);
  registerChangesCursor(changes);
}

/**
 * `changes list`, the default subcommand: `changes --follow` runs it. (The group itself has no options, so
 * `changes cursor --json` is the cursor's option, not taken by the group.)
 */
function registerChangesList(changes: Command): void {
  const { changesLimit } = LIMITS;
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
  apiAction<ChangesOptions>(list, async ({ options, format, io, client }) => {
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
}

/** `changes cursor`: the feed's end now. */
function registerChangesCursor(changes: Command): void {
  const cursor = changes
    .command('cursor')
    .description("print the feed's end now: the cursor to follow from after a full read");
  apiAction(cursor, async ({ format, io, client }) => {
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
