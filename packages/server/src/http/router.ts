import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import type { Logger } from 'pino';
import { meRoute, type RatePolicy } from '../modules/access/index.js';
import { categoriesRoutes, categoryRead } from '../modules/categories/index.js';
import { changesRoutes } from '../modules/changes/index.js';
import { consignmentRead, consignmentsRoutes } from '../modules/consignments/index.js';
import { invoiceRead, invoicesRoutes } from '../modules/invoices/index.js';
import { type ExportSlots, itemRead, itemsRoutes } from '../modules/items/index.js';
import { reservationRead, reservationsRoutes } from '../modules/reservations/index.js';
import { warehouseRead, warehousesRoutes } from '../modules/warehouses/index.js';
import { endpointRead, type WebhookSettings, webhooksRoutes } from '../modules/webhooks/index.js';
import type { WriteNotifier } from '../request/pipeline.js';

const s = initServer();

/**
 * Reads that travel in their request's authentication statement, one round trip where two were (request/gated-read.ts):
 * every `GET /…/{id}`.
 */
export const gatedReads = [
  itemRead,
  reservationRead,
  consignmentRead,
  invoiceRead,
  categoryRead,
  warehouseRead,
  endpointRead,
];

/**
 * The contract's router, assembled from each module's slice. Every handler is one of request/pipeline.ts's: it runs
 * on its request's own database work, whose statements the request's deadline can cancel and roll back.
 */
export function createRouter(
  policy: RatePolicy,
  notify: WriteNotifier,
  webhooks: WebhookSettings,
  logger: Logger,
  exportSlots: ExportSlots,
) {
  return s.router(contract, {
    me: meRoute(policy),
    items: itemsRoutes(notify, logger, exportSlots),
    reservations: reservationsRoutes(notify),
    consignments: consignmentsRoutes,
    invoices: invoicesRoutes,
    categories: categoriesRoutes,
    warehouses: warehousesRoutes,
    changes: changesRoutes,
    webhookEndpoints: webhooksRoutes(webhooks),
  });
}
