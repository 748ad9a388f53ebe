import { INVOICE_SORTS, INVOICE_STATUSES } from '@coinventory/contract/constants';
import type { Invoice, InvoiceLine, InvoicePayment } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import type { IO } from '../io.js';
import { dateColumn, idColumn, moneyColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import { formatDate, formatMoney, formatPerson, formatText, personName } from '../output/format.js';
import type { DetailView } from '../output/render.js';
import { type Column, renderDetails, renderSection } from '../output/table.js';
import { resourceCommands, statusOption } from './resource.js';

const INVOICE_CSV = csvColumns<Invoice>({
  id: true,
  number: true,
  status: true,
  source: true,
  customer: { id: true, name: true, email: true },
  subtotalInCents: true,
  discountInCents: true,
  shippingInCents: true,
  taxInCents: true,
  totalInCents: true,
  paidInCents: true,
  dueInCents: true,
  lines: true,
  payments: true,
  dueAt: true,
  paidAt: true,
  createdAt: true,
});

const invoiceView: DetailView<Invoice> = {
  noun: ['invoice', 'invoices'],
  columns: [
    idColumn(),
    { header: 'NUMBER', value: (i) => formatText(i.number), align: 'right' },
    { header: 'STATUS', value: (i) => i.status },
    { header: 'CUSTOMER', value: (i) => personName(i.customer), shrink: 'first' },
    { header: 'SOURCE', value: (i) => i.source },
    moneyColumn('TOTAL', (i) => i.totalInCents),
    moneyColumn('DUE', (i) => i.dueInCents),
    dateColumn('CREATED', (i) => i.createdAt),
  ],
  csv: INVOICE_CSV,
  details: invoiceDetails,
};

const LINE_COLUMNS: readonly Column<InvoiceLine>[] = [
  { header: 'DESCRIPTION', value: (l) => formatText(l.description), shrink: 'first' },
  { header: 'ITEM', value: (l) => formatText(l.itemId), shrink: 'never' },
  { header: 'QTY', value: (l) => String(l.quantity), align: 'right' },
  moneyColumn('UNIT', (l) => l.unitPriceInCents),
  moneyColumn('TOTAL', (l) => l.totalPriceInCents),
];

const PAYMENT_COLUMNS: readonly Column<InvoicePayment>[] = [
  moneyColumn('AMOUNT', (p) => p.amountInCents),
  { header: 'METHOD', value: (p) => formatText(p.method) },
  { header: 'STATUS', value: (p) => formatText(p.status) },
  dateColumn('PAID', (p) => p.paidAt),
  idColumn(),
];

function invoiceDetails(invoice: Invoice, io: IO): string {
  const fields = renderDetails(
    [
      ['ID', invoice.id],
      ['Number', formatText(invoice.number)],
      ['Status', invoice.status],
      ['Source', invoice.source],
      ['Customer', formatPerson(invoice.customer)],
      ['Subtotal', formatMoney(invoice.subtotalInCents)],
      ['Discount', formatMoney(invoice.discountInCents)],
      ['Shipping', formatMoney(invoice.shippingInCents)],
      ['Tax', formatMoney(invoice.taxInCents)],
      ['Total', formatMoney(invoice.totalInCents)],
      ['Paid', formatMoney(invoice.paidInCents)],
      ['Due', formatMoney(invoice.dueInCents)],
      ['Due at', formatDate(invoice.dueAt)],
      ['Paid at', formatDate(invoice.paidAt)],
      ['Created', formatDate(invoice.createdAt)],
    ],
    io.style,
  );
  const table = { style: io.style, maxWidth: io.maxWidth };
  return (
    fields +
    renderSection('Lines', LINE_COLUMNS, invoice.lines, table) +
    renderSection('Payments', PAYMENT_COLUMNS, invoice.payments, table)
  );
}

export function registerInvoices(program: Command): void {
  resourceCommands(program, {
    name: 'invoices',
    description: 'list and show sales invoices (read-only)',
    view: invoiceView,
    list: {
      description: 'list invoices with their lines and payments',
      filters: {
        status: statusOption('invoices', INVOICE_STATUSES),
        sort: new Option('--sort <order>', 'order by creation (default: newest)').choices(INVOICE_SORTS),
      },
      examples: [
        'coinventory invoices list --status overdue',
        'coinventory invoices list --sort oldest --all --output csv > invoices.csv',
        "coinventory invoices list --all --json | jq '[.items[] | .dueInCents] | add'",
      ],
    },
    get: {
      description: 'show one invoice with its lines and payments',
      examples: ['coinventory invoices get <id>', 'coinventory invoices get <id> --json | jq .lines'],
    },
  });
}
