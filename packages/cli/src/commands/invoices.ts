import { INVOICE_SORTS, INVOICE_STATUSES, SEARCH_FIELDS } from '@coinventory/contract/constants';
import type { Invoice, InvoiceLine, InvoicePayment, ListInvoicesParams } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import type { IO } from '../io.js';
import { csvColumns } from '../output/csv.js';
import { formatDate, formatMoney, formatText, NONE } from '../output/format.js';
import type { View } from '../output/render.js';
import { heading, renderDetails, renderTable } from '../output/table.js';
import { resourceCommands, searchOption } from './resource.js';

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

const customer = (i: Invoice): string => i.customer.name ?? i.customer.email ?? NONE;

const invoiceView: View<Invoice> = {
  noun: ['invoice', 'invoices'],
  columns: [
    { header: 'ID', value: (i) => i.id, shrink: 'never' },
    { header: 'NUMBER', value: (i) => formatText(i.number), align: 'right' },
    { header: 'STATUS', value: (i) => i.status },
    { header: 'CUSTOMER', value: customer, shrink: 'first' },
    { header: 'SOURCE', value: (i) => i.source },
    { header: 'TOTAL', value: (i) => formatMoney(i.totalInCents), align: 'right', reserve: 11 },
    { header: 'DUE', value: (i) => formatMoney(i.dueInCents), align: 'right', reserve: 11 },
    { header: 'CREATED', value: (i) => formatDate(i.createdAt), shrink: 'never' },
  ],
  csv: INVOICE_CSV,
};

function invoiceDetails(invoice: Invoice, io: IO): string {
  const c = invoice.customer;
  const who = [c.name, c.email ? `<${c.email}>` : undefined, c.id ? `(${c.id})` : undefined].filter(Boolean).join(' ');
  let out = renderDetails(
    [
      ['ID', invoice.id],
      ['Number', formatText(invoice.number)],
      ['Status', invoice.status],
      ['Source', invoice.source],
      ['Customer', who || NONE],
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
  const options = { style: io.style, maxWidth: io.maxWidth };
  out += heading(`Lines (${invoice.lines.length})`, io.style);
  out += invoice.lines.length
    ? renderTable<InvoiceLine>(
        [
          { header: 'DESCRIPTION', value: (l) => formatText(l.description), shrink: 'first' },
          { header: 'ITEM', value: (l) => formatText(l.itemId), shrink: 'never' },
          { header: 'QTY', value: (l) => String(l.quantity), align: 'right' },
          { header: 'UNIT', value: (l) => formatMoney(l.unitPriceInCents), align: 'right' },
          { header: 'TOTAL', value: (l) => formatMoney(l.totalPriceInCents), align: 'right' },
        ],
        invoice.lines,
        options,
      )
    : `${NONE}\n`;
  out += heading(`Payments (${invoice.payments.length})`, io.style);
  out += invoice.payments.length
    ? renderTable<InvoicePayment>(
        [
          { header: 'AMOUNT', value: (p) => formatMoney(p.amountInCents), align: 'right' },
          { header: 'METHOD', value: (p) => formatText(p.method) },
          { header: 'STATUS', value: (p) => formatText(p.status) },
          { header: 'PAID', value: (p) => formatDate(p.paidAt), shrink: 'never' },
          { header: 'ID', value: (p) => p.id, shrink: 'never' },
        ],
        invoice.payments,
        options,
      )
    : `${NONE}\n`;
  return out;
}

export function registerInvoices(program: Command): void {
  resourceCommands<Invoice, ListInvoicesParams>(program, {
    name: 'invoices',
    description: 'list and show sales invoices (read-only)',
    view: invoiceView,
    resource: (client) => client.invoices,
    list: {
      description: 'list invoices with their lines and payments',
      filters: {
        q: searchOption(SEARCH_FIELDS.invoices),
        status: new Option('--status <status>', 'only invoices in this state').choices(INVOICE_STATUSES),
        sort: new Option('--sort <order>', 'order by creation (default: newest)').choices(INVOICE_SORTS),
      },
      examples: [
        'coinventory invoices list --status overdue',
        'coinventory invoices list --sort oldest --all --output csv > invoices.csv',
        "coinventory invoices list --all --json | jq '[.[] | .dueInCents] | add'",
      ],
    },
    get: {
      description: 'show one invoice with its lines and payments',
      details: invoiceDetails,
      examples: ['coinventory invoices get <id>', 'coinventory invoices get <id> --json | jq .lines'],
    },
  });
}
