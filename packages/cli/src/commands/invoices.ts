import {
  INVOICE_SORTS,
  INVOICE_STATUSES,
  type InvoiceSort,
  type InvoiceStatus,
  LIMITS,
  SEARCH_FIELDS,
} from '@coinventory/contract/constants';
import type { Invoice, InvoiceLine, InvoicePayment, ListInvoicesParams } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import type { IO } from '../io.js';
import { text, uuid } from '../options.js';
import type { Missing } from '../output/csv.js';
import { formatDate, formatMoney, formatText, NONE } from '../output/format.js';
import { printObject, printPages, type View } from '../output/render.js';
import { heading, renderDetails, renderTable } from '../output/table.js';
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

const INVOICE_CSV = [
  'id',
  'number',
  'status',
  'source',
  'customer.id',
  'customer.name',
  'customer.email',
  'subtotalInCents',
  'discountInCents',
  'shippingInCents',
  'taxInCents',
  'totalInCents',
  'paidInCents',
  'dueInCents',
  'lines',
  'payments',
  'dueAt',
  'paidAt',
  'createdAt',
] as const;
// Compile-time proof that the CSV has a column for every field of the contract's Invoice.
const csvComplete: [Missing<Invoice, typeof INVOICE_CSV>] extends [never]
  ? true
  : Missing<Invoice, typeof INVOICE_CSV> = true;
void csvComplete;

const customer = (i: Invoice): string => i.customer.name ?? i.customer.email ?? NONE;

export const invoiceView: View<Invoice> = {
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

interface InvoiceListOptions extends ListOptions {
  query?: string;
  status?: InvoiceStatus;
  sort?: InvoiceSort;
}

export function registerInvoices(program: Command): void {
  const invoices = program.command('invoices').description('list and show sales invoices (read-only)');

  const list = invoices
    .command('list')
    .alias('ls')
    .description('list invoices with their lines and payments')
    .addOption(
      new Option(
        '-q, --query <text>',
        `search ${SEARCH_FIELDS.invoices.join(', ')} (case-insensitive substring, ${LIMITS.q.min}-${LIMITS.q.max} chars)`,
      ).argParser(text(LIMITS.q)),
    )
    .addOption(new Option('--status <status>', 'only invoices in this state').choices(INVOICE_STATUSES))
    .addOption(new Option('--sort <order>', 'order by creation (default: newest)').choices(INVOICE_SORTS))
    .action(async (_options: InvoiceListOptions, command: Command) => {
      const options = command.opts<InvoiceListOptions>();
      const format = outputFormat(options, command);
      const io = ioFor(command);
      const { client } = openSession(globalOptions(command), io);
      const params: ListInvoicesParams = defined({
        q: options.query,
        status: options.status,
        sort: options.sort,
        page: options.page,
        limit: options.limit,
      });
      await printPages(
        io,
        invoiceView,
        { format, all: options.all === true },
        pagesOf(client.invoices.list(params), options.all),
      );
    });
  addListOptions(list);
  addOutputOptions(list);
  examples(list, [
    'coinventory invoices list --status overdue',
    'coinventory invoices list --sort oldest --all --output csv > invoices.csv',
    "coinventory invoices list --all --json | jq '[.[] | .dueInCents] | add'",
  ]);

  const get = invoices
    .command('get')
    .alias('show')
    .description('show one invoice with its lines and payments')
    .argument('<id>', "the invoice's id (a UUID)", uuid)
    .action(async (id: string, _options: OutputOptions, command: Command) => {
      const format = outputFormat(command.opts<OutputOptions>(), command);
      const io = ioFor(command);
      const { client } = openSession(globalOptions(command), io);
      const invoice = await client.invoices.get(id);
      await printObject(io, format, invoice, { details: (i) => invoiceDetails(i, io), csv: INVOICE_CSV });
    });
  addOutputOptions(get);
  examples(get, ['coinventory invoices get <id>', 'coinventory invoices get <id> --json | jq .lines']);
}
