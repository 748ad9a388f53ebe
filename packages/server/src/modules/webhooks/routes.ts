import { contract } from '@coinventory/contract';
import { found } from '../../errors.js';
import { conditionsOf } from '../../request/etag.js';
import { readById } from '../../request/gated-read.js';
import { read, readOne, send, type WriteNotifier, write } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import {
  createEndpoint,
  deleteEndpoint,
  replay,
  rotateSecret,
  testEndpoint,
  updateEndpoint,
  type WebhookSettings,
} from './service.js';
import { ENDPOINTS, endpointById, findEndpoint, listDeliveries, listEndpoints } from './store.js';

/** GET by id, read in the request's authentication statement (request/gated-read.ts). */
export const endpointRead = readById(contract.webhookEndpoints.get, ENDPOINTS, endpointById);

/** The webhook endpoints routes: managing endpoints, their deliveries, replays and test pings. */
export const webhooksRoutes = (settings: WebhookSettings) => {
  const notify: WriteNotifier = { syncQueued: () => {}, webhooksQueued: settings.queued };
  return routesFor(contract.webhookEndpoints, {
    list: read(({ db, organizationId }, { query }) => listEndpoints(db, organizationId, query)),
    create: write(notify, ({ tx, organizationId }, { body }) => createEndpoint(tx, organizationId, body, settings)),
    get: readOne(endpointRead),
    update: write(notify, ({ tx, organizationId, notify: told }, { params, body, req }) =>
      updateEndpoint(tx, organizationId, params.id, body, settings, told, conditionsOf(req)),
    ),
    delete: write(notify, ({ tx, organizationId }, { params, req }) =>
      deleteEndpoint(tx, organizationId, params.id, conditionsOf(req)),
    ),
    rotateSecret: write(notify, ({ tx, organizationId }, { params }) => rotateSecret(tx, organizationId, params.id)),
    deliveries: read(async ({ db, organizationId }, { params, query }) => {
      found(await findEndpoint(db, organizationId, params.id));
      return listDeliveries(db, organizationId, params.id, query);
    }),
    replay: write(notify, ({ tx, organizationId, notify: told }, { params, body }) =>
      replay(tx, organizationId, params.id, body.after, told),
    ),
    // The ping goes out with no transaction open: its receiver may take seconds.
    test: send(({ db, organizationId }, { params }) => testEndpoint(db, organizationId, params.id, settings)),
  });
};
