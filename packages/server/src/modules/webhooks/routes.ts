import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant, localsOf, tenantOf } from '../../request/context.js';
import { conditionsOf } from '../../request/etag.js';
import { readWithAuthentication } from '../../request/gated-read.js';
import {
  createEndpoint,
  deleteEndpoint,
  replay,
  rotateSecret,
  testEndpoint,
  updateEndpoint,
  type WebhookSettings,
} from './service.js';
import { endpointRead, findEndpoint, listDeliveries, listEndpoints } from './store.js';

/** The webhook endpoints routes: managing endpoints, their deliveries, replays and test pings. */
export const webhooksRoutes = (settings: WebhookSettings) =>
  initServer().router(contract.webhookEndpoints, {
    list: inTenant(({ sql, organizationId }, { query }) => listEndpoints(sql, organizationId, query)),
    create: inTenant(({ sql, organizationId }, { body }) => createEndpoint(sql, organizationId, body, settings)),
    get: inTenant(async ({ sql, organizationId }, { params, res }) =>
      found(await readWithAuthentication(res, endpointRead, () => findEndpoint(sql, organizationId, params.id))),
    ),
    update: inTenant(({ sql, organizationId }, { params, body, req }) =>
      updateEndpoint(sql, organizationId, params.id, body, settings, conditionsOf(req)),
    ),
    delete: inTenant(({ sql, organizationId }, { params, req }) =>
      deleteEndpoint(sql, organizationId, params.id, conditionsOf(req)),
    ),
    rotateSecret: inTenant(({ sql, organizationId }, { params }) => rotateSecret(sql, organizationId, params.id)),
    deliveries: inTenant(async ({ sql, organizationId }, { params, query }) => {
      found(await findEndpoint(sql, organizationId, params.id));
      return listDeliveries(sql, organizationId, params.id, query);
    }),
    replay: inTenant(({ sql, organizationId }, { params, body }) =>
      replay(sql, organizationId, params.id, body.after, settings),
    ),
    // Not inTenant: the ping goes out with no transaction open (an Idempotency-Key's would hold a connection, and on
    // the embedded database the only one, for as long as the receiver takes). Its answer is kept afterwards.
    test: async ({ params, res }) => {
      const { sql, organizationId } = tenantOf(res);
      const result = await testEndpoint(sql, organizationId, params.id, settings);
      const { keepAnswer } = localsOf(res);
      return { status: 200 as const, body: keepAnswer ? await keepAnswer(async () => result) : result };
    },
  });
