import { RESERVATIONS } from '../constants.js';
import { DryRunQuerySchema } from '../schemas/batch.js';
import {
  CreateReservationBodySchema,
  ListReservationsQuerySchema,
  ReservationListSchema,
  ReservationSchema,
} from '../schemas/inventory.js';
import { byId, c, IdParams, listAndGet, meta, withBody, write } from './common.js';

const reads = listAndGet(
  'Reservations',
  '/reservations',
  {
    summary: 'List reservations',
    description:
      "Lists the workspace's reservations, newest first (`createdAt` descending, then `id` descending), narrowed by item, status or reference.",
    operationId: 'listReservations',
    query: ListReservationsQuerySchema,
    page: ReservationListSchema,
  },
  {
    summary: 'Get a reservation',
    description: 'Returns one reservation and its status.',
    operationId: 'getReservation',
    entry: ReservationSchema,
  },
);

const dryRunText = 'With `dryRun=true` it is checked and answered as it would be, and nothing is written.';

/** A step of a held reservation: committing or releasing it. */
const step = (name: 'commit' | 'release', summary: string, description: string) =>
  ({
    method: 'POST' as const,
    path: `/reservations/:id/${name}`,
    summary,
    description: `${description} A reservation that is no longer held (committed, released, or expired, even if the server has not yet given its units back) is refused with 409 \`RESERVATION_NOT_HELD\`, and nothing moves. ${dryRunText}`,
    pathParams: IdParams,
    query: DryRunQuerySchema,
    body: c.noBody(),
    responses: { 200: ReservationSchema, ...byId, ...write },
    metadata: meta({
      scope: 'write',
      operationId: `${name}Reservation`,
      tag: 'Reservations',
      conflict: 'RESERVATION_NOT_HELD',
    }),
  }) as const;

/** The reservations routes: holding an item's units, and each hold's commit or release. */
export const reservations = c.router({
  create: {
    method: 'POST',
    path: '/items/:id/reservations',
    summary: 'Reserve units of an item',
    description: `Holds \`quantity\` units of the item for \`expiresInSeconds\` (default ${RESERVATIONS.expiresInSeconds.default}): they move from \`quantity.available\` to \`quantity.reserved\` under the item's lock, so two checkouts can never hold the same unit. Fewer units available than asked is refused with 409 \`INSUFFICIENT_QUANTITY\`, and nothing is held. A linked marketplace listing follows the new \`available\`. Commit the reservation when the customer has paid, release it when not; a held reservation expires at \`expiresAt\`, and the server gives its units back within seconds. ${dryRunText}`,
    pathParams: IdParams,
    query: DryRunQuerySchema,
    body: CreateReservationBodySchema,
    responses: { 200: ReservationSchema, ...byId, ...withBody, ...write },
    metadata: meta({
      scope: 'write',
      operationId: 'createReservation',
      tag: 'Reservations',
      conflict: 'INSUFFICIENT_QUANTITY',
    }),
  },
  list: reads.list,
  get: reads.get,
  commit: step(
    'commit',
    'Commit a reservation',
    "Sells the held units: they move from the item's `quantity.reserved` to `quantity.sold`.",
  ),
  release: step(
    'release',
    'Release a reservation',
    "Gives the held units back: they move from the item's `quantity.reserved` to `quantity.available` (and a linked marketplace listing follows).",
  ),
});
