import {
  type Actor,
  type AdjustItemInput,
  type CreateReservationInput,
  type Item,
  ItemSchema,
  type Movement,
  MovementListSchema,
  type Reservation,
  ReservationListSchema,
  ReservationSchema,
} from '@coinventory/contract';
import { expect } from 'vitest';
import type { Sql } from '../../src/db/types.js';
import { issueApiKey } from '../../src/modules/access/index.js';
import { type ApiResponse, client, expectStatus } from './http.js';
import { type Api, getItem } from './items.js';
import type { TestOrganization } from './organization.js';

/**
 * Issue 37's inventory: adjustments, reservations and the ledger of movements, read and written through the API as a
 * client would, with the checks every suite of it makes (the invariants, who made each write).
 */

export type Quantities = Item['quantity'];

/** A client on a new read/write key of the organization, and the actor its writes must name. */
export async function keyedApi(
  sql: Sql,
  baseUrl: string,
  organization: Pick<TestOrganization, 'organizationId' | 'ownerId'>,
  name: string,
): Promise<{ api: Api; actor: Actor }> {
  const issued = await issueApiKey(sql, {
    organizationId: organization.organizationId,
    createdBy: organization.ownerId,
    name,
    scopes: ['read', 'write'],
  });
  return { api: client(baseUrl, issued.key), actor: { type: 'key', id: issued.id, name } };
}

/** What the reservation expiry worker's writes name. */
export const EXPIRY_ACTOR: Actor = { type: 'system', id: 'reservations', name: 'Reservation expiry' };

export const adjust = (api: Api, itemId: string, body: AdjustItemInput, headers: Record<string, string> = {}) =>
  api.post<Item>(`/items/${itemId}/adjustments`, { body, headers });

/** An adjustment that must succeed: the item it answers. */
export async function adjusted(api: Api, itemId: string, body: AdjustItemInput): Promise<Item> {
  const response = await adjust(api, itemId, body);
  expectStatus(response, 200);
  return ItemSchema.parse(response.body);
}

/** Every movement of the item, newest first, read a page at a time. */
export async function movementsOf(api: Api, itemId: string): Promise<Movement[]> {
  const movements: Movement[] = [];
  for (let page = 1; ; page += 1) {
    const response = await api.get(`/items/${itemId}/movements?limit=100&page=${page}`);
    expectStatus(response, 200);
    const list = MovementListSchema.parse(response.body);
    movements.push(...list.items);
    if (!list.hasMore) return movements;
  }
}

export const reserveRequest = (api: Api, itemId: string, body: CreateReservationInput, query = '') =>
  api.post<Reservation>(`/items/${itemId}/reservations${query}`, { body });

/** A hold that must succeed: the reservation it answers. */
export async function reserve(api: Api, itemId: string, body: CreateReservationInput): Promise<Reservation> {
  const response = await reserveRequest(api, itemId, body);
  expectStatus(response, 200);
  return ReservationSchema.parse(response.body);
}

/** POST /reservations/{id}/commit or /release, with no body. */
export const step = (api: Api, id: string, action: 'commit' | 'release', query = ''): Promise<ApiResponse> =>
  api.post(`/reservations/${id}/${action}${query}`);

/** Every reservation the query selects, newest first, read a page at a time. */
export async function reservationsOf(api: Api, query: Record<string, string> = {}): Promise<Reservation[]> {
  const reservations: Reservation[] = [];
  for (let page = 1; ; page += 1) {
    const search = new URLSearchParams({ ...query, limit: '100', page: String(page) });
    const response = await api.get(`/reservations?${search}`);
    expectStatus(response, 200);
    const list = ReservationListSchema.parse(response.body);
    reservations.push(...list.items);
    if (!list.hasMore) return reservations;
  }
}

/** What the deltas of these movements add up to. */
export function sumOfDeltas(movements: readonly Movement[]): Quantities {
  const sum = { available: 0, sold: 0, reserved: 0 };
  for (const { delta } of movements) {
    sum.available += delta.available;
    sum.sold += delta.sold;
    sum.reserved += delta.reserved;
  }
  return sum;
}

/**
 * Issue 37's invariants for one item, through the API: no quantity below 0, `reserved` the sum of its held
 * reservations, its movements' deltas adding up to its quantities and the newest one's `after` being them. Returns
 * the item and its movements.
 */
export async function expectInvariants(api: Api, itemId: string): Promise<{ item: Item; movements: Movement[] }> {
  const item = await getItem(api, itemId);
  const { available, sold, reserved } = item.quantity;
  const what = `item ${item.sku}: ${JSON.stringify(item.quantity)}`;
  expect(available, what).toBeGreaterThanOrEqual(0);
  expect(sold, what).toBeGreaterThanOrEqual(0);
  expect(reserved, what).toBeGreaterThanOrEqual(0);
  const held = await reservationsOf(api, { itemId, status: 'held' });
  expect(
    held.reduce((sum, reservation) => sum + reservation.quantity, 0),
    `${what}: reserved is the sum of its held reservations`,
  ).toBe(reserved);
  const movements = await movementsOf(api, itemId);
  expect(sumOfDeltas(movements), `${what}: its movements add up to its quantities`).toEqual(item.quantity);
  expect(movements[0]?.after, `${what}: its newest movement is where it is`).toEqual(item.quantity);
  return { item, movements };
}
