import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant } from '../../request/context.js';
import { createItem, deleteItem, listItemValuations, updateItem, type WriteNotifier } from './service.js';
import { findItem, listItems } from './store.js';

const s = initServer();

/** The items routes; writes that queue work for the background workers tell `notify` after their commit. */
export const itemsRoutes = (notify: WriteNotifier) =>
  s.router(contract.items, {
    list: inTenant(({ sql, organizationId }, { query }) => listItems(sql, organizationId, query)),
    create: inTenant(({ sql, organizationId }, { body }) => createItem(sql, organizationId, body, notify)),
    get: inTenant(async ({ sql, organizationId }, { params }) => found(await findItem(sql, organizationId, params.id))),
    update: inTenant(({ sql, organizationId }, { params, body, req }) =>
      updateItem(sql, organizationId, params.id, body, notify, { ifMatch: req.get('if-match') }),
    ),
    delete: inTenant(({ sql, organizationId }, { params, req }) =>
      deleteItem(sql, organizationId, params.id, notify, { ifMatch: req.get('if-match') }),
    ),
    valuations: inTenant(({ sql, organizationId }, { params, query }) =>
      listItemValuations(sql, organizationId, params.id, query.limit),
    ),
  });
