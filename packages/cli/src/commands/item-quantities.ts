import { ADJUSTMENT_REASONS, type AdjustmentReason, LIMITS } from '@coinventory/contract/constants';
import {
  type Actor,
  type AdjustItemInput,
  type Coinventory,
  InsufficientQuantityError,
  type Movement,
} from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import { ExplainedError, UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { signedInteger, text } from '../options.js';
import { dateColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import { fieldsOption } from '../output/fields.js';
import { formatText, NONE } from '../output/format.js';
import { printOne, type View } from '../output/render.js';
import { type ItemRef, itemArgument, itemId } from './item-ref.js';
import { itemView } from './item-views.js';
import { addListOptions, type ListOptions, pagesOf, printListed } from './resource.js';
import {
  addOutputOptions,
  apiAction,
  commandPath,
  defined,
  examples,
  LIST_JSON_HELP,
  type OutputOptions,
  shellWord,
  writeAction,
} from './shared.js';

// `items adjust` and `items movements`: signed changes of an item's quantities, and its ledger of every movement. Also
// what `reservations create` shares with them: the `--dry-run` option, and the explanation of a 409
// INSUFFICIENT_QUANTITY (how many units the item has, read after it).

/** `--dry-run` of a write the API can check without writing. */
export const dryRunOption = (what: string): Option =>
  new Option('--dry-run', `check it and show ${what}; nothing is written`);

/** Said on stderr after a dry run's answer, so the answer on stdout is not taken for a write. */
export function dryRunNotice(io: IO): void {
  io.notice(io.errStyle.yellow('Dry run: nothing was written.'));
}

/** A signed number, as a movement's delta is shown: `+1`, `-1`, `0`. */
export const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

/** Who made a change or a movement, in a few words: the key's name, `operator`, or the server's worker. */
export function actorName(actor: Actor): string {
  if (actor.type === 'operator') return 'operator';
  const name = actor.name ?? actor.id ?? NONE;
  return actor.type === 'key' ? `key ${name}` : `system ${name}`;
}

/**
 * Runs a write that may find too few units of the item (a 409 INSUFFICIENT_QUANTITY): its error then says how many
 * the item has, read after the refusal, and where to see why. `taken` is what the write would take from each quantity.
 */
export async function explainShortfall<T>(
  client: Coinventory,
  item: { id: string; ref: string },
  taken: { available?: number | undefined; sold?: number | undefined },
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof InsufficientQuantityError)) throw error;
    const now = await client.items.get(item.id).catch(() => undefined);
    if (now === undefined) throw error;
    const { available, sold } = now.quantity;
    const short = (has: number, change: number | undefined) => change !== undefined && has + change < 0;
    const detail =
      short(available, taken.available) || !short(sold, taken.sold) ? `${available} available` : `${sold} sold`;
    throw new ExplainedError(error, {
      detail,
      hints: [`Nothing was written. The item's movements: coinventory items movements ${shellWord(item.ref)}`],
    });
  }
}

interface AdjustOptions extends OutputOptions {
  available?: number;
  sold?: number;
  reason: AdjustmentReason;
  reference?: string;
  dryRun?: boolean;
  ifMatch?: string;
}

/** The body: at least one of --available and --sold not 0, as the API requires, found before any request. */
function adjustBody(options: AdjustOptions, command: Command): AdjustItemInput {
  if ((options.available ?? 0) === 0 && (options.sold ?? 0) === 0) {
    throw new UsageError(
      'Nothing to adjust: give --available or --sold a number of units other than 0 (-1 takes one away).',
      commandPath(command),
    );
  }
  return {
    ...defined({ available: options.available, sold: options.sold }),
    reason: options.reason,
    ...defined({ reference: options.reference }),
  };
}

const delta = signedInteger(LIMITS.quantityDelta);
const referenceBounds = `${LIMITS.reference.min}-${LIMITS.reference.max} chars`;

const ADJUST_HELP = `
--available and --sold are signed numbers of units added to those quantities (-1 takes
one away; --available -1 and --available=-1 are the same); at least one is not 0. Both
change together, under the item's lock: a change that would take either below 0 is
refused with INSUFFICIENT_QUANTITY (exit 5) and nothing is written, so two sellers of the
last unit never both succeed. A linked marketplace listing follows available. The item's
ledger ('coinventory items movements') records the change with its reason and reference.`;

/** `items adjust`: signed changes of an item's available and sold units, with a reason. */
export function registerItemAdjust(items: Command): void {
  const adjust = itemArgument(
    items.command('adjust').description("add to or take from an item's available and sold units, with a reason"),
  )
    .addOption(
      new Option('--available <n>', 'units to add to quantity.available, signed: -1 takes one away').argParser(delta),
    )
    .addOption(new Option('--sold <n>', 'units to add to quantity.sold, signed: +1 records one sold').argParser(delta))
    .addOption(new Option('--reason <reason>', 'why').choices(ADJUSTMENT_REASONS).makeOptionMandatory())
    .addOption(
      new Option(
        '--reference <text>',
        `what it is for: an order, receipt or cart number (${referenceBounds})`,
      ).argParser(text(LIMITS.reference)),
    )
    .addOption(dryRunOption('the item as it would be'))
    .addOption(
      new Option(
        '--if-match <etag>',
        "only if the item still has this ETag (else exit 5); 'coinventory api GET /items/<id> -i' shows it",
      ),
    );
  addOutputOptions(adjust);
  adjust.addHelpText('after', ADJUST_HELP);
  writeAction<AdjustOptions, AdjustItemInput, [ItemRef]>(adjust, adjustBody, async (call, body, ref) => {
    const { options, format, io, client } = call;
    const id = await itemId(client, ref);
    const item = await explainShortfall(client, { id, ref: ref.sku ?? id }, body, () =>
      client.items.adjust(id, body, defined({ dryRun: options.dryRun, ifMatch: options.ifMatch })),
    );
    await printOne(io, format, item, itemView);
    if (options.dryRun) dryRunNotice(io);
  });
  examples(adjust, [
    'coinventory items adjust MOR-1893-S-30 --available -1 --sold +1 --reason sale --reference ORD-1042',
    'coinventory items adjust <id|sku> --available=+5 --reason restock',
    'coinventory items adjust <id|sku> --available -1 --reason damaged --dry-run --json',
  ]);
}

export const movementView: View<Movement> = {
  noun: ['movement', 'movements'],
  columns: [
    dateColumn('WHEN', (m) => m.occurredAt, 'seconds'),
    { header: 'KIND', value: (m) => m.kind },
    { header: 'REASON', value: (m) => formatText(m.reason) },
    { header: 'AVAIL', value: (m) => signed(m.delta.available), align: 'right' },
    { header: 'SOLD', value: (m) => signed(m.delta.sold), align: 'right' },
    { header: 'RESERVED', value: (m) => signed(m.delta.reserved), align: 'right' },
    {
      header: 'AFTER (A/S/R)',
      value: ({ after }) => `${after.available}/${after.sold}/${after.reserved}`,
      align: 'right',
      shrink: 'never',
    },
    { header: 'BY', value: (m) => actorName(m.actor) },
    { header: 'REFERENCE', value: (m) => formatText(m.reference), shrink: 'first' },
  ],
  csv: csvColumns<Movement>({
    id: true,
    itemId: true,
    kind: true,
    reason: true,
    reference: true,
    delta: { available: true, sold: true, reserved: true },
    after: { available: true, sold: true, reserved: true },
    actor: { type: true, id: true, name: true },
    occurredAt: true,
  }),
};

/** `items movements`: an item's ledger, newest first, a page or --all. */
export function registerItemMovements(items: Command): void {
  const movements = itemArgument(
    items
      .command('movements')
      .description("list an item's movements (by id or SKU), newest first: what moved its quantities, and who"),
  );
  addListOptions(movements, movementView.noun[1]);
  addOutputOptions(movements, undefined, LIST_JSON_HELP);
  movements.addOption(fieldsOption(movementView.csv));
  movements.addHelpText(
    'after',
    `
Every change of the item's quantities: its creation, an update of --quantity, an
adjustment, each step of a reservation, an import, an operator's command, an expiry.
AVAIL, SOLD and RESERVED are how much each moved; AFTER is available/sold/reserved
right after it; BY the key (by name), the operator, or the server.`,
  );
  apiAction<ListOptions, [ItemRef]>(movements, async ({ options, format, io, client }, ref) => {
    const id = await itemId(client, ref);
    const list = client.items.movements(id, defined({ page: options.page, limit: options.limit }));
    await printListed(io, movementView, { format, all: options.all === true, fields: options.fields }, () =>
      pagesOf(list, options.all),
    );
  });
  examples(movements, [
    'coinventory items movements MOR-1893-S-30',
    'coinventory items movements <id|sku> --all --output csv > ledger.csv',
    'coinventory items movements <id|sku> --json | jq \'.items[] | select(.kind == "adjustment")\'',
  ]);
}
