import { LIMITS, RESERVATIONS } from '@coinventory/contract/constants';
import {
  type Coinventory,
  type CreateReservationInput,
  type Reservation,
  ReservationNotHeldError,
} from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import { ExplainedError } from '../errors.js';
import { integer, text, uuid } from '../options.js';
import { dateColumn, idColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import { formatDate, formatText, groupDigits, type Style } from '../output/format.js';
import { type DetailView, printOne } from '../output/render.js';
import { renderDetails } from '../output/table.js';
import { dryRunNotice, dryRunOption, explainShortfall } from './item-quantities.js';
import { type ItemRef, itemArgument, itemId } from './item-ref.js';
import { resourceCommands, statusOption } from './resource.js';
import { addOutputOptions, apiAction, defined, examples, type OutputOptions } from './shared.js';

// `coinventory reservations …`: units of an item held for a customer while they pay (list, get, create), then sold
// (commit) or given back (release).

const reservationView: DetailView<Reservation> = {
  noun: ['reservation', 'reservations'],
  columns: [
    idColumn(),
    { header: 'ITEM', value: (r) => r.itemId, shrink: 'never' },
    { header: 'QTY', value: (r) => String(r.quantity), align: 'right' },
    { header: 'STATUS', value: (r) => r.status },
    { header: 'REFERENCE', value: (r) => formatText(r.reference), shrink: 'first' },
    dateColumn('EXPIRES', (r) => r.expiresAt),
    dateColumn('CREATED', (r) => r.createdAt),
  ],
  csv: csvColumns<Reservation>({
    id: true,
    itemId: true,
    quantity: true,
    status: true,
    reference: true,
    expiresAt: true,
    createdAt: true,
    updatedAt: true,
  }),
  details: (r, io) => reservationDetails(r, io.style),
};

function reservationDetails(r: Reservation, style: Style): string {
  return renderDetails(
    [
      ['ID', r.id],
      ['Item', r.itemId],
      ['Quantity', String(r.quantity)],
      ['Status', r.status === 'held' ? style.green(r.status) : r.status],
      ['Reference', formatText(r.reference)],
      [
        'Expires',
        r.status === 'held'
          ? formatDate(r.expiresAt, 'seconds')
          : `${formatDate(r.expiresAt, 'seconds')} (no longer held)`,
      ],
      ['Created', formatDate(r.createdAt, 'seconds')],
      ['Updated', formatDate(r.updatedAt, 'seconds')],
    ],
    style,
  );
}

const { expiresInSeconds } = RESERVATIONS;

const RESERVATIONS_HELP = `
A reservation holds units of an item while a customer pays, so a coin listed in several
places is never sold twice: 'create' moves them from the item's available to reserved
(refused with INSUFFICIENT_QUANTITY, exit 5, when too few are available), 'commit' sells
them (reserved to sold), 'release' gives them back (reserved to available). A held
reservation expires at its expiry time (default ${groupDigits(expiresInSeconds.default)} s), and the server gives its units
back. Committing or releasing one no longer held is refused with RESERVATION_NOT_HELD
(exit 5). Statuses: ${RESERVATIONS.statuses.join(', ')}.`;

export function registerReservations(program: Command): void {
  const reservations = resourceCommands(program, {
    name: 'reservations',
    description: 'hold units of an item while a customer pays, then commit (sell) or release them',
    help: RESERVATIONS_HELP,
    view: reservationView,
    list: {
      description: 'list reservations, newest first',
      filters: {
        itemId: new Option('--item-id <uuid>', "only this item's reservations").argParser(uuid),
        status: statusOption('reservations', RESERVATIONS.statuses),
        reference: new Option('--reference <text>', 'only reservations with exactly this reference').argParser(
          text(LIMITS.reference),
        ),
      },
      examples: [
        'coinventory reservations list --status held',
        'coinventory reservations list --item-id <id> --all --output csv',
        'coinventory reservations list --reference WEB-ORDER-1187 --json',
      ],
    },
    get: {
      description: 'show one reservation and its status',
      examples: ['coinventory reservations get <id>', 'coinventory reservations get <id> --json | jq -r .status'],
    },
  });
  registerReservationCreate(reservations);
  registerReservationStep(reservations, 'commit', 'sell the units a reservation holds (reserved to sold)', [
    'coinventory reservations commit <id>',
    'coinventory reservations commit <id> --json | jq -r .status',
  ]);
  registerReservationStep(reservations, 'release', 'give back the units a reservation holds (reserved to available)', [
    'coinventory reservations release <id>',
    'coinventory reservations release <id> --dry-run',
  ]);
}

interface CreateOptions extends OutputOptions {
  quantity?: number;
  expiresInSeconds?: number;
  reference?: string;
  dryRun?: boolean;
}

/** `reservations create <id|sku>`: hold units of an item. */
function registerReservationCreate(reservations: Command): void {
  const create = itemArgument(
    reservations
      .command('create')
      .description('hold units of an item (by id or SKU) for a while; prints the reservation'),
  )
    .addOption(
      new Option('--quantity <n>', 'units to hold (default: 1)').argParser(
        integer({ min: 1, max: LIMITS.quantity.max }),
      ),
    )
    .addOption(
      new Option(
        '--expires-in-seconds <n>',
        `how long to hold them, ${expiresInSeconds.min} to ${groupDigits(expiresInSeconds.max)} (default: ${expiresInSeconds.default})`,
      ).argParser(integer(expiresInSeconds)),
    )
    .addOption(
      new Option(
        '--reference <text>',
        `what they are held for: an order, cart or checkout number (${LIMITS.reference.min}-${LIMITS.reference.max} chars)`,
      ).argParser(text(LIMITS.reference)),
    )
    .addOption(dryRunOption('the reservation it would make'));
  addOutputOptions(create);
  apiAction<CreateOptions, [ItemRef]>(create, async ({ options, format, io, client }, ref) => {
    const id = await itemId(client, ref);
    const quantity = options.quantity ?? 1;
    const body: CreateReservationInput = {
      quantity,
      ...defined({ expiresInSeconds: options.expiresInSeconds, reference: options.reference }),
    };
    const reservation = await explainShortfall(client, { id, ref: ref.sku ?? id }, { available: -quantity }, () =>
      client.reservations.create(id, body, defined({ dryRun: options.dryRun })),
    );
    await printOne(io, format, reservation, reservationView);
    if (options.dryRun) dryRunNotice(io);
  });
  examples(create, [
    'coinventory reservations create MOR-1893-S-30 --reference WEB-ORDER-1187',
    'coinventory reservations create <id|sku> --quantity 2 --expires-in-seconds 3600 --json | jq -r .id',
  ]);
}

interface StepOptions extends OutputOptions {
  dryRun?: boolean;
}

/**
 * Runs a step of a reservation that may find it no longer held (a 409 RESERVATION_NOT_HELD): its error then says what
 * became of it, read after the refusal.
 */
async function explainNotHeld(client: Coinventory, id: string, step: () => Promise<Reservation>): Promise<Reservation> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof ReservationNotHeldError)) throw error;
    const now = await client.reservations.get(id).catch(() => undefined);
    if (now === undefined) throw error;
    const when = now.updatedAt ? ` since ${formatDate(now.updatedAt, 'seconds')}` : '';
    throw new ExplainedError(error, { hints: [`Reservation ${id} is ${now.status}${when}; nothing moved.`] });
  }
}

/** `reservations commit <id>` and `reservations release <id>`. */
function registerReservationStep(
  reservations: Command,
  name: 'commit' | 'release',
  description: string,
  lines: readonly string[],
): void {
  const step = reservations
    .command(name)
    .description(description)
    .argument('<id>', "the reservation's id (a UUID)", uuid)
    .addOption(dryRunOption('the reservation as it would be'));
  addOutputOptions(step);
  apiAction<StepOptions, [string]>(step, async ({ options, format, io, client }, id) => {
    const send = defined({ dryRun: options.dryRun });
    const reservation = await explainNotHeld(client, id, () => client.reservations[name](id, send));
    await printOne(io, format, reservation, reservationView);
    if (options.dryRun) dryRunNotice(io);
  });
  examples(step, lines);
}
