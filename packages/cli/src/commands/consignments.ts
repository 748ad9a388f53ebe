import { CONSIGNMENT_STATUSES, type ConsignmentStatus, LIMITS, SEARCH_FIELDS } from '@coinventory/contract/constants';
import type { Consignment, ListConsignmentsParams } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import { text, uuid } from '../options.js';
import type { Missing } from '../output/csv.js';
import { formatBps, formatDate, formatMoney, formatText, NONE, type Style } from '../output/format.js';
import { printObject, printPages, type View } from '../output/render.js';
import { renderDetails } from '../output/table.js';
import { globalOptions, ioFor, openSession } from '../session.js';
import {
  addListOptions,
  addOutputOptions,
  defined,
  examples,
  type ListOptions,
  type OutputOptions,
  outputFormat,
  pagesOf,
} from './shared.js';

const CONSIGNMENT_CSV = [
  'id',
  'number',
  'name',
  'status',
  'paymentStatus',
  'consignor.id',
  'consignor.name',
  'consignor.email',
  'commissionBps',
  'buyerPremiumBps',
  'numItems',
  'numItemsSold',
  'totalValueInCents',
  'totalSoldInCents',
  'totalCommissionInCents',
  'totalPayoutInCents',
  'receivedAt',
  'soldAt',
  'settledAt',
  'createdAt',
] as const;
// Compile-time proof that the CSV has a column for every field of the contract's Consignment.
const csvComplete: [Missing<Consignment, typeof CONSIGNMENT_CSV>] extends [never]
  ? true
  : Missing<Consignment, typeof CONSIGNMENT_CSV> = true;
void csvComplete;

const consignor = (c: Consignment): string => c.consignor?.name ?? c.consignor?.email ?? NONE;

export const consignmentView: View<Consignment> = {
  noun: ['consignment', 'consignments'],
  columns: [
    { header: 'ID', value: (c) => c.id, shrink: 'never' },
    { header: 'NUMBER', value: (c) => formatText(c.number) },
    { header: 'NAME', value: (c) => formatText(c.name), shrink: 'first' },
    { header: 'STATUS', value: (c) => c.status },
    { header: 'CONSIGNOR', value: consignor },
    { header: 'SOLD/ITEMS', value: (c) => `${c.numItemsSold}/${c.numItems}`, align: 'right' },
    { header: 'VALUE', value: (c) => formatMoney(c.totalValueInCents), align: 'right', reserve: 11 },
    { header: 'SOLD', value: (c) => formatMoney(c.totalSoldInCents), align: 'right', reserve: 11 },
    { header: 'RECEIVED', value: (c) => formatDate(c.receivedAt), shrink: 'never' },
  ],
  csv: CONSIGNMENT_CSV,
};

function consignmentDetails(c: Consignment, style: Style): string {
  const who = c.consignor
    ? [c.consignor.name, c.consignor.email ? `<${c.consignor.email}>` : undefined, `(${c.consignor.id})`]
        .filter(Boolean)
        .join(' ')
    : NONE;
  return renderDetails(
    [
      ['ID', c.id],
      ['Number', formatText(c.number)],
      ['Name', formatText(c.name)],
      ['Status', c.status],
      ['Payment status', formatText(c.paymentStatus)],
      ['Consignor', who],
      ['Commission', formatBps(c.commissionBps)],
      ['Buyer premium', formatBps(c.buyerPremiumBps)],
      ['Items', `${c.numItems} (${c.numItemsSold} sold)`],
      ['Total value', formatMoney(c.totalValueInCents)],
      ['Total sold', formatMoney(c.totalSoldInCents)],
      ['Commission total', formatMoney(c.totalCommissionInCents)],
      ['Payout', formatMoney(c.totalPayoutInCents)],
      ['Received', formatDate(c.receivedAt)],
      ['Sold', formatDate(c.soldAt)],
      ['Settled', formatDate(c.settledAt)],
      ['Created', formatDate(c.createdAt)],
    ],
    style,
  );
}

interface ConsignmentListOptions extends ListOptions {
  query?: string;
  status?: ConsignmentStatus;
  consignorId?: string;
}

export function registerConsignments(program: Command): void {
  const consignments = program.command('consignments').description('list and show consignments (read-only)');

  const list = consignments
    .command('list')
    .alias('ls')
    .description('list consignments, newest first')
    .addOption(
      new Option(
        '-q, --query <text>',
        `search ${SEARCH_FIELDS.consignments.join(', ')} (case-insensitive substring, ${LIMITS.q.min}-${LIMITS.q.max} chars)`,
      ).argParser(text(LIMITS.q)),
    )
    .addOption(new Option('--status <status>', 'only consignments in this state').choices(CONSIGNMENT_STATUSES))
    .addOption(new Option('--consignor-id <uuid>', "only this consignor's consignments").argParser(uuid))
    .action(async (_options: ConsignmentListOptions, command: Command) => {
      const options = command.opts<ConsignmentListOptions>();
      const format = outputFormat(options, command);
      const io = ioFor(command);
      const { client } = openSession(globalOptions(command), io);
      const params: ListConsignmentsParams = defined({
        q: options.query,
        status: options.status,
        consignorId: options.consignorId,
        page: options.page,
        limit: options.limit,
      });
      await printPages(
        io,
        consignmentView,
        { format, all: options.all === true },
        pagesOf(client.consignments.list(params), options.all),
      );
    });
  addListOptions(list);
  addOutputOptions(list);
  examples(list, [
    'coinventory consignments list',
    'coinventory consignments list --status partially_sold --all',
    'coinventory consignments list -q brandt --output csv',
  ]);

  const get = consignments
    .command('get')
    .alias('show')
    .description('show one consignment')
    .argument('<id>', "the consignment's id (a UUID)", uuid)
    .action(async (id: string, _options: OutputOptions, command: Command) => {
      const format = outputFormat(command.opts<OutputOptions>(), command);
      const io = ioFor(command);
      const { client } = openSession(globalOptions(command), io);
      const consignment = await client.consignments.get(id);
      await printObject(io, format, consignment, {
        details: (c) => consignmentDetails(c, io.style),
        csv: CONSIGNMENT_CSV,
      });
    });
  addOutputOptions(get);
  examples(get, ['coinventory consignments get <id>', 'coinventory consignments get <id> --json']);
}
