import type {
  Actor,
  AdjustItemInput,
  CreateReservationInput,
  Movement,
  MovementList,
  Reservation,
  ReservationList,
} from '../../types.js';
import { item } from './items.js';
import { me } from './me.js';

// The website's key sells one unit of the example item: a reservation at checkout, committed once paid.
export const keyActor: Actor = { type: 'key', id: me.apiKey.id, name: me.apiKey.name };

export const adjustItemBody: AdjustItemInput = { available: -1, sold: 1, reason: 'sale', reference: 'POS-20931' };

export const createReservationBody: CreateReservationInput = {
  quantity: 1,
  expiresInSeconds: 900,
  reference: 'WEB-ORDER-1187',
};

export const reservation: Reservation = {
  id: '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5',
  itemId: item.id,
  quantity: 1,
  status: 'held',
  reference: 'WEB-ORDER-1187',
  expiresAt: '2026-11-02T09:45:00.000Z',
  createdAt: '2026-11-02T09:30:00.000Z',
  updatedAt: null,
};

export const reservationList: ReservationList = { items: [reservation], page: 1, limit: 20, hasMore: false };

export const movement: Movement = {
  id: '7a2d3e4f-5b6c-4d7e-9f80-a1b2c3d4e5f6',
  itemId: item.id,
  kind: 'reserve',
  reason: null,
  reference: reservation.reference,
  delta: { available: -1, sold: 0, reserved: 1 },
  after: { ...item.quantity, available: item.quantity.available - 1, reserved: item.quantity.reserved + 1 },
  actor: keyActor,
  occurredAt: reservation.createdAt,
};

export const movementList: MovementList = { items: [movement], page: 1, limit: 20, hasMore: false };
