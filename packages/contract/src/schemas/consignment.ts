import { z } from 'zod';
import { CONSIGNMENT_STATUSES, SOLD_INVOICE_STATUSES } from '../constants.js';
import { cents, dateTime, uuid } from '../primitives.js';
import { listEnvelope } from './common.js';
import { codeList, count, listQuery, nullable, person, strictObject } from './fields.js';

export const ConsignorSchema = person('Consignor', 'Who consigned the items.', uuid.describe('Consignor id.'));

export const ConsignmentSchema = strictObject('Items a consignor left to be sold, with totals.', {
  id: uuid.describe('Consignment id.'),
  number: nullable.string('Human-facing consignment number.'),
  name: nullable.string('Name of the consignment.'),
  status: z.string().describe(`Current state; filterable values: ${codeList(CONSIGNMENT_STATUSES)}.`),
  paymentStatus: nullable.string('State of the payout to the consignor.'),
  consignor: ConsignorSchema.nullable(),
  commissionBps: nullable.integer('Commission in basis points; 1000 means 10%.'),
  buyerPremiumBps: nullable.integer("Buyer's premium in basis points."),
  numItems: count('Items linked to the consignment (`Item.consignmentId`).'),
  numItemsSold: count('Of those items, the ones with `quantity.sold` > 0.'),
  totalValueInCents: cents.describe('Sum of its items\u2019 `valueInCents`.'),
  totalSoldInCents: cents.describe(
    `Sum of the invoice lines for its items on invoices whose status is ${codeList(SOLD_INVOICE_STATUSES)}, in cents.`,
  ),
  totalCommissionInCents: cents.describe(
    'Commission kept: `totalSoldInCents × commissionBps / 10000`, rounded half up to the cent; 0 when `commissionBps` is null.',
  ),
  totalPayoutInCents: cents.describe('Owed to the consignor: `totalSoldInCents − totalCommissionInCents`.'),
  receivedAt: nullable.dateTime('When the items were received.'),
  soldAt: nullable.dateTime('When the last item sold.'),
  settledAt: nullable.dateTime('When the consignor was paid out.'),
  createdAt: dateTime.describe('When the consignment was created.'),
});

export const ListConsignmentsQuerySchema = listQuery('consignments', {
  status: z.enum(CONSIGNMENT_STATUSES).optional().describe('Only consignments in this state.'),
  consignorId: uuid.optional().describe('Only consignments of this consignor.'),
});

export const ConsignmentListSchema = listEnvelope(ConsignmentSchema, 'A page of consignments, newest first.');
