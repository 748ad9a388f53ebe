import type { Logger } from 'pino';
import type { Queryable } from '../../../db/types.js';
import { recordLocalDelivery } from '../store.js';
import type { MarketplaceAdapter } from './adapter.js';

/**
 * The stand-in marketplace when none is configured (the embedded demo): deliveries are recorded in
 * marketplace_local_deliveries and logged, so a new user can watch a sync happen.
 */
export function localMarketplaceAdapter(sql: Queryable, logger: Logger): MarketplaceAdapter {
  return {
    name: 'local',
    async setQuantity(request) {
      await recordLocalDelivery(sql, {
        organizationId: request.organizationId,
        jobId: request.idempotencyKey,
        marketplaceListingId: request.marketplaceListingId,
        action: 'set_quantity',
        quantity: request.quantity,
        sequence: request.sequence,
      });
      logger.info(
        { listing: request.marketplaceListingId, quantity: request.quantity },
        'marketplace (local): quantity set',
      );
      return {};
    },
    async deleteListing(request) {
      await recordLocalDelivery(sql, {
        organizationId: request.organizationId,
        jobId: request.idempotencyKey,
        marketplaceListingId: request.marketplaceListingId,
        action: 'delete_listing',
        quantity: null,
        sequence: request.sequence,
      });
      logger.info({ listing: request.marketplaceListingId }, 'marketplace (local): listing removed');
      return {};
    },
  };
}
