import type { Invoice, InvoiceList } from '../../types.js';
import { firstPage } from './common.js';

export const invoice: Invoice = {
  id: '2bb12c9d-e553-4756-938b-7cd17618129b',
  number: 1016,
  status: 'partially_paid',
  source: 'manual',
  customer: { id: 'c0e87d62-f012-43fd-bf75-c836488183d3', name: 'Harold Jennings', email: 'hjennings@mail.example' },
  subtotalInCents: 193500,
  discountInCents: 0,
  shippingInCents: 1500,
  taxInCents: 15964,
  totalInCents: 210964,
  paidInCents: 100000,
  dueInCents: 110964,
  lines: [
    {
      id: '75baa4a8-95ac-498f-97d5-e3a9c421fd4d',
      itemId: 'df52a9d7-c6b7-42df-ab64-e0f9e06bc516',
      description: '1932 Indian Head Eagle NGC MS64',
      quantity: 1,
      unitPriceInCents: 189000,
      totalPriceInCents: 189000,
    },
    {
      id: '5ba6bb3a-161c-49a3-9637-ac10abd53727',
      itemId: null,
      description: 'Archival album with 2x2 holders',
      quantity: 1,
      unitPriceInCents: 4500,
      totalPriceInCents: 4500,
    },
  ],
  payments: [
    {
      id: 'f3b1c0de-2f4e-4a51-9a0c-6d1c2b7e9a10',
      amountInCents: 100000,
      method: 'wire',
      status: 'succeeded',
      paidAt: '2026-11-15T10:02:00.000Z',
    },
  ],
  dueAt: '2026-11-28T00:00:00.000Z',
  paidAt: null,
  createdAt: '2026-11-14T17:41:46.000Z',
};

export const invoiceList: InvoiceList = firstPage([invoice], true);
