import type { ChangeList, ChangesCursor } from '../../types.js';
import { present } from './common.js';
import { consignment } from './consignments.js';
import { keyActor, reservation } from './inventory.js';
import { invoice } from './invoices.js';
import { item } from './items.js';
import { valuation } from './valuations.js';

// Cursors are opaque; these only look like what the server sends.
export const cursor = 'Y2hnXzQ4NTk4YjRiOjEwNDI';
export const changesCursor: ChangesCursor = { cursor };
export const itemUpdated = {
  id: '0b7c6f0e-3f8a-4f7e-9b65-0c3e4b6f9d21',
  type: 'item.updated',
  objectId: item.id,
  occurredAt: present(item.updatedAt),
  actor: keyActor,
  data: item,
} as const;
export const itemCreated = {
  ...itemUpdated,
  id: '5d0e9a3b-0f6c-4a57-8e37-2f9a1d6c4b10',
  type: 'item.created',
} as const;
export const itemDeleted = {
  id: 'c2f4a9d1-7e3b-4c1a-9f0d-8b6e5a4c3d21',
  type: 'item.deleted',
  objectId: '9a4e1c2b-5d6f-4e7a-8b9c-0d1e2f3a4b5c',
  occurredAt: '2026-11-02T09:15:03.000Z',
  actor: keyActor,
  data: null,
} as const;
export const valuationCreated = {
  id: '1e8b3c5d-7f9a-4b2c-8d4e-6f0a1b2c3d4e',
  type: 'valuation.created',
  objectId: valuation.id,
  occurredAt: valuation.createdAt,
  actor: { type: 'system', id: 'valuations', name: 'Valuation engine' },
  data: valuation,
} as const;
export const consignmentCreated = {
  id: '2f9c4d6e-8a0b-4c3d-9e5f-7a1b2c3d4e5f',
  type: 'consignment.created',
  objectId: consignment.id,
  occurredAt: '2026-11-02T09:20:00.000Z',
  actor: { type: 'operator', id: null, name: null },
  data: consignment,
} as const;
export const consignmentUpdated = {
  ...consignmentCreated,
  id: '3a0d5e7f-9b1c-4d4e-8f6a-8b2c3d4e5f60',
  type: 'consignment.updated',
} as const;
export const invoiceCreated = {
  id: '4b1e6f80-0c2d-4e5f-9a7b-9c3d4e5f6071',
  type: 'invoice.created',
  objectId: invoice.id,
  occurredAt: '2026-11-02T09:25:00.000Z',
  actor: { type: 'operator', id: null, name: null },
  data: invoice,
} as const;
export const invoiceUpdated = {
  ...invoiceCreated,
  id: '5c2f7091-1d3e-4f60-8b8c-0d4e5f607182',
  type: 'invoice.updated',
} as const;
export const reservationCreated = {
  id: '8b3e4f50-6c7d-4e8f-a091-b2c3d4e5f607',
  type: 'reservation.created',
  objectId: reservation.id,
  occurredAt: reservation.createdAt,
  actor: keyActor,
  data: reservation,
} as const;
export const reservationCommitted = {
  ...reservationCreated,
  id: '9c4f5061-7d8e-4f90-b1a2-c3d4e5f60718',
  type: 'reservation.committed',
  occurredAt: '2026-11-02T09:34:10.000Z',
  data: { ...reservation, status: 'committed', updatedAt: '2026-11-02T09:34:10.000Z' },
} as const;
export const reservationReleased = {
  ...reservationCommitted,
  id: 'ad506172-8e9f-4a01-82b3-d4e5f6071829',
  type: 'reservation.released',
  data: { ...reservationCommitted.data, status: 'released' },
} as const;
export const reservationExpired = {
  ...reservationCreated,
  id: 'be617283-9fa0-4b12-93c4-e5f60718293a',
  type: 'reservation.expired',
  occurredAt: '2026-11-02T09:45:01.000Z',
  actor: { type: 'system', id: 'reservations', name: 'Reservation expiry' },
  data: { ...reservation, status: 'expired', updatedAt: '2026-11-02T09:45:01.000Z' },
} as const;
export const changeList: ChangeList = {
  items: [itemUpdated, itemDeleted],
  nextCursor: 'Y2hnXzQ4NTk4YjRiOjEwNDQ',
  hasMore: false,
};
