import type { ConsignmentList } from '../../types.js';
import { first, firstPage } from './common.js';

export const consignmentList: ConsignmentList = firstPage(
  [
    {
      id: '66554938-d071-4ea1-b0d4-0f9508991957',
      number: 'C-2026-011',
      name: 'Marsh collection: Morgan and Peace dollars',
      status: 'sold',
      paymentStatus: 'unpaid',
      consignor: { id: '5b5b6e9f-4ef1-4445-98cf-507363856acd', name: 'Dr. Evelyn Marsh', email: 'emarsh@mail.example' },
      commissionBps: 1500,
      buyerPremiumBps: 2000,
      numItems: 4,
      numItemsSold: 4,
      totalValueInCents: 1240000,
      totalSoldInCents: 1315000,
      totalCommissionInCents: 197250,
      totalPayoutInCents: 1117750,
      receivedAt: '2026-08-30T14:00:00.000Z',
      soldAt: '2026-10-18T20:30:00.000Z',
      settledAt: null,
      createdAt: '2026-08-30T13:45:12.000Z',
    },
  ],
  false,
);

export const consignment = first(consignmentList.items);
