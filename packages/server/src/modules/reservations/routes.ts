import { contract } from '@coinventory/contract';
import { readById } from '../../request/gated-read.js';
import { read, readOne, type WriteNotifier, write } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import { createReservation, endByClient } from './service.js';
import { listReservations, RESERVATIONS, reservationById } from './store.js';

/** GET /reservations/{id}, read in the request's authentication statement (request/gated-read.ts). */
export const reservationRead = readById(contract.reservations.get, RESERVATIONS, reservationById);

/** The reservations routes; each step tells `notify` of the sync jobs and deliveries it queued, after its commit. */
export const reservationsRoutes = (notify: WriteNotifier) =>
  routesFor(contract.reservations, {
    create: write(notify, ({ tx, organizationId, notify: told }, { params, body }) =>
      createReservation(tx, organizationId, params.id, body, told),
    ),
    list: read(({ db, organizationId }, { query }) => listReservations(db, organizationId, query)),
    get: readOne(reservationRead),
    commit: write(notify, ({ tx, organizationId, notify: told }, { params }) =>
      endByClient(tx, organizationId, params.id, 'committed', told),
    ),
    release: write(notify, ({ tx, organizationId, notify: told }, { params }) =>
      endByClient(tx, organizationId, params.id, 'released', told),
    ),
  });
