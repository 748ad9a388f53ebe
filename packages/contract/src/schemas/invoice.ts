import { z } from 'zod';
import {
  DEFAULT_INVOICE_SORT,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  LIMITS,
  SEARCH_FIELDS,
  SETTLED_PAYMENT_STATUS,
} from '../constants.js';
import { cents, dateTime, text, uuid } from '../primitives.js';
import { listEnvelope, listLimitQuery, pageQuery } from './common.js';

export const InvoiceCustomerSchema = z
  .object({
    id: uuid.nullable().describe('Customer id; null for a customer not kept on file.'),
    name: z.string().nullable().describe("Customer's name."),
    email: z.string().nullable().describe("Customer's email address."),
  })
  .strict()
  .describe('Who the invoice is addressed to.');

export const InvoiceLineSchema = z
  .object({
    id: uuid.describe('Line id.'),
    itemId: uuid.nullable().describe('The inventory item sold, when the line is for one.'),
    description: z.string().nullable().describe('What the line is for.'),
    quantity: z.number().int().describe('Units.'),
    unitPriceInCents: cents.describe('Price of one unit, in cents.'),
    totalPriceInCents: cents.describe('`quantity × unitPriceInCents`, in cents.'),
  })
  .strict()
  .describe('One line of an invoice.');

export const InvoicePaymentSchema = z
  .object({
    id: uuid.describe('Payment id.'),
    amountInCents: cents.describe('Amount paid, in cents.'),
    method: z.string().nullable().describe('How it was paid, for example `card` or `wire`.'),
    status: z.string().nullable().describe('State of the payment, for example `succeeded`.'),
    paidAt: dateTime.nullable().describe('When the payment was made.'),
  })
  .strict()
  .describe('A payment towards an invoice.');

export const InvoiceSchema = z
  .object({
    id: uuid.describe('Invoice id.'),
    number: z.number().int().nullable().describe('Human-facing invoice number.'),
    status: z
      .string()
      .describe(`Current state; filterable values: ${INVOICE_STATUSES.map((s) => `\`${s}\``).join(', ')}.`),
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
    dueAt: dateTime.nullable().describe('When payment is due.'),
    paidAt: dateTime.nullable().describe('When the invoice was paid in full.'),
    createdAt: dateTime.describe('When the invoice was created.'),
  })
  .strict()
  .describe('A sales invoice with its lines and payments.');

export const ListInvoicesQuerySchema = z
  .object({
    q: text(LIMITS.q)
      .optional()
      .describe(
        `Search text, ${LIMITS.q.min} to ${LIMITS.q.max} chars: invoices whose ${SEARCH_FIELDS.invoices.map((f) => `\`${f}\``).join(', ')} contain it, case-insensitively.`,
      ),
    status: z.enum(INVOICE_STATUSES).optional().describe('Only invoices in this state.'),
    sort: z
      .enum(INVOICE_SORTS)
      .default(DEFAULT_INVOICE_SORT)
      .describe(`Order by \`createdAt\` (default \`${DEFAULT_INVOICE_SORT}\`), then \`id\`.`),
    page: pageQuery,
    limit: listLimitQuery,
  })
  .strict();

export const InvoiceListSchema = listEnvelope(InvoiceSchema, 'A page of invoices.');
