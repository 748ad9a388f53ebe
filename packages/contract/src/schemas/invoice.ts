import { z } from 'zod';
import { DEFAULT_INVOICE_SORT, INVOICE_SORTS, INVOICE_STATUSES, SETTLED_PAYMENT_STATUS } from '../constants.js';
import { cents, dateTime, uuid } from '../primitives.js';
import { listEnvelope } from './common.js';
import { codeList, listQuery, nullable, person, strictObject } from './fields.js';

export const InvoiceCustomerSchema = person(
  'Customer',
  'Who the invoice is addressed to.',
  nullable.uuid('Customer id; null for a customer not kept on file.'),
);

export const InvoiceLineSchema = strictObject('One line of an invoice.', {
  id: uuid.describe('Line id.'),
  itemId: nullable.uuid('The inventory item sold, when the line is for one.'),
  description: nullable.string('What the line is for.'),
  quantity: z.number().int().describe('Units.'),
  unitPriceInCents: cents.describe('Price of one unit, in cents.'),
  totalPriceInCents: cents.describe('`quantity × unitPriceInCents`, in cents.'),
});

export const InvoicePaymentSchema = strictObject('A payment towards an invoice.', {
  id: uuid.describe('Payment id.'),
  amountInCents: cents.describe('Amount paid, in cents.'),
  method: nullable.string('How it was paid, for example `card` or `wire`.'),
  status: nullable.string('State of the payment, for example `succeeded`.'),
  paidAt: nullable.dateTime('When the payment was made.'),
});

export const InvoiceSchema = strictObject('A sales invoice with its lines and payments.', {
  id: uuid.describe('Invoice id.'),
  number: nullable.integer('Human-facing invoice number.'),
  status: z.string().describe(`Current state; filterable values: ${codeList(INVOICE_STATUSES)}.`),
  source: z.string().describe('Origin: `manual`, or the name of an external auction venue.'),
  customer: InvoiceCustomerSchema,
  subtotalInCents: cents.describe('Sum of the lines\u2019 `totalPriceInCents`.'),
  discountInCents: cents.describe('Discount, in cents.'),
  shippingInCents: cents.describe('Shipping, in cents.'),
  taxInCents: cents.describe('Tax, in cents.'),
  totalInCents: cents.describe('`max(subtotal − discount + shipping + tax, 0)`, in cents.'),
  paidInCents: cents.describe(`Sum of the payments whose \`status\` is \`${SETTLED_PAYMENT_STATUS}\`, in cents.`),
  dueInCents: cents.describe('`max(total − paid, 0)`, in cents.'),
  lines: z.array(InvoiceLineSchema).describe('Lines of the invoice.'),
  payments: z.array(InvoicePaymentSchema).describe('Payments towards the invoice.'),
  dueAt: nullable.dateTime('When payment is due.'),
  paidAt: nullable.dateTime('When the invoice was paid in full.'),
  createdAt: dateTime.describe('When the invoice was created.'),
});

export const ListInvoicesQuerySchema = listQuery('invoices', {
  status: z.enum(INVOICE_STATUSES).optional().describe('Only invoices in this state.'),
  sort: z
    .enum(INVOICE_SORTS)
    .default(DEFAULT_INVOICE_SORT)
    .describe(`Order by \`createdAt\` (default \`${DEFAULT_INVOICE_SORT}\`), then \`id\`.`),
});

export const InvoiceListSchema = listEnvelope(InvoiceSchema, 'A page of invoices.');
