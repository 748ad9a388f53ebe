import { z } from 'zod';
import { CONSIGNMENT_STATUSES, LIMITS, SEARCH_FIELDS, SOLD_INVOICE_STATUSES } from '../constants.js';
import { cents, dateTime, text, uuid } from '../primitives.js';
import { listEnvelope, listLimitQuery, pageQuery } from './common.js';

export const ConsignorSchema = z
  .object({
    id: uuid.describe('Consignor id.'),
    name: z.string().nullable().describe("Consignor's name."),
    email: z.string().nullable().describe("Consignor's email address."),
  })
  .strict()
  .describe('Who consigned the items.');

export const ConsignmentSchema = z
  .object({
    id: uuid.describe('Consignment id.'),
    number: z.string().nullable().describe('Human-facing consignment number.'),
    name: z.string().nullable().describe('Name of the consignment.'),
    status: z
      .string()
      .describe(`Current state; filterable values: ${CONSIGNMENT_STATUSES.map((s) => `\`${s}\``).join(', ')}.`),
    paymentStatus: z.string().nullable().describe('State of the payout to the consignor.'),
    consignor: ConsignorSchema.nullable(),
    commissionBps: z.number().int().nullable().describe('Commission in basis points; 1000 means 10%.'),
    buyerPremiumBps: z.number().int().nullable().describe("Buyer's premium in basis points."),
    numItems: z.number().int().min(0).describe('Items linked to the consignment (`Item.consignmentId`).'),
    numItemsSold: z.number().int().min(0).describe('Of those items, the ones with `quantity.sold` > 0.'),
    totalValueInCents: cents.describe('Sum of its items\u2019 `valueInCents`.'),
    totalSoldInCents: cents.describe(
      `Sum of the invoice lines for its items on invoices whose status is ${SOLD_INVOICE_STATUSES.map((s) => `\`${s}\``).join(', ')}, in cents.`,
    ),
    totalCommissionInCents: cents.describe(
      'Commission kept: `totalSoldInCents × commissionBps / 10000`, rounded half up to the cent; 0 when `commissionBps` is null.',
    ),
    totalPayoutInCents: cents.describe('Owed to the consignor: `totalSoldInCents − totalCommissionInCents`.'),
    receivedAt: dateTime.nullable().describe('When the items were received.'),
    soldAt: dateTime.nullable().describe('When the last item sold.'),
    settledAt: dateTime.nullable().describe('When the consignor was paid out.'),
    createdAt: dateTime.describe('When the consignment was created.'),
  })
  .strict()
  .describe('Items a consignor left to be sold, with totals.');

export const ListConsignmentsQuerySchema = z
  .object({
    q: text(LIMITS.q)
      .optional()
      .describe(
        `Search text, ${LIMITS.q.min} to ${LIMITS.q.max} chars: consignments whose ${SEARCH_FIELDS.consignments.map((f) => `\`${f}\``).join(', ')} contain it, case-insensitively.`,
      ),
    status: z.enum(CONSIGNMENT_STATUSES).optional().describe('Only consignments in this state.'),
    consignorId: uuid.optional().describe('Only consignments of this consignor.'),
    page: pageQuery,
    limit: listLimitQuery,
  })
  .strict();

export const ConsignmentListSchema = listEnvelope(ConsignmentSchema, 'A page of consignments, newest first.');
