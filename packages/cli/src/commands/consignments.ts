import { CONSIGNMENT_STATUSES } from '@coinventory/contract/constants';
import type { Consignment } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import { uuid } from '../options.js';
import { dateColumn, idColumn, moneyColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import {
  formatBps,
  formatDate,
  formatMoney,
  formatPerson,
  formatText,
  personName,
  type Style,
} from '../output/format.js';
import type { DetailView } from '../output/render.js';
import { renderDetails } from '../output/table.js';
import { resourceCommands, statusOption } from './resource.js';

const CONSIGNMENT_CSV = csvColumns<Consignment>({
  id: true,
  number: true,
  name: true,
  status: true,
  paymentStatus: true,
  consignor: { id: true, name: true, email: true },
  commissionBps: true,
  buyerPremiumBps: true,
  numItems: true,
  numItemsSold: true,
  totalValueInCents: true,
  totalSoldInCents: true,
  totalCommissionInCents: true,
  totalPayoutInCents: true,
  receivedAt: true,
  soldAt: true,
  settledAt: true,
  createdAt: true,
});

const consignmentView: DetailView<Consignment> = {
  noun: ['consignment', 'consignments'],
  columns: [
    idColumn(),
    { header: 'NUMBER', value: (c) => formatText(c.number) },
    { header: 'NAME', value: (c) => formatText(c.name), shrink: 'first' },
    { header: 'STATUS', value: (c) => c.status },
    { header: 'CONSIGNOR', value: (c) => personName(c.consignor) },
    { header: 'SOLD/ITEMS', value: (c) => `${c.numItemsSold}/${c.numItems}`, align: 'right' },
    moneyColumn('VALUE', (c) => c.totalValueInCents),
    moneyColumn('SOLD', (c) => c.totalSoldInCents),
    dateColumn('RECEIVED', (c) => c.receivedAt),
  ],
  csv: CONSIGNMENT_CSV,
  details: (c, io) => consignmentDetails(c, io.style),
};

function consignmentDetails(c: Consignment, style: Style): string {
  return renderDetails(
    [
      ['ID', c.id],
      ['Number', formatText(c.number)],
      ['Name', formatText(c.name)],
      ['Status', c.status],
      ['Payment status', formatText(c.paymentStatus)],
      ['Consignor', formatPerson(c.consignor)],
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

export function registerConsignments(program: Command): void {
  resourceCommands(program, {
    name: 'consignments',
    description: 'list and show consignments (read-only)',
    view: consignmentView,
    list: {
      description: 'list consignments, newest first',
      filters: {
        status: statusOption('consignments', CONSIGNMENT_STATUSES),
        consignorId: new Option('--consignor-id <uuid>', "only this consignor's consignments").argParser(uuid),
      },
      examples: [
        'coinventory consignments list',
        'coinventory consignments list --status partially_sold --all',
        'coinventory consignments list -q brandt --output csv',
      ],
    },
  });
}
