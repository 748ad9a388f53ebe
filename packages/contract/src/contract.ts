import { categories } from './routes/categories.js';
import { changes } from './routes/changes.js';
import { c, meta, notModified, validated } from './routes/common.js';
import { consignments } from './routes/consignments.js';
import { invoices } from './routes/invoices.js';
import { items } from './routes/items.js';
import { reservations } from './routes/reservations.js';
import { warehouses } from './routes/warehouses.js';
import { webhookEndpoints } from './routes/webhook-endpoints.js';
import { MeSchema } from './schemas/me.js';

export { ROUTE_TAGS, type RouteMetadata } from './routes/common.js';

/** Every route of the API, one router per resource (src/routes/), in the order the reference lists them. */
export const contract = c.router(
  {
    me: {
      method: 'GET',
      path: '/me',
      summary: 'Get the caller',
      description:
        'Returns the organization and API key the request is authenticated as, and the rate limit that applies.',
      // 400: the route takes no parameters, and an unexpected one is refused rather than ignored.
      responses: { 200: MeSchema, ...validated, ...notModified },
      metadata: meta({ scope: 'read', operationId: 'getMe', tag: 'Account' }),
    },
    items,
    reservations,
    consignments,
    invoices,
    categories,
    warehouses,
    changes,
    webhookEndpoints,
  },
  { strictStatusCodes: true },
);

export type Contract = typeof contract;
