import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant } from '../../request/context.js';
import { createItem, deleteItem, listItemValuations, type SyncNotifier, updateItem } from './service.js';
import { findItem, listItems } from './store.js';

const s = initServer();

/** The items routes; writes that queue marketplace sync jobs tell `notifySync` after their commit. */
export const itemsRoutes = (notifySync: SyncNotifier) =>
  s.router(contract.items, {
    list: inTenant(({ sql, organizationId }, { query }) => listItems(sql, organizationId, query)),
    create: inTenant(({ sql, organizationId }, { body }) => createItem(sql, organizationId, body)),
    get: inTenant(async ({ sql, organizationId }, { params }) => found(await findItem(sql, organizationId, params.id))),
    update: inTenant(({ sql, organizationId }, { params, body, req }) =>
      updateItem(sql, organizationId, params.id, body, notifySync, { ifMatch: req.get('if-match') }),
    ),
    delete: inTenant(({ sql, organizationId }, { params, req }) =>
      deleteItem(sql, organizationId, params.id, notifySync, { ifMatch: req.get('if-match') }),
    ),
    valuations: inTenant(({ sql, organizationId }, { params, query }) =>
      listItemValuations(sql, organizationId, params.id, query.limit),
    ),
  });
